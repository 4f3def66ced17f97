/// A SWAPI resource whose fields are listed once, by ``fields(_:)``, for every way one is read
/// or written: Foundation's `Decodable` and `Encodable` (written here, once), the fast reader
/// of ordinary files (``SwapiJSONReader``), and ``DecodedCache``, which records the values a
/// resource read and reads them back in the same order.
package protocol SwapiRecord: SwapiResource {
    /// A blank resource, for ``fields(_:)`` to fill in.
    init()
    /// Hands each field to `fields` under its name in the API, in the API's order: a reader
    /// fills the value in, a writer writes it out.
    mutating func fields(_ fields: inout some SwapiFields) throws
}

extension SwapiRecord {
    /// The resource whose fields `fields` reads.
    init(reading fields: inout some SwapiFields) throws {
        self.init()
        try self.fields(&fields)
    }

    public init(from decoder: any Decoder) throws {
        var fields = DecodingFields(container: try decoder.container(keyedBy: SwapiKey.self))
        try self.init(reading: &fields)
    }

    public func encode(to encoder: any Encoder) throws {
        var fields = EncodingFields(container: encoder.container(keyedBy: SwapiKey.self))
        var resource = self
        try resource.fields(&fields)
    }
}

/// What a resource's ``SwapiRecord/fields(_:)`` hands each field to, by the kind of value it
/// holds. Reading is tolerant: real data has numbers as strings, strings as numbers, nulls and
/// missing fields, and each becomes a value the app can show.
package protocol SwapiFields {
    /// Text: a string, or a number written as text; missing or null is `"unknown"`.
    mutating func text(_ key: String, _ value: inout String) throws
    /// Text that must be present and non-empty, such as a name.
    mutating func required(_ key: String, _ value: inout String) throws
    /// A list of links; missing or null is empty.
    mutating func links(_ key: String, _ value: inout [ResourceLink]) throws
    /// One optional link; missing, null or empty is `nil`.
    mutating func link(_ key: String, _ value: inout ResourceLink?) throws
    /// A whole number, possibly written as text; missing or null is `nil`.
    mutating func integer(_ key: String, _ value: inout Int?) throws
    /// The resource's own URL, which must end in its id.
    mutating func ownURL(_ key: String, _ value: inout ResourceLink) throws
    /// A `created` or `edited` field: text, kept small.
    mutating func timestamp(_ key: String, _ value: inout PackedTimestamp) throws
}

/// A field's name in the API, as Foundation's containers take it.
struct SwapiKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// The fields of a resource as Foundation's decoder has them. Its errors name the field and
/// what was expected; ``SnapshotDecoder`` puts them in words.
struct DecodingFields: SwapiFields {
    let container: KeyedDecodingContainer<SwapiKey>

    private func isAbsent(_ key: SwapiKey) throws -> Bool {
        try !container.contains(key) || container.decodeNil(forKey: key)
    }

    func text(_ name: String, _ value: inout String) throws { value = try text(SwapiKey(name)) }

    private func text(_ key: SwapiKey) throws -> String {
        if try isAbsent(key) { return "unknown" }
        if let string = try? container.decode(String.self, forKey: key) { return string }
        if let integer = try? container.decode(Int.self, forKey: key) { return String(integer) }
        if let number = try? container.decode(Double.self, forKey: key) { return String(number) }
        throw DecodingError.typeMismatch(
            String.self, .init(codingPath: container.codingPath + [key], debugDescription: "expected text or a number"))
    }

    func required(_ name: String, _ value: inout String) throws { value = try required(SwapiKey(name)) }

    private func required(_ key: SwapiKey) throws -> String {
        guard try !isAbsent(key) else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: container.codingPath, debugDescription: "the field is required"))
        }
        let text = try text(key)
        guard !text.isEmpty else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: container.codingPath + [key], debugDescription: "the field must not be empty"))
        }
        return text
    }

    func links(_ name: String, _ value: inout [ResourceLink]) throws {
        let key = SwapiKey(name)
        value = try isAbsent(key) ? [] : container.decode([ResourceLink].self, forKey: key)
    }

    func link(_ name: String, _ value: inout ResourceLink?) throws {
        let key = SwapiKey(name)
        if try isAbsent(key) { return value = nil }
        if let text = try? container.decode(String.self, forKey: key), text.isEmpty { return value = nil }
        value = try container.decode(ResourceLink.self, forKey: key)
    }

    func integer(_ name: String, _ value: inout Int?) throws {
        let key = SwapiKey(name)
        if try isAbsent(key) { return value = nil }
        if let integer = try? container.decode(Int.self, forKey: key) { return value = integer }
        if let text = try? container.decode(String.self, forKey: key), let integer = Int(text) {
            return value = integer
        }
        throw DecodingError.typeMismatch(
            Int.self, .init(codingPath: container.codingPath + [key], debugDescription: "expected a whole number"))
    }

    func ownURL(_ name: String, _ value: inout ResourceLink) throws {
        let key = SwapiKey(name)
        let url = try required(key)
        guard let link = ResourceLink(url: url) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: container.codingPath + [key],
                    debugDescription: "'\(url)' does not end in the resource's id"))
        }
        value = link
    }

    func timestamp(_ name: String, _ value: inout PackedTimestamp) throws {
        value = PackedTimestamp(TimestampText(try text(SwapiKey(name))))
    }
}

/// Writes a resource's fields as SWAPI has them: under the same names, its own URL and a
/// single link as text, a missing link or number as null.
struct EncodingFields: SwapiFields {
    var container: KeyedEncodingContainer<SwapiKey>

    mutating func text(_ key: String, _ value: inout String) throws {
        try container.encode(value, forKey: SwapiKey(key))
    }
    mutating func required(_ key: String, _ value: inout String) throws {
        try container.encode(value, forKey: SwapiKey(key))
    }
    mutating func links(_ key: String, _ value: inout [ResourceLink]) throws {
        try container.encode(value, forKey: SwapiKey(key))
    }
    mutating func link(_ key: String, _ value: inout ResourceLink?) throws {
        try container.encode(value?.url, forKey: SwapiKey(key))
    }
    mutating func integer(_ key: String, _ value: inout Int?) throws {
        try container.encode(value, forKey: SwapiKey(key))
    }
    mutating func ownURL(_ key: String, _ value: inout ResourceLink) throws {
        try container.encode(value.url, forKey: SwapiKey(key))
    }
    mutating func timestamp(_ key: String, _ value: inout PackedTimestamp) throws {
        try container.encode(value.wrappedValue, forKey: SwapiKey(key))
    }
}
