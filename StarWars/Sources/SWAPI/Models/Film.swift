// The fields are SWAPI's, in the API's order; how they are read and written is SwapiRecord.swift.

/// A film.
public struct Film: SwapiRecord {
    public static let kind = ResourceKind.films

    public var title: String
    public var episodeID: Int?
    public var openingCrawl: String = "unknown"
    public var director: String = "unknown"
    public var producer: String = "unknown"
    public var releaseDate: String = "unknown"
    public var characters: [ResourceLink] = []
    public var planets: [ResourceLink] = []
    public var starships: [ResourceLink] = []
    public var vehicles: [ResourceLink] = []
    public var species: [ResourceLink] = []
    /// When SWAPI made the record, as it writes it. (Kept small: see ``PackedTimestamp``.)
    @PackedTimestamp public var created: String = "unknown"
    /// When SWAPI last changed the record, as it writes it. (Kept small: see ``PackedTimestamp``.)
    @PackedTimestamp public var edited: String = "unknown"
    public var url: ResourceLink

    /// The resource's id, from its URL.
    public var id: Int { url.id }
    /// What the resource is called.
    public var displayName: String { title }
}

extension Film {
    package init() { self.init(title: "", url: .blank) }

    package mutating func fields(_ fields: inout some SwapiFields) throws {
        try fields.required("title", &title)
        try fields.integer("episode_id", &episodeID)
        try fields.text("opening_crawl", &openingCrawl)
        try fields.text("director", &director)
        try fields.text("producer", &producer)
        try fields.text("release_date", &releaseDate)
        try fields.links("characters", &characters)
        try fields.links("planets", &planets)
        try fields.links("starships", &starships)
        try fields.links("vehicles", &vehicles)
        try fields.links("species", &species)
        try fields.timestamp("created", &_created)
        try fields.timestamp("edited", &_edited)
        try fields.ownURL("url", &url)
    }
}
