// The fields are SWAPI's, in the API's order; how they are read and written is SwapiRecord.swift.

/// A starship.
public struct Starship: SwapiRecord {
    public static let kind = ResourceKind.starships

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
    public var hyperdriveRating: String = "unknown"
    public var mglt: String = "unknown"
    public var starshipClass: String = "unknown"
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

extension Starship {
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
        try fields.text("hyperdrive_rating", &hyperdriveRating)
        try fields.text("MGLT", &mglt)
        try fields.text("starship_class", &starshipClass)
        try fields.links("pilots", &pilots)
        try fields.links("films", &films)
        try fields.timestamp("created", &_created)
        try fields.timestamp("edited", &_edited)
        try fields.ownURL("url", &url)
    }
}
