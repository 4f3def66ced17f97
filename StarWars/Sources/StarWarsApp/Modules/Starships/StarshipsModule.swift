import FlowSite
import SWAPI

/// Starships: specifications, pilots and films.
public enum StarshipsModule: ResourceModule {
    /// "Light freighter · YT-1300 light freighter · Corellian Engineering Corporation".
    public static func summary(of starship: Starship, in catalog: Catalog, strings: Strings) -> String {
        let format = Format(strings)
        return
            """
            \(format.text(starship.starshipClass)) · \(format.text(starship.model)) · \
            \(format.text(starship.manufacturer))
            """
    }

    public static func find(_ id: Int, in catalog: Catalog) -> Starship? { catalog.starship(id) }

    public static func detail(of starship: Starship, in catalog: Catalog, strings: Strings) -> DetailContent {
        let format = Format(strings)
        return DetailContent(
            kind: .starships,
            title: starship.name,
            attributes: [
                .init(strings.localizedString(.attributeModel), format.text(starship.model)),
                .init(strings.localizedString(.attributeClass), format.text(starship.starshipClass)),
                .init(strings.localizedString(.attributeManufacturer), format.text(starship.manufacturer)),
                .init(strings.localizedString(.attributeCost), format.quantity(starship.costInCredits, unit: .credits)),
                .init(strings.localizedString(.attributeLength), format.measurement(starship.length, unit: .metres)),
                .init(
                    strings.localizedString(.attributeMaximumAtmosphericSpeed),
                    format.measurement(starship.maxAtmospheringSpeed, unit: .kilometresPerHour)),
                .init(strings.localizedString(.attributeCrew), format.quantity(starship.crew)),
                .init(strings.localizedString(.attributePassengers), format.quantity(starship.passengers)),
                .init(
                    strings.localizedString(.attributeCargoCapacity),
                    format.quantity(starship.cargoCapacity, unit: .kilograms)),
                .init(strings.localizedString(.attributeConsumables), format.duration(starship.consumables)),
                .init(strings.localizedString(.attributeHyperdriveRating), format.text(starship.hyperdriveRating)),
                .init(
                    strings.localizedString(.attributeMegalightsPerHour),
                    format.quantity(starship.mglt, unit: .megalights))
            ],
            relations: [
                .init(
                    strings.localizedString(.relationPilots),
                    catalog.links(.people, starship.pilots, strings: strings)),
                .init(strings.localizedString(.relationFilms), catalog.filmLinks(starship.films, strings: strings))
            ]
        )
    }
}
