import FlowSite
import SWAPI

/// Species: classification, language, homeworld and members.
public enum SpeciesModule {
    /// "Mammal · sentient · speaks Shyriiwook".
    public static func summary(of species: Species) -> String {
        "\(Format.text(species.classification)) · \(Format.text(species.designation).lowercased()) · speaks \(Format.text(species.language))"
    }

    public static func detail(of species: Species, in catalog: Catalog) -> DetailContent {
        DetailContent(
            kind: .species,
            title: species.name,
            attributes: [
                .init("Classification", Format.text(species.classification)),
                .init("Designation", Format.text(species.designation)),
                .init("Average height", Format.quantity(species.averageHeight, unit: "cm")),
                .init("Skin colours", Format.text(species.skinColors)),
                .init("Hair colours", Format.text(species.hairColors)),
                .init("Eye colours", Format.text(species.eyeColors)),
                .init("Average lifespan", Format.quantity(species.averageLifespan, unit: "years")),
                .init("Language", Format.text(species.language)),
            ],
            relations: [
                .init("Homeworld", species.homeworld.map { [catalog.link(.planets, id: $0.id)] } ?? []),
                .init("People", catalog.links(.people, species.people)),
                .init("Films", catalog.filmLinks(species.films)),
            ]
        )
    }

    public static func makeCoordinator(_ dependencies: AppDependencies) -> some ChildCoordinator {
        ResourceFlowController(factory: LiveResourceFactory(dependencies: dependencies, kind: .species) {
            MappedDetailViewModel(dependencies: $0, id: $1, find: { $0.species($1) }, map: detail)
        })
    }
}
