// The fields are SWAPI's, in the API's order; how they are read and written is SwapiRecord.swift.

/// A species.
public struct Species: SwapiRecord {
    public static let kind = ResourceKind.species

    public var name: String
    public var classification: String = "unknown"
    public var designation: String = "unknown"
    public var averageHeight: String = "unknown"
    public var skinColors: String = "unknown"
    public var hairColors: String = "unknown"
    public var eyeColors: String = "unknown"
    public var averageLifespan: String = "unknown"
    public var homeworld: ResourceLink?
    public var language: String = "unknown"
    public var people: [ResourceLink] = []
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

extension Species {
    package init() { self.init(name: "", url: .blank) }

    package mutating func fields(_ fields: inout some SwapiFields) throws {
        try fields.required("name", &name)
        try fields.text("classification", &classification)
        try fields.text("designation", &designation)
        try fields.text("average_height", &averageHeight)
        try fields.text("skin_colors", &skinColors)
        try fields.text("hair_colors", &hairColors)
        try fields.text("eye_colors", &eyeColors)
        try fields.text("average_lifespan", &averageLifespan)
        try fields.link("homeworld", &homeworld)
        try fields.text("language", &language)
        try fields.links("people", &people)
        try fields.links("films", &films)
        try fields.timestamp("created", &_created)
        try fields.timestamp("edited", &_edited)
        try fields.ownURL("url", &url)
    }
}
