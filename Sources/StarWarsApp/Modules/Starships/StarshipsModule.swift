import FlowSite
import SWAPI

/// Starships: specifications, pilots and films.
public enum StarshipsModule {
    /// "Light freighter · YT-1300 light freighter · Corellian Engineering Corporation".
    public static func summary(of starship: Starship) -> String {
        "\(Format.text(starship.starshipClass)) · \(Format.text(starship.model)) · \(Format.text(starship.manufacturer))"
    }

    public static func detail(of starship: Starship, in catalog: Catalog) -> DetailContent {
        DetailContent(
            kind: .starships,
            title: starship.name,
            attributes: [
                .init("Model", Format.text(starship.model)),
                .init("Class", Format.text(starship.starshipClass)),
                .init("Manufacturer", Format.text(starship.manufacturer)),
                .init("Cost", Format.quantity(starship.costInCredits, unit: "credits")),
                .init("Length", Format.quantity(starship.length, unit: "m")),
                .init("Maximum atmospheric speed", Format.quantity(starship.maxAtmospheringSpeed, unit: "km/h")),
                .init("Crew", Format.quantity(starship.crew)),
                .init("Passengers", Format.quantity(starship.passengers)),
                .init("Cargo capacity", Format.quantity(starship.cargoCapacity, unit: "kg")),
                .init("Consumables", Format.text(starship.consumables)),
                .init("Hyperdrive rating", Format.text(starship.hyperdriveRating)),
                .init("Megalights per hour", Format.quantity(starship.mglt, unit: "MGLT")),
            ],
            relations: [
                .init("Pilots", catalog.links(.people, starship.pilots)),
                .init("Films", catalog.filmLinks(starship.films)),
            ]
        )
    }

    public static func makeCoordinator(_ dependencies: AppDependencies) -> some ChildCoordinator {
        ResourceFlowController(factory: LiveResourceFactory(dependencies: dependencies, kind: .starships) {
            MappedDetailViewModel(dependencies: $0, id: $1, find: { $0.starship($1) }, map: detail)
        })
    }
}
