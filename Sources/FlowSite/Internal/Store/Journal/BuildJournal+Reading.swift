import FlowSiteUtilities
import Foundation

/// A journal read back (see ``BuildJournal``): only what an edit asks for is decoded. Read from one task at a
/// time, except ``index(ofPath:in:)`` and ``pathTable()`` (read-only; the table is made under a lock).
final class StoredJournal: @unchecked Sendable {
    typealias Malformed = ByteReader.Malformed
    /// Mapped: ask ``wasChanged`` before trusting what was read.
    private let contents: FileContents
    var raw: UnsafeRawBufferPointer { contents.bytes }
    let meta: JournalFile.Meta
    let fingerprints: InputFingerprints
    /// Each page's made position, by discovery index.
    let madePosition: [Int32]
    let kinds: [String]
    let metaStart: Int
    /// The checksum of each block before the trailer.
    let blocks: [StableHash]
    let trailerStart: Int
    /// An edit patches this file or none.
    let identity: FileIdentity
    /// The language's folder (`es/`), or empty: its paths are in that folder.
    let folder: String
    private let madePathTable = Locked<[UInt64: Int32]?>(nil)

    /// The journal of the language in `folder`, when whole and recording the site's manifest; with a `buildKey`,
    /// only when written with it (without one the caller checks ``buildKey``).
    static func load(for output: URL, folder: String = "", buildKey: StableHash?) -> StoredJournal? {
        guard let manifestIdentity = BuildJournal.manifestIdentity(of: output) else { return nil }
        let descriptor = open(
            SiteLayout.journalPath(of: output, folder: folder), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        guard let identity = FileIdentity(descriptor: descriptor), let contents = FileContents.map(descriptor) else {
            return nil
        }
        do {
            let journal = try StoredJournal(
                contents, manifestIdentity: manifestIdentity, buildKey: buildKey, identity: identity, folder: folder)
            return journal.wasChanged ? nil : journal
        } catch {
            contents.release()
            return nil
        }
    }

    deinit {
        contents.release()
    }

    /// Whether another process shortened or wrote the file since it was mapped: then trust nothing read from it.
    var wasChanged: Bool { contents.wasChanged }

    private init(
        _ contents: FileContents, manifestIdentity: [UInt64], buildKey: StableHash?, identity: FileIdentity,
        folder: String
    ) throws {
        self.contents = contents
        let raw = contents.bytes
        self.identity = identity
        self.folder = folder
        let magic = BuildJournal.magic
        guard raw.count > JournalFile.trailerEnd, Array(raw[(raw.count - magic.count)...]) == magic else {
            throw Malformed()
        }
        var meta: JournalFile.Meta!
        var fingerprints: InputFingerprints!
        var madePosition: [Int32] = []
        var kinds: [String] = []
        var blocks: [StableHash] = []
        let end = raw.count - JournalFile.trailerEnd
        var cursor = ByteReader(raw, at: end)
        let count = try cursor.int()
        let metaStart = try cursor.int()
        let sealed = try cursor.hash()
        guard count <= end / 16 else { throw Malformed() }
        let trailerStart = end - count * 16
        guard JournalFile.blockCount(trailerStart) == count,
            JournalFile.checksum(UnsafeRawBufferPointer(rebasing: raw[trailerStart..<end + 16])) == sealed
        else { throw Malformed() }
        do {
            // Meta first: another site's or build's journal is refused without reading it whole.
            cursor.offset = metaStart
            meta = try JournalFile.Meta.decode(&cursor)
            guard cursor.offset <= trailerStart, meta.manifestIdentity == manifestIdentity,
                buildKey.map({ meta.buildKey == $0 }) ?? true,
                meta.pages > 0,
                meta.pages < 1 << 31
            else { throw Malformed() }
            cursor.offset = trailerStart
            for index in 0..<count {
                let block = try cursor.hash()
                let range =
                    index * JournalFile.checksumBlock..<min(trailerStart, (index + 1) * JournalFile.checksumBlock)
                guard JournalFile.checksum(UnsafeRawBufferPointer(rebasing: raw[range])) == block else {
                    throw Malformed()
                }
                blocks.append(block)
            }
            cursor.offset = meta.fingerprints
            let count = Int(try cursor.u32())
            var keys: [UInt64] = []
            var values: [UInt64] = []
            keys.reserveCapacity(count)
            values.reserveCapacity(count)
            for _ in 0..<count { keys.append(try cursor.u64()) }
            for _ in 0..<count { values.append(try cursor.u64()) }
            fingerprints = InputFingerprints(keys: keys, values: values)
            cursor.offset = meta.kinds
            for _ in 0..<Int(try cursor.u32()) { kinds.append(try cursor.string()) }
            madePosition = [Int32](repeating: -1, count: meta.pages)
            for position in 0..<meta.pages {
                var at = ByteReader(raw, at: meta.productOffsets + position * 8)
                at.offset = try at.int()
                let index = Int(try at.i32())
                guard madePosition.indices.contains(index), madePosition[index] < 0 else { throw Malformed() }
                madePosition[index] = Int32(position)
            }
        }
        self.meta = meta
        self.fingerprints = fingerprints
        self.madePosition = madePosition
        self.kinds = kinds
        self.metaStart = metaStart
        self.blocks = blocks
        self.trailerStart = trailerStart
    }

    var pages: Int { meta.pages }

    var buildKey: StableHash { meta.buildKey }

    /// Whether what patches appended (records they superseded, trailers) passed an eighth of the file: then an
    /// edit walks in full, which writes the journal anew.
    var isOutgrown: Bool {
        var encodedMeta = ByteWriter()
        meta.encode(into: &encodedMeta)
        let firstEnd = metaStart + encodedMeta.bytes.count + 8 + blocks.count * 16 + JournalFile.trailerEnd
        return raw.count - firstEnd > raw.count / 8
    }

    /// The live manifest's identity when written (``BuildJournal/manifestIdentity(of:)``).
    var manifestIdentity: [UInt64] { meta.manifestIdentity }

    /// Discovery indices of the pages that read one of `inputs`.
    func pages(reading inputs: Set<InputKey>) throws -> [Int] {
        if inputs.isEmpty { return [] }
        let wanted = Set(inputs.map(\.rawValue))
        // A few keys are compared outright, not hashed once per input read (there are very many).
        let few = wanted.count <= 16 ? Array(wanted) : nil
        var found: [Int] = []
        for index in 0..<meta.pages {
            var cursor = try walkCursor(raw, index)
            try Self.skipToInputs(&cursor)
            let count = Int(try cursor.u32())
            for _ in 0..<count {
                let input = try cursor.u64()
                let isWanted: Bool
                if let few { isWanted = few.contains(input) } else { isWanted = wanted.contains(input) }
                if isWanted {
                    found.append(index)
                    break
                }
            }
        }
        return found
    }

    private func walkCursor(_ raw: UnsafeRawBufferPointer, _ index: Int) throws -> ByteReader {
        guard index >= 0, index < meta.pages else { throw Malformed() }
        var cursor = ByteReader(raw, at: meta.walkOffsets + index * 8)
        cursor.offset = try cursor.int()
        return cursor
    }

    private static func skipToInputs(_ cursor: inout ByteReader) throws {
        _ = try cursor.stringBytes() // name
        _ = try cursor.stringBytes() // title
        try cursor.skip(16 + 1 + 4 + 4 + 4)
        let trail = Int(try cursor.u32())
        try cursor.skip(trail * 4)
    }

    struct WalkRecord {
        var name: String
        var title: String
        var links: StableHash
        var context: PageStanding
        var inputs: [InputKey]
    }

    func walkRecord(_ index: Int) throws -> WalkRecord {
        do {
            var cursor = try walkCursor(raw, index)
            let name = try cursor.string()
            let title = try cursor.string()
            let links = try cursor.hash()
            let code = try cursor.u8()
            guard let presentation = Presentation(code: code & 0x7F) else { throw Malformed() }
            let depth = Int(try cursor.u32())
            let kind = try cursor.i32()
            let presenter = try cursor.i32()
            var trail: [Int32] = []
            for _ in 0..<Int(try cursor.u32()) { trail.append(try cursor.i32()) }
            var inputs: [InputKey] = []
            for _ in 0..<Int(try cursor.u32()) { inputs.append(InputKey(rawValue: try cursor.u64())) }
            let context = PageStanding(
                trail: trail, presenter: presenter, presentation: presentation, depth: depth, kind: kind,
                isDialogCopy: code & 0x80 != 0
            )
            return WalkRecord(name: name, title: title, links: links, context: context, inputs: inputs)
        }
    }

    /// The product made at `position`, and its bytes in the file.
    func product(at position: Int) throws -> (product: JournalFile.Product, range: Range<Int>) {
        do {
            guard position >= 0, position < meta.pages else { throw Malformed() }
            var cursor = ByteReader(raw, at: meta.productOffsets + position * 8)
            cursor.offset = try cursor.int()
            let start = cursor.offset
            let product = try JournalFile.Product.decode(&cursor)
            return (product, start..<cursor.offset)
        }
    }

    func pagesThatFellBack() throws -> Set<String> {
        var pages: Set<String> = []
        for position in 0..<meta.pages {
            let product = try product(at: position).product
            if product.fellBack { pages.insert(product.path) }
        }
        return pages
    }

    /// The files of `wanted` the journal lists, with fingerprints and offsets; no String per file.
    func files(among wanted: Set<String>) throws -> [String: (fingerprint: StableHash, hashAt: Int)] {
        guard !wanted.isEmpty else { return [:] }
        let byCount = Dictionary(grouping: wanted.map { Array($0.utf8) }, by: \.count)
        var found: [String: (fingerprint: StableHash, hashAt: Int)] = [:]
        var cursor = ByteReader(raw, at: meta.files)
        let count = Int(try cursor.u32())
        guard count <= raw.count else { throw Malformed() }
        for _ in 0..<count {
            let path = try cursor.stringBytes()
            let at = cursor.offset
            try cursor.skip(16)
            guard let candidates = byCount[path.count] else { continue }
            for candidate in candidates
            where candidate.withUnsafeBytes({ memcmp($0.baseAddress!, path.baseAddress!, path.count) == 0 }) {
                var hash = ByteReader(raw, at: at)
                found[String(decoding: candidate, as: UTF8.self)] = (try hash.hash(), at)
                if found.count == wanted.count { return found }
            }
        }
        return found
    }

    /// Each page's made position by its path's hash (no String per page); -1 for a hash two paths share. Made once.
    func pathTable() throws -> [UInt64: Int32] {
        if let table = madePathTable.withLock({ $0 }) { return table }
        let table = try makePathTable()
        madePathTable.withLock { $0 = table }
        return table
    }

    private func makePathTable() throws -> [UInt64: Int32] {
        var table: [UInt64: Int32] = [:]
        table.reserveCapacity(meta.pages)
        do {
            for position in 0..<meta.pages {
                var cursor = ByteReader(raw, at: meta.productOffsets + position * 8)
                cursor.offset = try cursor.int()
                _ = try cursor.i32()
                let key = Self.pathKey(try cursor.stringBytes())
                table[key] = table[key] == nil ? Int32(position) : -1
            }
        }
        return table
    }

    private static func pathKey(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash = StableHash()
        hash.combine(bytes)
        return hash.low
    }

    /// The discovery index of the page at `path`; reads only the product's index and path (called per link).
    func index(ofPath path: String, in table: [UInt64: Int32]) throws -> Int32? {
        var path = path
        return try path.withUTF8 { wanted throws -> Int32? in
            let key = Self.pathKey(UnsafeRawBufferPointer(wanted))
            guard let position = table[key] else { return nil }
            func index(at position: Int) throws -> Int32? {
                var cursor = ByteReader(raw, at: meta.productOffsets + position * 8)
                cursor.offset = try cursor.int()
                let index = try cursor.i32()
                let stored = try cursor.stringBytes()
                return stored.count == wanted.count
                    && (wanted.isEmpty || memcmp(stored.baseAddress!, wanted.baseAddress!, wanted.count) == 0)
                    ? index : nil
            }
            if position >= 0 { return try index(at: Int(position)) }
            for position in 0..<meta.pages {
                if let found = try index(at: position) { return found }
            }
            return nil
        }
    }
}
