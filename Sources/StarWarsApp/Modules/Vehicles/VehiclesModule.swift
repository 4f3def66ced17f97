import FlowSite
import SWAPI

/// Vehicles: specifications, pilots and films.
public enum VehiclesModule {
    /// "Wheeled · Digger Crawler · Corellia Mining Corporation".
    public static func summary(of vehicle: Vehicle) -> String {
        "\(Format.text(vehicle.vehicleClass)) · \(Format.text(vehicle.model)) · \(Format.text(vehicle.manufacturer))"
    }

    public static func detail(of vehicle: Vehicle, in catalog: Catalog) -> DetailContent {
        DetailContent(
            kind: .vehicles,
            title: vehicle.name,
            attributes: [
                .init("Model", Format.text(vehicle.model)),
                .init("Class", Format.text(vehicle.vehicleClass)),
                .init("Manufacturer", Format.text(vehicle.manufacturer)),
                .init("Cost", Format.quantity(vehicle.costInCredits, unit: "credits")),
                .init("Length", Format.quantity(vehicle.length, unit: "m")),
                .init("Maximum atmospheric speed", Format.quantity(vehicle.maxAtmospheringSpeed, unit: "km/h")),
                .init("Crew", Format.quantity(vehicle.crew)),
                .init("Passengers", Format.quantity(vehicle.passengers)),
                .init("Cargo capacity", Format.quantity(vehicle.cargoCapacity, unit: "kg")),
                .init("Consumables", Format.text(vehicle.consumables)),
            ],
            relations: [
                .init("Pilots", catalog.links(.people, vehicle.pilots)),
                .init("Films", catalog.filmLinks(vehicle.films)),
            ]
        )
    }

    public static func makeCoordinator(_ dependencies: AppDependencies) -> some ChildCoordinator {
        ResourceFlowController(factory: LiveResourceFactory(dependencies: dependencies, kind: .vehicles) {
            MappedDetailViewModel(dependencies: $0, id: $1, find: { $0.vehicle($1) }, map: detail)
        })
    }
}
