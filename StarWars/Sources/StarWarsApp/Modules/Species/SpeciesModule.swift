import FlowSite
import SWAPI

/// Species: classification, language, homeworld and members.
public enum SpeciesModule: ResourceModule {
    /// "Mammal · sentient · speaks Shyriiwook".
    public static func summary(of species: Species, in catalog: Catalog, strings: Strings) -> String {
        let format = Format(strings)
        return strings.localizedString(
            .speciesSummary,
            [
                "classification": format.text(species.classification),
                "designation": format.text(species.designation).lowercased(),
                "language": format.text(species.language)
            ])
    }

    public static func find(_ id: Int, in catalog: Catalog) -> Species? { catalog.species(id) }

    public static func detail(of species: Species, in catalog: Catalog, strings: Strings) -> DetailContent {
        let format = Format(strings)
        return DetailContent(
            kind: .species,
            title: species.name,
            attributes: [
                .init(strings.localizedString(.attributeClassification), format.text(species.classification)),
                .init(strings.localizedString(.attributeDesignation), format.text(species.designation)),
                .init(
                    strings.localizedString(.attributeAverageHeight),
                    format.measurement(species.averageHeight, unit: .centimetres)),
                .init(strings.localizedString(.attributeSkinColours), format.text(species.skinColors)),
                .init(strings.localizedString(.attributeHairColours), format.text(species.hairColors)),
                .init(strings.localizedString(.attributeEyeColours), format.text(species.eyeColors)),
                .init(
                    strings.localizedString(.attributeAverageLifespan),
                    format.measurement(species.averageLifespan, unit: .years)),
                .init(strings.localizedString(.attributeLanguage), format.text(species.language))
            ],
            relations: [
                .init(
                    strings.localizedString(.relationHomeworld),
                    species.homeworld.map { [catalog.link(.planets, id: $0.id, strings: strings)] } ?? []),
                .init(
                    strings.localizedString(.relationPeople), catalog.links(.people, species.people, strings: strings)),
                .init(strings.localizedString(.relationFilms), catalog.filmLinks(species.films, strings: strings))
            ]
        )
    }
}
