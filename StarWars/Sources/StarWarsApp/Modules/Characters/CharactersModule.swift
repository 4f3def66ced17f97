import FlowSite
import SWAPI

/// What the Characters module knows about people: their list summary and their detail page.
public enum CharactersModule: ResourceModule {
    /// "Human · Tatooine · born 19 BBY".
    public static func summary(of person: Person, in catalog: Catalog, strings: Strings) -> String {
        let format = Format(strings)
        // SWAPI leaves the list empty when the species was not recorded (most humans' is).
        let species =
            person.species.isEmpty
            ? strings.localizedString(.charactersSummarySpeciesNotRecorded)
            : person.species.map {
                catalog.rawName(of: .species, id: $0.id) ?? strings.localizedString(.charactersSummaryUnknownSpecies)
            }.joined(separator: ", ")
        let unknownWorld = strings.localizedString(.charactersSummaryUnknownWorld)
        let homeworld =
            person.homeworld.map { catalog.name(of: .planets, id: $0.id, strings: strings) ?? unknownWorld }
            ?? unknownWorld
        let born =
            person.birthYear.lowercased() == "unknown"
            ? strings.localizedString(.charactersSummaryBirthYearUnknown)
            : strings.localizedString(.charactersSummaryBorn, ["year": format.birthYear(person.birthYear)])
        return [species, format.text(homeworld), born].joined(separator: " · ")
    }

    public static func find(_ id: Int, in catalog: Catalog) -> Person? { catalog.person(id) }

    /// Every attribute and relation of a character.
    public static func detail(of person: Person, in catalog: Catalog, strings: Strings) -> DetailContent {
        let format = Format(strings)
        return DetailContent(
            kind: .people,
            title: person.name,
            attributes: [
                .init(strings.localizedString(.attributeHeight), format.measurement(person.height, unit: .centimetres)),
                .init(strings.localizedString(.attributeMass), format.measurement(person.mass, unit: .kilograms)),
                .init(strings.localizedString(.attributeHairColour), format.text(person.hairColor)),
                .init(strings.localizedString(.attributeSkinColour), format.text(person.skinColor)),
                .init(strings.localizedString(.attributeEyeColour), format.text(person.eyeColor)),
                .init(strings.localizedString(.attributeBirthYear), format.birthYear(person.birthYear)),
                .init(strings.localizedString(.attributeGender), format.text(person.gender))
            ],
            relations: [
                .init(
                    strings.localizedString(.relationHomeworld),
                    person.homeworld.map { [catalog.link(.planets, id: $0.id, strings: strings)] } ?? []),
                .init(
                    strings.localizedString(.relationSpecies),
                    catalog.links(.species, person.species, strings: strings),
                    ifEmpty: strings.localizedString(.detailRelationSpeciesNone)
                ),
                .init(strings.localizedString(.relationFilms), catalog.filmLinks(person.films, strings: strings)),
                .init(
                    strings.localizedString(.relationStarships),
                    catalog.links(.starships, person.starships, strings: strings)),
                .init(
                    strings.localizedString(.relationVehicles),
                    catalog.links(.vehicles, person.vehicles, strings: strings))
            ]
        )
    }
}
