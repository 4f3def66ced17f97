import FlowSite
import SWAPI

/// Planets: climate, terrain, population and who lives there.
public enum PlanetsModule: ResourceModule {
    /// "Arid · desert · population 200,000".
    public static func summary(of planet: Planet, in catalog: Catalog, strings: Strings) -> String {
        let format = Format(strings)
        return strings.localizedString(
            .planetsSummary,
            [
                "climate": format.text(planet.climate), "terrain": format.text(planet.terrain),
                "population": format.quantity(planet.population).lowercased()
            ])
    }

    public static func find(_ id: Int, in catalog: Catalog) -> Planet? { catalog.planet(id) }

    public static func detail(of planet: Planet, in catalog: Catalog, strings: Strings) -> DetailContent {
        let format = Format(strings)
        return DetailContent(
            kind: .planets,
            title: format.name(planet.name, of: .planets),
            attributes: [
                .init(
                    strings.localizedString(.attributeRotationPeriod),
                    format.measurement(planet.rotationPeriod, unit: .hours)),
                .init(
                    strings.localizedString(.attributeOrbitalPeriod),
                    format.measurement(planet.orbitalPeriod, unit: .days)),
                .init(
                    strings.localizedString(.attributeDiameter),
                    format.measurement(planet.diameter, unit: .kilometres)),
                .init(strings.localizedString(.attributeClimate), format.text(planet.climate)),
                .init(strings.localizedString(.attributeGravity), format.text(planet.gravity)),
                .init(strings.localizedString(.attributeTerrain), format.text(planet.terrain)),
                .init(
                    strings.localizedString(.attributeSurfaceWater),
                    format.quantity(planet.surfaceWater, unit: .percent)),
                .init(strings.localizedString(.attributePopulation), format.quantity(planet.population))
            ],
            relations: [
                .init(
                    strings.localizedString(.relationResidents),
                    catalog.links(.people, planet.residents, strings: strings)),
                .init(strings.localizedString(.relationFilms), catalog.filmLinks(planet.films, strings: strings))
            ]
        )
    }
}
