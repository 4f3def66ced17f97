// The fields are SWAPI's, in the API's order; decoding is tolerant (see SwapiDecoding.swift).

/// A character: one of SWAPI's `people`.
public struct Person: SwapiResource, SwapiJSONDecodable {
    public static let kind = ResourceKind.people

    public var name: String
    public var height: String
    public var mass: String
    public var hairColor: String
    public var skinColor: String
    public var eyeColor: String
    public var birthYear: String
    public var gender: String
    public var homeworld: ResourceLink?
    public var films: [ResourceLink]
    public var species: [ResourceLink]
    public var vehicles: [ResourceLink]
    public var starships: [ResourceLink]
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
        height: String = "unknown",
        mass: String = "unknown",
        hairColor: String = "unknown",
        skinColor: String = "unknown",
        eyeColor: String = "unknown",
        birthYear: String = "unknown",
        gender: String = "unknown",
        homeworld: ResourceLink? = nil,
        films: [ResourceLink] = [],
        species: [ResourceLink] = [],
        vehicles: [ResourceLink] = [],
        starships: [ResourceLink] = [],
        created: String = "unknown",
        edited: String = "unknown",
        url: ResourceLink
    ) {
        self.name = name
        self.height = height
        self.mass = mass
        self.hairColor = hairColor
        self.skinColor = skinColor
        self.eyeColor = eyeColor
        self.birthYear = birthYear
        self.gender = gender
        self.homeworld = homeworld
        self.films = films
        self.species = species
        self.vehicles = vehicles
        self.starships = starships
        self.created = created
        self.edited = edited
        self.url = url
    }

    enum CodingKeys: String, CodingKey {
        case name
        case height
        case mass
        case hairColor = "hair_color"
        case skinColor = "skin_color"
        case eyeColor = "eye_color"
        case birthYear = "birth_year"
        case gender
        case homeworld
        case films
        case species
        case vehicles
        case starships
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
        height = try container.text(.height)
        mass = try container.text(.mass)
        hairColor = try container.text(.hairColor)
        skinColor = try container.text(.skinColor)
        eyeColor = try container.text(.eyeColor)
        birthYear = try container.text(.birthYear)
        gender = try container.text(.gender)
        homeworld = try container.link(.homeworld)
        films = try container.links(.films)
        species = try container.links(.species)
        vehicles = try container.links(.vehicles)
        starships = try container.links(.starships)
        _created = PackedTimestamp(try container.timestamp(.created))
        _edited = PackedTimestamp(try container.timestamp(.edited))
        url = try container.ownURL(.url)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(height, forKey: .height)
        try container.encode(mass, forKey: .mass)
        try container.encode(hairColor, forKey: .hairColor)
        try container.encode(skinColor, forKey: .skinColor)
        try container.encode(eyeColor, forKey: .eyeColor)
        try container.encode(birthYear, forKey: .birthYear)
        try container.encode(gender, forKey: .gender)
        try container.encode(homeworld?.url, forKey: .homeworld)
        try container.encode(films, forKey: .films)
        try container.encode(species, forKey: .species)
        try container.encode(vehicles, forKey: .vehicles)
        try container.encode(starships, forKey: .starships)
        try container.encode(created, forKey: .created)
        try container.encode(edited, forKey: .edited)
        try container.encode(url.url, forKey: .url)
    }
}
