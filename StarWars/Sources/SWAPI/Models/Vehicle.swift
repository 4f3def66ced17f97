// The fields are SWAPI's, in the API's order; decoding is tolerant (see SwapiDecoding.swift), and
// encoding is synthesized: a ResourceLink encodes as its URL, so the output is SWAPI's shape again.

/// A vehicle.
public struct Vehicle: SwapiResource, SwapiJSONDecodable {
    public static let kind = ResourceKind.vehicles

    public var name: String
    public var model: String
    public var manufacturer: String
    public var costInCredits: String
    public var length: String
    public var maxAtmospheringSpeed: String
    public var crew: String
    public var passengers: String
    public var cargoCapacity: String
    public var consumables: String
    public var vehicleClass: String
    public var pilots: [ResourceLink]
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
        model: String = "unknown",
        manufacturer: String = "unknown",
        costInCredits: String = "unknown",
        length: String = "unknown",
        maxAtmospheringSpeed: String = "unknown",
        crew: String = "unknown",
        passengers: String = "unknown",
        cargoCapacity: String = "unknown",
        consumables: String = "unknown",
        vehicleClass: String = "unknown",
        pilots: [ResourceLink] = [],
        films: [ResourceLink] = [],
        created: String = "unknown",
        edited: String = "unknown",
        url: ResourceLink
    ) {
        self.name = name
        self.model = model
        self.manufacturer = manufacturer
        self.costInCredits = costInCredits
        self.length = length
        self.maxAtmospheringSpeed = maxAtmospheringSpeed
        self.crew = crew
        self.passengers = passengers
        self.cargoCapacity = cargoCapacity
        self.consumables = consumables
        self.vehicleClass = vehicleClass
        self.pilots = pilots
        self.films = films
        self.created = created
        self.edited = edited
        self.url = url
    }

    enum CodingKeys: String, CodingKey {
        case name
        case model
        case manufacturer
        case costInCredits = "cost_in_credits"
        case length
        case maxAtmospheringSpeed = "max_atmosphering_speed"
        case crew
        case passengers
        case cargoCapacity = "cargo_capacity"
        case consumables
        case vehicleClass = "vehicle_class"
        case pilots
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
        model = try container.text(.model)
        manufacturer = try container.text(.manufacturer)
        costInCredits = try container.text(.costInCredits)
        length = try container.text(.length)
        maxAtmospheringSpeed = try container.text(.maxAtmospheringSpeed)
        crew = try container.text(.crew)
        passengers = try container.text(.passengers)
        cargoCapacity = try container.text(.cargoCapacity)
        consumables = try container.text(.consumables)
        vehicleClass = try container.text(.vehicleClass)
        pilots = try container.links(.pilots)
        films = try container.links(.films)
        _created = PackedTimestamp(try container.timestamp(.created))
        _edited = PackedTimestamp(try container.timestamp(.edited))
        url = try container.ownURL(.url)
    }
}
