import FlowSite
import SWAPI

/// What the Characters module knows about people: their list summary and their detail page.
public enum CharactersModule {
    /// "Human · Tatooine · born 19 BBY".
    public static func summary(of person: Person, in catalog: Catalog) -> String {
        let species = person.species.isEmpty
            ? "Species unknown"
            : person.species.map { catalog.archive.name(of: .species, id: $0.id) ?? "Unknown species" }.joined(separator: ", ")
        let homeworld = person.homeworld.map { catalog.archive.name(of: .planets, id: $0.id) ?? "Unknown world" } ?? "Unknown world"
        let born = person.birthYear.lowercased() == "unknown" ? "birth year unknown" : "born \(Format.birthYear(person.birthYear))"
        return [species, Format.text(homeworld), born].joined(separator: " · ")
    }

    /// The Characters flow: a flow controller over a factory of character screens.
    public static func makeCoordinator(_ dependencies: AppDependencies) -> some ChildCoordinator {
        ResourceFlowController(factory: LiveResourceFactory(dependencies: dependencies, kind: .people) {
            CharacterDetailViewModel(dependencies: $0, id: $1)
        })
    }

    /// Every attribute and relation of a character.
    public static func detail(of person: Person, in catalog: Catalog) -> DetailContent {
        DetailContent(
            kind: .people,
            title: person.name,
            attributes: [
                .init("Height", Format.quantity(person.height, unit: "cm")),
                .init("Mass", Format.quantity(person.mass, unit: "kg")),
                .init("Hair colour", Format.text(person.hairColor)),
                .init("Skin colour", Format.text(person.skinColor)),
                .init("Eye colour", Format.text(person.eyeColor)),
                .init("Birth year", Format.birthYear(person.birthYear)),
                .init("Gender", Format.text(person.gender)),
            ],
            relations: [
                .init("Homeworld", person.homeworld.map { [catalog.link(.planets, id: $0.id)] } ?? []),
                .init("Species", catalog.links(.species, person.species)),
                .init("Films", catalog.filmLinks(person.films)),
                .init("Starships", catalog.links(.starships, person.starships)),
                .init("Vehicles", catalog.links(.vehicles, person.vehicles)),
            ]
        )
    }
}

/// Loads one character.
public struct CharacterDetailViewModel: ResourceDetailViewModel {
    public typealias Dependencies = HasCatalogService & Sendable
    let dependencies: any Dependencies
    public let id: Int
    public var kind: ResourceKind { .people }

    public init(dependencies: any Dependencies, id: Int) {
        self.dependencies = dependencies
        self.id = id
    }

    public func load() async -> ScreenState<DetailContent> {
        await load(from: dependencies.catalog, find: { $0.person(id) }, content: CharactersModule.detail)
    }
}
