import FlowSite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    /// The resource's id: the URL's last path component.
    public var id: Int { smallID >= 0 ? Int(smallID) : ResourceURLTable.shared.largeID(stored) }
    /// The id when it fits in 31 bits (every id real data has); otherwise -1, and the table
    /// keeps the id with the URL. Eight bytes a link instead of sixteen: a large archive holds
    /// millions of them for the whole build.
    private let smallID: Int32
    /// Where ``url`` is kept in ``ResourceURLTable``: an archive holds millions of links, and
    /// nearly all are one of a few prefixes plus the id, so each is two numbers, not a String.
    let stored: Int32

    /// The URL as written in the data.
    public var url: String { ResourceURLTable.shared.url(stored, id: id) }

    /// Reads the id from `url`; `nil` when its last path component is not a number.
    public init?(url: String) {
        guard let id = Self.id(in: url) else { return nil }
        self.init(url: url, id: id)
    }

    public init(url: String, id: Int) {
        if let small = Int32(exactly: id), small >= 0 {
            self.smallID = small
            self.stored = ResourceURLTable.shared.store(url, id: id)
        } else {
            self.smallID = -1
            self.stored = ResourceURLTable.shared.store(url, largeID: id)
        }
    }

    /// The link a resource has until its own URL is read (see ``SwapiRecord``).
    static let blank = ResourceLink(url: "", id: 0)

    /// The link of the usual form `<prefix><id>/` whose prefix is kept at `prefix` in
    /// ``ResourceURLTable`` (as ``ResourceURLTable/storePrefixes(_:)`` gave it), to `id`.
    static func usual(prefix: Int32, id: Int32) -> ResourceLink? {
        guard id >= 0, prefix >= 0 else { return nil }
        return ResourceLink(smallID: id, stored: prefix)
    }

    private init(smallID: Int32, stored: Int32) {
        self.smallID = smallID
        self.stored = stored
    }

    /// The links of the plain URLs `urls` (text with no escape), as ``init(url:)`` makes each:
    /// those of the usual form `<prefix><id>/` from their bytes, without a String each, under one
    /// lock of the URL table for all; any other through ``init(url:)``. `nil` when one is not a
    /// resource URL. (A large file has hundreds of thousands of links, read on several threads.)
    static func links(plain urls: [UnsafeBufferPointer<UInt8>]) -> [ResourceLink]? {
        var usual: [(url: UnsafeBufferPointer<UInt8>, id: Int32, prefix: Int)] = []
        usual.reserveCapacity(urls.count)
        for url in urls {
            guard let id = usualID(url), let prefix = ResourceURLTable.prefixLength(of: url, id: Int(id)) else { break }
            usual.append((url, id, prefix))
        }
        guard usual.count == urls.count else {
            // Not all of the usual form: each as a String.
            var links: [ResourceLink] = []
            links.reserveCapacity(urls.count)
            for url in urls {
                guard let link = ResourceLink(url: String(decoding: url, as: UTF8.self)) else { return nil }
                links.append(link)
            }
            return links
        }
        let stored = ResourceURLTable.shared.storePrefixes(
            usual.map { UnsafeBufferPointer(rebasing: $0.url[..<$0.prefix]) })
        return zip(usual, stored).map { ResourceLink(smallID: $0.id, stored: $1) }
    }

    /// The id of a URL of the usual shape, `…/12/` or `…/12`, when it fits in 31 bits; `nil`
    /// for any other (``id(in:)`` reads those).
    private static func usualID(_ url: UnsafeBufferPointer<UInt8>) -> Int32? {
        var end = url.count
        if end > 0, url[end - 1] == UInt8(ascii: "/") { end -= 1 }
        var start = end
        while start > 0, end - start < 10, url[start - 1] &- UInt8(ascii: "0") < 10 { start -= 1 }
        guard start < end, end - start < 10, start > 0, url[start - 1] == UInt8(ascii: "/") else { return nil }
        var id = 0
        for position in start..<end { id = id * 10 + Int(url[position] - UInt8(ascii: "0")) }
        return Int32(exactly: id)
    }

    /// The index of the URL's prefix in ``ResourceURLTable/prefixes`` when the URL is that prefix,
    /// the id and a slash; `nil` for a URL kept whole.
    var prefixIndex: Int? { stored >= 0 ? Int(stored) : nil }

    /// The number in the last non-empty path component of `url`, ignoring a query or fragment.
    public static func id(in url: String) -> Int? {
        // The usual shape, `…/people/12/`: digits before an optional final slash.
        let bytes = url.utf8
        var end = bytes.endIndex
        if end > bytes.startIndex, bytes[bytes.index(before: end)] == UInt8(ascii: "/") {
            end = bytes.index(before: end)
        }
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
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "'\(url)' is not a resource URL: its last path component must be a number")
        }
        self = link
    }

    public func encode(to encoder: any Encoder) throws {
        if encoder.userInfo[.swapiCompactLinks] != nil {
            // What the URL is made of, without making it: the same URL always gives the same.
            var container = encoder.unkeyedContainer()
            try container.encode(ResourceURLTable.shared.text(stored))
            try container.encode(id)
            return
        }
        var container = encoder.singleValueContainer()
        try container.encode(url)
    }

    public var description: String { url }

    public static func < (a: ResourceLink, b: ResourceLink) -> Bool { a.id < b.id }
}

/// Every resource URL the process has read, kept compactly: a URL of the usual form
/// `<prefix><id>/` as the index of its prefix (one per kind and API root, so a handful), any
/// other URL whole. Entries are never removed; only unusual URLs add more than a few.
final class ResourceURLTable: Sendable {
    static let shared = ResourceURLTable()

