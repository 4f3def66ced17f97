// The fields are SWAPI's, in the API's order; how they are read and written is SwapiRecord.swift.

/// A planet.
public struct Planet: SwapiRecord {
    public static let kind = ResourceKind.planets

    public var name: String
    public var rotationPeriod: String = "unknown"
    public var orbitalPeriod: String = "unknown"
    public var diameter: String = "unknown"
    public var climate: String = "unknown"
    public var gravity: String = "unknown"
    public var terrain: String = "unknown"
    public var surfaceWater: String = "unknown"
    public var population: String = "unknown"
    public var residents: [ResourceLink] = []
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

extension Planet {
    package init() { self.init(name: "", url: .blank) }

    package mutating func fields(_ fields: inout some SwapiFields) throws {
        try fields.required("name", &name)
        try fields.text("rotation_period", &rotationPeriod)
        try fields.text("orbital_period", &orbitalPeriod)
        try fields.text("diameter", &diameter)
        try fields.text("climate", &climate)
        try fields.text("gravity", &gravity)
        try fields.text("terrain", &terrain)
        try fields.text("surface_water", &surfaceWater)
        try fields.text("population", &population)
        try fields.links("residents", &residents)
        try fields.links("films", &films)
        try fields.timestamp("created", &_created)
        try fields.timestamp("edited", &_edited)
        try fields.ownURL("url", &url)
    }
}
