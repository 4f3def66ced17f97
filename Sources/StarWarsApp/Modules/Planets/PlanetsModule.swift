import FlowSite
import SWAPI

/// Planets: climate, terrain, population and who lives there.
public enum PlanetsModule {
    /// "Arid · desert · population 200,000".
    public static func summary(of planet: Planet) -> String {
        "\(Format.text(planet.climate)) · \(Format.text(planet.terrain)) · population \(Format.quantity(planet.population).lowercased())"
    }

    public static func detail(of planet: Planet, in catalog: Catalog) -> DetailContent {
        DetailContent(
            kind: .planets,
            title: planet.name == "unknown" ? "Unknown planet" : planet.name,
            attributes: [
                .init("Rotation period", Format.quantity(planet.rotationPeriod, unit: "hours")),
                .init("Orbital period", Format.quantity(planet.orbitalPeriod, unit: "days")),
                .init("Diameter", Format.quantity(planet.diameter, unit: "km")),
                .init("Climate", Format.text(planet.climate)),
                .init("Gravity", Format.text(planet.gravity)),
                .init("Terrain", Format.text(planet.terrain)),
                .init("Surface water", Format.quantity(planet.surfaceWater, unit: "%")),
                .init("Population", Format.quantity(planet.population)),
            ],
            relations: [
                .init("Residents", catalog.links(.people, planet.residents)),
                .init("Films", catalog.filmLinks(planet.films)),
            ]
        )
    }

    public static func makeCoordinator(_ dependencies: AppDependencies) -> some ChildCoordinator {
        ResourceFlowController(factory: LiveResourceFactory(dependencies: dependencies, kind: .planets) {
            MappedDetailViewModel(dependencies: $0, id: $1, find: { $0.planet($1) }, map: detail)
        })
    }
}