    private struct State {
        var prefixes: [String] = []
        /// The prefixes' bytes, compared with `memcmp`.
        var prefixBytes: [[UInt8]] = []
        var prefixIndexes: [String: Int32] = [:]
        var wholes: [String] = []
        var wholeIndexes: [String: Int32] = [:]
        /// The ids of links whose id needs more than 31 bits, by their whole-URL index; such a
        /// URL and id get a whole entry of their own, found again by both.
        var largeIDs: [Int32: Int] = [:]
        var largeIndexes: [String: Int32] = [:]
    }

    private let state = Locked(State())

    /// How many of the first prefixes a new link is compared with byte by byte before the
    /// table is asked.
    static let comparedPrefixes = 16

    /// Marks, for a link's ``ResourceLink/prefixIndex``, whether its prefix is one of `wanted`. One lookup a
    /// wanted prefix: the table is the process's, and a long run (a test run, a preview server) keeps many.
    func marks(_ wanted: [String]) -> [Bool] {
        state.withLock { state in
            var marks = [Bool](repeating: false, count: state.prefixes.count)
            for prefix in wanted { if let index = state.prefixIndexes[prefix] { marks[Int(index)] = true } }
            return marks
        }
    }

    /// Where `url` (whose id is `id`) is kept: a prefix index, or a negative whole-URL index.
    func store(_ url: String, id: Int) -> Int32 {
        var url = url
        let stored: Int32? = url.withUTF8 { bytes in
            guard let length = Self.prefixLength(of: bytes, id: id) else { return nil }
            return state.withLock { Self.prefixIndex(of: UnsafeBufferPointer(rebasing: bytes[..<length]), in: &$0) }
        }
        if let stored { return stored }
        return state.withLock { state in
            if let index = state.wholeIndexes[url] { return -index - 1 }
            let index = Int32(state.wholes.count)
            state.wholes.append(url)
            state.wholeIndexes[url] = index
            return -index - 1
        }
    }

    /// Where a link to `url` with an id past 31 bits is kept: a negative whole-URL index of its
    /// own, which ``largeID(_:)`` gives the id back for.
    func store(_ url: String, largeID id: Int) -> Int32 {
        state.withLock { state in
            let key = "\(id) \(url)"
            if let index = state.largeIndexes[key] { return -index - 1 }
            let index = Int32(state.wholes.count)
            state.wholes.append(url)
            state.largeIndexes[key] = index
            state.largeIDs[index] = id
            return -index - 1
        }
    }

    /// The id of the link kept at `stored` by ``store(_:largeID:)``.
    func largeID(_ stored: Int32) -> Int {
        state.withLock { $0.largeIDs[-stored - 1] ?? 0 }
    }

    /// The prefix index of each of `prefixes` (each a URL's bytes up to its id), under one lock.
    func storePrefixes(_ prefixes: [UnsafeBufferPointer<UInt8>]) -> [Int32] {
        state.withLock { state in prefixes.map { Self.prefixIndex(of: $0, in: &state) } }
    }

    /// The index of the prefix `bytes`, added when it is new. Nearly every link is one of the
    /// first few prefixes (one per kind and API root): comparing their bytes beats hashing.
    /// Data with many prefixes (links on many hosts) is looked up by hash, so it costs no more
    /// than linear time.
    private static func prefixIndex(of bytes: UnsafeBufferPointer<UInt8>, in state: inout State) -> Int32 {
        for (index, prefix) in state.prefixBytes.prefix(comparedPrefixes).enumerated() where prefix.count == bytes.count
        {
            if prefix.withUnsafeBytes({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) }) == 0 {
                return Int32(index)
            }
        }
        let prefix = String(decoding: bytes, as: UTF8.self)
        if let index = state.prefixIndexes[prefix] { return index }
        let index = Int32(state.prefixes.count)
        state.prefixes.append(prefix)
        state.prefixBytes.append(Array(bytes))
        state.prefixIndexes[prefix] = index
        return index
    }

    /// The length of `url` without its id and final slash, when it is exactly
    /// `<prefix><id>/` with the id written as `String(id)` writes it.
    static func prefixLength(of url: UnsafeBufferPointer<UInt8>, id: Int) -> Int? {
        guard id >= 0, let last = url.last, last == UInt8(ascii: "/") else { return nil }
        // The id's digits, backwards, must end just before the final slash.
        var value = id
        var position = url.count - 1
        repeat {
            position -= 1
            guard position > 0, url[position] == UInt8(ascii: "0") + UInt8(value % 10) else { return nil }
            value /= 10
        } while value > 0
        guard url[position - 1] == UInt8(ascii: "/") else { return nil }
        return position
    }

    /// The prefix, or the whole URL, kept at `stored`.
    func text(_ stored: Int32) -> String {
        state.withLock { stored >= 0 ? $0.prefixes[Int(stored)] : $0.wholes[Int(-stored - 1)] }
    }

    /// The URL kept at `stored` for a link to `id`.
    func url(_ stored: Int32, id: Int) -> String {
        if stored >= 0 {
            return state.withLock { $0.prefixes[Int(stored)] } + String(id) + "/"
        }
        return state.withLock { $0.wholes[Int(-stored - 1)] }
    }
}

extension CodingUserInfoKey {
    /// Set (to any value) by an encoder that only compares what it is given, such as a
    /// fingerprint: a ``ResourceLink`` then writes its URL's prefix and id instead of making
    /// the URL, which costs a String for each of the archive's millions of links.
    public static let swapiCompactLinks = CodingUserInfoKey(rawValue: "swapi.compactLinks")!
}
