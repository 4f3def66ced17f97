// The fields are SWAPI's, in the API's order; how they are read and written is SwapiRecord.swift.

/// A character: one of SWAPI's `people`.
public struct Person: SwapiRecord {
    public static let kind = ResourceKind.people

    public var name: String
    public var height: String = "unknown"
    public var mass: String = "unknown"
    public var hairColor: String = "unknown"
    public var skinColor: String = "unknown"
    public var eyeColor: String = "unknown"
    public var birthYear: String = "unknown"
    public var gender: String = "unknown"
    public var homeworld: ResourceLink?
    public var films: [ResourceLink] = []
    public var species: [ResourceLink] = []
    public var vehicles: [ResourceLink] = []
    public var starships: [ResourceLink] = []
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

extension Person {
    package init() { self.init(name: "", url: .blank) }

    package mutating func fields(_ fields: inout some SwapiFields) throws {
        try fields.required("name", &name)
        try fields.text("height", &height)
        try fields.text("mass", &mass)
        try fields.text("hair_color", &hairColor)
        try fields.text("skin_color", &skinColor)
        try fields.text("eye_color", &eyeColor)
        try fields.text("birth_year", &birthYear)
        try fields.text("gender", &gender)
        try fields.link("homeworld", &homeworld)
        try fields.links("films", &films)
        try fields.links("species", &species)
        try fields.links("vehicles", &vehicles)
        try fields.links("starships", &starships)
        try fields.timestamp("created", &_created)
        try fields.timestamp("edited", &_edited)
        try fields.ownURL("url", &url)
    }
}
