// The fields are SWAPI's, in the API's order; how they are read and written is SwapiRecord.swift.

/// A vehicle.
public struct Vehicle: SwapiRecord {
    public static let kind = ResourceKind.vehicles

    public var name: String
    public var model: String = "unknown"
    public var manufacturer: String = "unknown"
    public var costInCredits: String = "unknown"
    public var length: String = "unknown"
    public var maxAtmospheringSpeed: String = "unknown"
    public var crew: String = "unknown"
    public var passengers: String = "unknown"
    public var cargoCapacity: String = "unknown"
    public var consumables: String = "unknown"
    public var vehicleClass: String = "unknown"
    public var pilots: [ResourceLink] = []
    public var films: [ResourceLink] = []
    /// When SWAPI made the record, as it writes it. (Kept small: see ``PackedTimestamp``.)
    @PackedTimestamp public var created: String = "unknown"
    /// When SWAPI last changed the record, as it writes it. (Kept small: see ``PackedTimestamp``.)
    @PackedTimestamp public var edited: String = "unknown"
    public var url: ResourceLink

    /// The resource's id, from its URL.
    public var id: Int { url.id }
    /// What the resource is called.
    public var displayName: String { name }
}

extension Vehicle {
    package init() { self.init(name: "", url: .blank) }

    package mutating func fields(_ fields: inout some SwapiFields) throws {
        try fields.required("name", &name)
        try fields.text("model", &model)
        try fields.text("manufacturer", &manufacturer)
        try fields.text("cost_in_credits", &costInCredits)
        try fields.text("length", &length)
        try fields.text("max_atmosphering_speed", &maxAtmospheringSpeed)
        try fields.text("crew", &crew)
        try fields.text("passengers", &passengers)
        try fields.text("cargo_capacity", &cargoCapacity)
        try fields.text("consumables", &consumables)
        try fields.text("vehicle_class", &vehicleClass)
        try fields.links("pilots", &pilots)
        try fields.links("films", &films)
        try fields.timestamp("created", &_created)
        try fields.timestamp("edited", &_edited)
        try fields.ownURL("url", &url)
    }
}
