/// The six kinds of SWAPI resource.
public enum ResourceKind: String, Sendable, Hashable, CaseIterable, Codable, Comparable, CustomStringConvertible {
    case people, films, planets, species, starships, vehicles

    /// The API's name for the kind, which is also its file in a snapshot folder (`people.json`).
    public var apiName: String { rawValue }
    /// The snapshot file holding this kind.
    public var fileName: String { rawValue + ".json" }
    /// What one resource is called: "Character", "Film", …
    public var singular: String {
        switch self {
        case .people: "Character"
        case .films: "Film"
        case .planets: "Planet"
        case .species: "Species"
        case .starships: "Starship"
        case .vehicles: "Vehicle"
        }
    }
    /// What many are called: "Characters", "Films", …
    public var plural: String {
        switch self {
        case .people: "Characters"
        case .species: "Species"
        default: singular + "s"
        }
    }

    public var description: String { rawValue }

    public static func < (a: ResourceKind, b: ResourceKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A link from one resource to another: the URL as the API gives it and the id it ends in.
///
/// Ids come from the last path component of the URL whatever the host, so data from swapi.dev,
/// swapi.info or a local mirror all work.
public struct ResourceLink: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    /// The URL as written in the data.
    public let url: String
    /// The resource's id: the URL's last path component.
    public let id: Int

    /// Reads the id from `url`; `nil` when its last path component is not a number.
    public init?(url: String) {
        guard let id = Self.id(in: url) else { return nil }
        self.url = url
        self.id = id
    }

    public init(url: String, id: Int) {
        self.url = url
        self.id = id
    }

    /// The number in the last non-empty path component of `url`, ignoring a query or fragment.
    public static func id(in url: String) -> Int? {
        // The usual shape, `…/people/12/`: digits before an optional final slash.
        let bytes = url.utf8
        var end = bytes.endIndex
        if end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: "/") { end = bytes.index(before: end) }
        var start = end
        var digits = 0
        while start > bytes.startIndex, digits < 18 {
            let previous = bytes.index(before: start)
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[previous]) else { break }
            start = previous
            digits += 1
        }
        if digits > 0, digits < 18, start > bytes.startIndex, bytes[bytes.index(before: start)] == UInt8(ascii: "/") {
            var id = 0
            for byte in bytes[start..<end] { id = id * 10 + Int(byte - UInt8(ascii: "0")) }
            return id
        }
        var path = Substring(url)
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
        guard let last = path.split(separator: "/").last, let id = Int(last), id >= 0 else { return nil }
        return id
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let url = try container.decode(String.self)
        guard let link = ResourceLink(url: url) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(url)' is not a resource URL: its last path component must be a number")
        }
        self = link
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(url)
    }

    public var description: String { url }

    public static func < (a: ResourceLink, b: ResourceLink) -> Bool { a.id < b.id }
}
