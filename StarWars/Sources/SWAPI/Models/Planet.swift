// The fields are SWAPI's, in the API's order; decoding is tolerant (see SwapiDecoding.swift), and
// encoding is synthesized: a ResourceLink encodes as its URL, so the output is SWAPI's shape again.

/// A planet.
public struct Planet: SwapiResource, SwapiJSONDecodable {
    public static let kind = ResourceKind.planets

    public var name: String
    public var rotationPeriod: String
    public var orbitalPeriod: String
    public var diameter: String
    public var climate: String
    public var gravity: String
    public var terrain: String
    public var surfaceWater: String
    public var population: String
    public var residents: [ResourceLink]
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
        rotationPeriod: String = "unknown",
        orbitalPeriod: String = "unknown",
        diameter: String = "unknown",
        climate: String = "unknown",
        gravity: String = "unknown",
        terrain: String = "unknown",
        surfaceWater: String = "unknown",
        population: String = "unknown",
        residents: [ResourceLink] = [],
        films: [ResourceLink] = [],
        created: String = "unknown",
        edited: String = "unknown",
        url: ResourceLink
    ) {
        self.name = name
        self.rotationPeriod = rotationPeriod
        self.orbitalPeriod = orbitalPeriod
        self.diameter = diameter
        self.climate = climate
        self.gravity = gravity
        self.terrain = terrain
        self.surfaceWater = surfaceWater
        self.population = population
        self.residents = residents
        self.films = films
        self.created = created
        self.edited = edited
        self.url = url
    }

    enum CodingKeys: String, CodingKey {
        case name
        case rotationPeriod = "rotation_period"
        case orbitalPeriod = "orbital_period"
        case diameter
        case climate
        case gravity
        case terrain
        case surfaceWater = "surface_water"
        case population
        case residents
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
        rotationPeriod = try container.text(.rotationPeriod)
        orbitalPeriod = try container.text(.orbitalPeriod)
        diameter = try container.text(.diameter)
        climate = try container.text(.climate)
        gravity = try container.text(.gravity)
        terrain = try container.text(.terrain)
        surfaceWater = try container.text(.surfaceWater)
        population = try container.text(.population)
        residents = try container.links(.residents)
        films = try container.links(.films)
        _created = PackedTimestamp(try container.timestamp(.created))
        _edited = PackedTimestamp(try container.timestamp(.edited))
        url = try container.ownURL(.url)
    }
}
