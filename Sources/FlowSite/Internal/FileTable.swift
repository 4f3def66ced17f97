import Foundation

/// A manifest's entries by a 64-bit hash of their path, in two sorted arrays searched by
/// halves: a fraction of what a dictionary of paths and entries (a spare's, or the live site's)
/// would hold through the build. A hash two paths share is left out.
/// An `exact` table also keeps another 64 bits of each path's hash, compared on a match, so a
/// path it lacks is found in it about once in 10^28 builds: the spare's table, whose entries a
/// build keeps without a look at the file when the spare was checked ahead. Without them (the
/// live site's files) a wrong match can only cost a link, never a wrong one: a file is linked
/// only when the one at its own path is still what its entry describes (same inode, size and
/// time).
struct FileTable: Sendable, Equatable {
    private var keys: [UInt64] = []
    private var checks: [UInt64] = []
    private var values: [SiteManifest.Entry] = []

    /// The entries of `pairs` (the hash of the path, and the entry), in any order.
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

    /// The file lines of the manifest `bytes` but those `leftOut` says to leave out (given the
    /// line); `nil` when the manifest is malformed. Its lint line too.
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

    /// The manifest's flow lint line, when it was read from one.
    private(set) var lint: (findings: Int, summary: String)?

    var count: Int { keys.count }

    /// The same entries under the same keys.
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

/// What the live site's manifest says of its files, for linking the unchanged ones into a new
/// site (see ``FileTable``), with its flow lint line.
typealias LinkableFiles = FileTable

/// The files a staging folder holds, in the order they were written or kept: their paths, their
/// entries beside them, and each one's place by a 64-bit hash of its path. The paths are kept
/// anyway, in order; what this adds to them is a fraction of what a dictionary of paths and
/// entries would hold at the build's end.
struct WrittenFiles {
    private(set) var paths: [String] = []
    private(set) var entries: [SiteManifest.Entry] = []
    private var places: [UInt64: Int32] = [:]
    /// The places of paths whose hash an earlier path has.
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

    /// Records `entry` at `path`; whether the path is new.
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

    /// Writes the manifest of these files to `descriptor` (see ``SiteManifest``).
    func writeManifest(
        inputs: String?, pages: Int, lint: (findings: Int, summary: String)?, to descriptor: Int32
    ) throws {
        try SiteManifest.write(
            inputs: inputs, pages: pages, lint: lint, count: count, path: { paths[$0] }, entry: { entries[$0] },
            to: descriptor
        )
    }
}

extension Array {
    /// Appends `element`, growing a large array by a quarter of its size instead of doubling
    /// it: doubled, the arrays that grow with a site's pages (hundreds of thousands of entries,
    /// held to the build's end, where its memory peaks) would hold up to twice what they use.
    mutating func appendGrowingByQuarters(_ element: Element) {
        if count == capacity, count >= 1 << 14 { reserveCapacity(count + count / 4) }
        append(element)
    }
}
