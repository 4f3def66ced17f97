import FlowSite
import SWAPI

/// Vehicles: specifications, pilots and films.
public enum VehiclesModule: ResourceModule {
    /// "Wheeled · Digger Crawler · Corellia Mining Corporation".
    public static func summary(of vehicle: Vehicle, in catalog: Catalog, strings: Strings) -> String {
        let format = Format(strings)
        return
            """
            \(format.text(vehicle.vehicleClass)) · \(format.text(vehicle.model)) · \(format.text(vehicle.manufacturer))
            """
    }

    public static func find(_ id: Int, in catalog: Catalog) -> Vehicle? { catalog.vehicle(id) }

    public static func detail(of vehicle: Vehicle, in catalog: Catalog, strings: Strings) -> DetailContent {
        let format = Format(strings)
        return DetailContent(
            kind: .vehicles,
            title: vehicle.name,
            attributes: [
                .init(strings.localizedString(.attributeModel), format.text(vehicle.model)),
                .init(strings.localizedString(.attributeClass), format.text(vehicle.vehicleClass)),
                .init(strings.localizedString(.attributeManufacturer), format.text(vehicle.manufacturer)),
                .init(strings.localizedString(.attributeCost), format.quantity(vehicle.costInCredits, unit: .credits)),
                .init(strings.localizedString(.attributeLength), format.measurement(vehicle.length, unit: .metres)),
                .init(
                    strings.localizedString(.attributeMaximumAtmosphericSpeed),
                    format.measurement(vehicle.maxAtmospheringSpeed, unit: .kilometresPerHour)),
                .init(strings.localizedString(.attributeCrew), format.quantity(vehicle.crew)),
                .init(strings.localizedString(.attributePassengers), format.quantity(vehicle.passengers)),
                .init(
                    strings.localizedString(.attributeCargoCapacity),
                    format.quantity(vehicle.cargoCapacity, unit: .kilograms)),
                .init(strings.localizedString(.attributeConsumables), format.duration(vehicle.consumables))
            ],
            relations: [
                .init(
                    strings.localizedString(.relationPilots), catalog.links(.people, vehicle.pilots, strings: strings)),
                .init(strings.localizedString(.relationFilms), catalog.filmLinks(vehicle.films, strings: strings))
            ]
        )
    }
}
