import FlowSiteUtilities
import Foundation

/// A manifest's entries by a 64-bit path hash, in sorted arrays searched by halves: far smaller than a dictionary.
/// A hash two paths share is left out. `exact` also compares another 64 bits: the spare's entries are kept
/// unchecked after the read-ahead. Without it (the live site's) a false match only costs a link: a file is linked
/// only when the one at its own path is still what its entry describes.
struct FileTable: Sendable, Equatable {
    private var keys: [UInt64] = []
    private var checks: [UInt64] = []
    private var values: [SiteManifest.Entry] = []

    /// `pairs` in any order.
    init(_ pairs: [(key: StableHash, entry: SiteManifest.Entry)] = [], exact: Bool = false) {
        var order = Array(pairs.indices)
        order.sort { pairs[$0].key.low < pairs[$1].key.low }
        keys.reserveCapacity(pairs.count)
        if exact { checks.reserveCapacity(pairs.count) }
        values.reserveCapacity(pairs.count)
        var index = 0
        while index < order.count {
            let key = pairs[order[index]].key.low
            var next = index + 1
            while next < order.count, pairs[order[next]].key.low == key { next += 1 }
            if next == index + 1 {
                keys.append(key)
                if exact { checks.append(pairs[order[index]].key.b) }
                values.append(pairs[order[index]].entry)
            }
            index = next
        }
    }

    /// The file lines but those `leftOut` refuses, and the lint line; `nil` when malformed.
    init?(
        manifest bytes: [UInt8], exact: Bool = false,
        leavingOut leftOut: (UnsafeBufferPointer<UInt8>) -> Bool = { _ in false }
    ) {
        var pairs: [(key: StableHash, entry: SiteManifest.Entry)] = []
        pairs.reserveCapacity(bytes.count / 100)
        guard
            let header = SiteManifest.forEachFileLine(
                of: bytes,
                { line in
                    if leftOut(line) { return true }
                    guard let (entry, path) = SiteManifest.file(line) else { return false }
                    pairs.append((Self.key(UnsafeRawBufferPointer(path)), entry))
                    return true
                })
        else { return nil }
        self.init(pairs, exact: exact)
        lint = header.lint
    }

    private(set) var lint: (findings: Int, summary: String)?

    var count: Int { keys.count }

    static func == (a: FileTable, b: FileTable) -> Bool {
        a.keys == b.keys && a.checks == b.checks && a.values == b.values
    }

    subscript(path: String) -> SiteManifest.Entry? {
        var path = path
        return path.withUTF8 { self[key: Self.key(UnsafeRawBufferPointer($0))] }
    }

    subscript(key key: StableHash) -> SiteManifest.Entry? {
        let wanted = key.low
        var (low, high) = (0, keys.count)
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < wanted { low = middle + 1 } else { high = middle }
        }
        guard low < keys.count, keys[low] == wanted, checks.isEmpty || checks[low] == key.b else { return nil }
        return values[low]
    }

    static func key(_ path: UnsafeRawBufferPointer) -> StableHash {
        StableHash(of: path.assumingMemoryBound(to: UInt8.self))
    }
}

/// The live site's files, for linking the unchanged ones into a new site.
typealias LinkableFiles = FileTable

/// A staging folder's files in written order, each place found by a 64-bit path hash: far smaller than a
/// dictionary of paths and entries at the build's memory peak.
struct WrittenFiles {
    private(set) var paths: [String] = []
    private(set) var entries: [SiteManifest.Entry] = []
    private var places: [UInt64: Int32] = [:]
    /// Paths whose hash an earlier path has.
    private var sharingHash: [String: Int32] = [:]

    var count: Int { paths.count }

    mutating func reserveCapacity(_ count: Int) {
        paths.reserveCapacity(count)
        entries.reserveCapacity(count)
        places.reserveCapacity(count)
    }

    private func place(of path: String) -> Int? {
        var path = path
        guard let place = places[path.withUTF8 { FileTable.key(UnsafeRawBufferPointer($0)).low }] else { return nil }
        if paths[Int(place)] == path { return Int(place) }
        return sharingHash[path].map(Int.init)
    }

    subscript(path: String) -> SiteManifest.Entry? { place(of: path).map { entries[$0] } }

    /// Whether the path is new.
    mutating func set(_ path: String, _ entry: SiteManifest.Entry) -> Bool {
        if let place = place(of: path) {
            entries[place] = entry
            return false
        }
        var key = path
        let hash = key.withUTF8 { FileTable.key(UnsafeRawBufferPointer($0)).low }
        let place = Int32(paths.count)
        if places[hash] == nil { places[hash] = place } else { sharingHash[path] = place }
        paths.appendGrowingByQuarters(path)
        entries.appendGrowingByQuarters(entry)
        return true
    }

    func writeManifest(
        inputs: String?, pages: Int, lint: (findings: Int, summary: String)?, to descriptor: Int32
    ) throws {
        try SiteManifest.write(
            inputs: inputs, pages: pages, lint: lint, count: count, path: { paths[$0] }, entry: { entries[$0] },
            to: descriptor
        )
    }
}
