// The fields are SWAPI's, in the API's order; decoding is tolerant (see SwapiDecoding.swift).

/// A film.
public struct Film: SwapiResource, SwapiJSONDecodable {
    public static let kind = ResourceKind.films

    public var title: String
    public var episodeID: Int?
    public var openingCrawl: String
    public var director: String
    public var producer: String
    public var releaseDate: String
    public var characters: [ResourceLink]
    public var planets: [ResourceLink]
    public var starships: [ResourceLink]
    public var vehicles: [ResourceLink]
    public var species: [ResourceLink]
    /// When SWAPI made the record, as it writes it. (Kept small: see ``PackedTimestamp``.)
    @PackedTimestamp public var created: String
    /// When SWAPI last changed the record, as it writes it. (Kept small: see ``PackedTimestamp``.)
    @PackedTimestamp public var edited: String
    public var url: ResourceLink

    /// The resource's id, from its URL.
    public var id: Int { url.id }
    /// What the resource is called.
    public var displayName: String { title }

    public init(
        title: String,
        episodeID: Int? = nil,
        openingCrawl: String = "unknown",
        director: String = "unknown",
        producer: String = "unknown",
        releaseDate: String = "unknown",
        characters: [ResourceLink] = [],
        planets: [ResourceLink] = [],
        starships: [ResourceLink] = [],
        vehicles: [ResourceLink] = [],
        species: [ResourceLink] = [],
        created: String = "unknown",
        edited: String = "unknown",
        url: ResourceLink
    ) {
        self.title = title
        self.episodeID = episodeID
        self.openingCrawl = openingCrawl
        self.director = director
        self.producer = producer
        self.releaseDate = releaseDate
        self.characters = characters
        self.planets = planets
        self.starships = starships
        self.vehicles = vehicles
        self.species = species
        self.created = created
        self.edited = edited
        self.url = url
    }

    enum CodingKeys: String, CodingKey {
        case title
        case episodeID = "episode_id"
        case openingCrawl = "opening_crawl"
        case director
        case producer
        case releaseDate = "release_date"
        case characters
        case planets
        case starships
        case vehicles
        case species
        case created
        case edited
        case url
    }

    public init(from decoder: any Decoder) throws {
        try self.init(fields: decoder.container(keyedBy: CodingKeys.self))
    }

    package init(json fields: SwapiJSONReader.Fields) throws {
        try self.init(fields: fields.keyed(by: CodingKeys.self))
    }

    package init(json fields: SwapiJSONReader.Fields, recordingInto recorder: DecodedCache.Recorder) throws {
        try self.init(fields: RecordingFields(base: fields.keyed(by: CodingKeys.self), recorder: recorder))
    }

    package init(cached reader: DecodedCache.Reader) throws {
        try self.init(fields: CachedFields<CodingKeys>(reader: reader))
    }

    /// The fields of every decoder: Foundation's, the reader of ordinary files, and the decoded
    /// data a build keeps (``DecodedCache``), which reads them back in this order.
    private init<Fields: SwapiFields>(fields container: Fields) throws where Fields.Key == CodingKeys {
        title = try container.required(.title)
        episodeID = try container.integer(.episodeID)
        openingCrawl = try container.text(.openingCrawl)
        director = try container.text(.director)
        producer = try container.text(.producer)
        releaseDate = try container.text(.releaseDate)
        characters = try container.links(.characters)
        planets = try container.links(.planets)
        starships = try container.links(.starships)
        vehicles = try container.links(.vehicles)
        species = try container.links(.species)
        _created = PackedTimestamp(try container.timestamp(.created))
        _edited = PackedTimestamp(try container.timestamp(.edited))
        url = try container.ownURL(.url)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(title, forKey: .title)
        try container.encode(episodeID, forKey: .episodeID)
        try container.encode(openingCrawl, forKey: .openingCrawl)
        try container.encode(director, forKey: .director)
        try container.encode(producer, forKey: .producer)
        try container.encode(releaseDate, forKey: .releaseDate)
        try container.encode(characters, forKey: .characters)
        try container.encode(planets, forKey: .planets)
        try container.encode(starships, forKey: .starships)
        try container.encode(vehicles, forKey: .vehicles)
        try container.encode(species, forKey: .species)
        try container.encode(created, forKey: .created)
        try container.encode(edited, forKey: .edited)
        try container.encode(url.url, forKey: .url)
    }
}
