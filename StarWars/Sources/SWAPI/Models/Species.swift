// The fields are SWAPI's, in the API's order; decoding is tolerant (see SwapiDecoding.swift).

/// A species.
public struct Species: SwapiResource, SwapiJSONDecodable {
    public static let kind = ResourceKind.species

    public var name: String
    public var classification: String
    public var designation: String
    public var averageHeight: String
    public var skinColors: String
    public var hairColors: String
    public var eyeColors: String
    public var averageLifespan: String
    public var homeworld: ResourceLink?
    public var language: String
    public var people: [ResourceLink]
    public var films: [ResourceLink]
    /// When SWAPI made the record, as it writes it. (Kept small: see ``PackedTimestamp``.)
    @PackedTimestamp public var created: String
    /// When SWAPI last changed the record, as it writes it. (Kept small: see ``PackedTimestamp``.)
    @PackedTimestamp public var edited: String
    public var url: ResourceLink

    /// The resource's id, from its URL.
    public var id: Int { url.id }
    /// What the resource is called.
    public var displayName: String { name }

    public init(
        name: String,
        classification: String = "unknown",
        designation: String = "unknown",
        averageHeight: String = "unknown",
        skinColors: String = "unknown",
        hairColors: String = "unknown",
        eyeColors: String = "unknown",
        averageLifespan: String = "unknown",
        homeworld: ResourceLink? = nil,
        language: String = "unknown",
        people: [ResourceLink] = [],
        films: [ResourceLink] = [],
        created: String = "unknown",
        edited: String = "unknown",
        url: ResourceLink
    ) {
        self.name = name
        self.classification = classification
        self.designation = designation
        self.averageHeight = averageHeight
        self.skinColors = skinColors
        self.hairColors = hairColors
        self.eyeColors = eyeColors
        self.averageLifespan = averageLifespan
        self.homeworld = homeworld
        self.language = language
        self.people = people
        self.films = films
        self.created = created
        self.edited = edited
        self.url = url
    }

    enum CodingKeys: String, CodingKey {
        case name
        case classification
        case designation
        case averageHeight = "average_height"
        case skinColors = "skin_colors"
        case hairColors = "hair_colors"
        case eyeColors = "eye_colors"
        case averageLifespan = "average_lifespan"
        case homeworld
        case language
        case people
        case films
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
        name = try container.required(.name)
        classification = try container.text(.classification)
        designation = try container.text(.designation)
        averageHeight = try container.text(.averageHeight)
        skinColors = try container.text(.skinColors)
        hairColors = try container.text(.hairColors)
        eyeColors = try container.text(.eyeColors)
        averageLifespan = try container.text(.averageLifespan)
        homeworld = try container.link(.homeworld)
        language = try container.text(.language)
        people = try container.links(.people)
        films = try container.links(.films)
        _created = PackedTimestamp(try container.timestamp(.created))
        _edited = PackedTimestamp(try container.timestamp(.edited))
        url = try container.ownURL(.url)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(classification, forKey: .classification)
        try container.encode(designation, forKey: .designation)
        try container.encode(averageHeight, forKey: .averageHeight)
        try container.encode(skinColors, forKey: .skinColors)
        try container.encode(hairColors, forKey: .hairColors)
        try container.encode(eyeColors, forKey: .eyeColors)
        try container.encode(averageLifespan, forKey: .averageLifespan)
        try container.encode(homeworld?.url, forKey: .homeworld)
        try container.encode(language, forKey: .language)
        try container.encode(people, forKey: .people)
        try container.encode(films, forKey: .films)
        try container.encode(created, forKey: .created)
        try container.encode(edited, forKey: .edited)
        try container.encode(url.url, forKey: .url)
    }
}
