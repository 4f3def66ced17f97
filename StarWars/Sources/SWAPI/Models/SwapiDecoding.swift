/// Tolerant field readers for SWAPI's JSON: real data has numbers as strings, strings as
/// numbers, nulls and missing fields; each becomes a value the app can show.
extension KeyedDecodingContainer {
    /// A text field: a string, or a number written as text; missing or null is `"unknown"`.
    func text(_ key: Key) throws -> String {
        if try !contains(key) || decodeNil(forKey: key) { return "unknown" }
        if let string = try? decode(String.self, forKey: key) { return string }
        if let integer = try? decode(Int.self, forKey: key) { return String(integer) }
        if let number = try? decode(Double.self, forKey: key) { return String(number) }
        throw DecodingError.typeMismatch(String.self, .init(codingPath: codingPath + [key], debugDescription: "expected text or a number"))
    }

    /// A field that must be present and non-empty, such as a name or URL.
    func required(_ key: Key) throws -> String {
        guard contains(key), try !decodeNil(forKey: key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "the field is required"))
        }
        let value = try text(key)
        guard !value.isEmpty else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: "the field must not be empty"))
        }
        return value
    }

    /// A list of links; missing or null is empty.
    func links(_ key: Key) throws -> [ResourceLink] {
        if try !contains(key) || decodeNil(forKey: key) { return [] }
        return try decode([ResourceLink].self, forKey: key)
    }

    /// One optional link; missing, null or empty is `nil`.
    func link(_ key: Key) throws -> ResourceLink? {
        if try !contains(key) || decodeNil(forKey: key) { return nil }
        if let text = try? decode(String.self, forKey: key), text.isEmpty { return nil }
        return try decode(ResourceLink.self, forKey: key)
    }

    /// An integer, possibly written as text.
    func integer(_ key: Key) throws -> Int? {
        if try !contains(key) || decodeNil(forKey: key) { return nil }
        if let integer = try? decode(Int.self, forKey: key) { return integer }
        if let text = try? decode(String.self, forKey: key), let integer = Int(text) { return integer }
        throw DecodingError.typeMismatch(Int.self, .init(codingPath: codingPath + [key], debugDescription: "expected a whole number"))
    }

    /// The resource's own URL, which must end in its id.
    func ownURL(_ key: Key) throws -> ResourceLink {
        let url = try required(key)
        guard let link = ResourceLink(url: url) else {
            throw DecodingError.dataCorrupted(.init(codingPath: codingPath + [key], debugDescription: "'\(url)' does not end in the resource's id"))
        }
        return link
    }
}
