import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A journal read back (see ``BuildJournal``): only what an edit asks for is decoded.
final class StoredJournal {
    typealias Malformed = JournalCursor.Malformed
    let bytes: [UInt8]
    let meta: JournalFile.Meta
    let fingerprints: InputFingerprints
    /// Each page's made position, by discovery index.
    let madeOf: [Int32]
    let kinds: [String]

    /// The journal of the site at `output`, when it describes that very site (its manifest)
    /// and pages built with `buildKey`; `nil` otherwise, or when it is damaged.
    static func load(for output: URL, buildKey: StableHash) -> StoredJournal? {
        guard let stamp = BuildJournal.manifestStamp(of: output),
            let data = FileManager.default.contents(atPath: BuildJournal.path(of: output))
        else { return nil }
        return try? StoredJournal(bytes: Array(data), stamp: stamp, buildKey: buildKey)
    }

    init(bytes: [UInt8], stamp: [UInt64], buildKey: StableHash) throws {
        self.bytes = bytes
        let magic = BuildJournal.magic
        guard bytes.count > JournalFile.sealSize + 8, Array(bytes.suffix(magic.count)) == magic else { throw Malformed() }
        var meta: JournalFile.Meta!
        var fingerprints: InputFingerprints!
        var madeOf: [Int32] = []
        var kinds: [String] = []
        try bytes.withUnsafeBytes { raw in
            let sealed = raw.count - JournalFile.sealSize
            var cursor = JournalCursor(raw, at: sealed)
            guard try cursor.hash() == JournalFile.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<sealed])) else { throw Malformed() }
            cursor.offset = sealed - 8
            cursor.offset = try cursor.int()
            meta = try JournalFile.Meta.decode(&cursor)
            guard meta.stamp == stamp, meta.buildKey == buildKey, meta.pages > 0, meta.pages < 1 << 31 else { throw Malformed() }
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
            madeOf = [Int32](repeating: -1, count: meta.pages)
            for position in 0..<meta.pages {
                var at = JournalCursor(raw, at: meta.productOffsets + position * 8)
                at.offset = try at.int()
                let index = Int(try at.i32())
                guard madeOf.indices.contains(index), madeOf[index] < 0 else { throw Malformed() }
                madeOf[index] = Int32(position)
            }
        }
        self.meta = meta
        self.fingerprints = fingerprints
        self.madeOf = madeOf
        self.kinds = kinds
    }

    var pages: Int { meta.pages }

    /// The discovery indices of the pages that read one of `inputs`.
    func pages(reading inputs: Set<InputKey>) throws -> [Int] {
        if inputs.isEmpty { return [] }
        let wanted = Set(inputs.map(\.rawValue))
        var found: [Int] = []
        try bytes.withUnsafeBytes { raw in
            for index in 0..<meta.pages {
                var cursor = try walkCursor(raw, index)
                try Self.skipToInputs(&cursor)
                let count = Int(try cursor.u32())
                for _ in 0..<count where wanted.contains(try cursor.u64()) {
                    found.append(index)
                    break
                }
            }
        }
        return found
    }

    private func walkCursor(_ raw: UnsafeRawBufferPointer, _ index: Int) throws -> JournalCursor {
        guard index >= 0, index < meta.pages else { throw Malformed() }
        var cursor = JournalCursor(raw, at: meta.walkOffsets + index * 8)
        cursor.offset = try cursor.int()
        return cursor
    }

    private static func skipToInputs(_ cursor: inout JournalCursor) throws {
        _ = try cursor.stringBytes()  // name
        _ = try cursor.stringBytes()  // title
        try cursor.skip(16 + 1 + 4 + 4 + 4)
        let trail = Int(try cursor.u32())
        try cursor.skip(trail * 4)
    }

    /// A page's walk record.
    struct WalkRecord {
        var name: String
        var title: String
        var leads: StableHash
        var context: JournalContext
        var inputs: [InputKey]
        /// The record's bytes in the file.
        var range: Range<Int>
    }

    func walkRecord(_ index: Int) throws -> WalkRecord {
        try bytes.withUnsafeBytes { raw in
            var cursor = try walkCursor(raw, index)
            let start = cursor.offset
            let name = try cursor.string()
            let title = try cursor.string()
            let leads = try cursor.hash()
            guard let presentation = Presentation(code: try cursor.u8()) else { throw Malformed() }
            let depth = Int(try cursor.u32())
            let kind = try cursor.i32()
            let presenter = try cursor.i32()
            var trail: [Int32] = []
            for _ in 0..<Int(try cursor.u32()) { trail.append(try cursor.i32()) }
            var inputs: [InputKey] = []
            for _ in 0..<Int(try cursor.u32()) { inputs.append(InputKey(rawValue: try cursor.u64())) }
            let context = JournalContext(trail: trail, presenter: presenter, presentation: presentation, depth: depth, kind: kind)
            return WalkRecord(name: name, title: title, leads: leads, context: context, inputs: inputs, range: start..<cursor.offset)
        }
    }

    /// The `pages` offsets of a section's records, read from `position`.
    func offsets(at position: Int) throws -> [Int] {
        try bytes.withUnsafeBytes { raw in
            var cursor = JournalCursor(raw, at: position)
            var offsets: [Int] = []
            offsets.reserveCapacity(meta.pages)
            for _ in 0..<meta.pages { offsets.append(try cursor.int()) }
            return offsets
        }
    }

    /// The bytes of walk record `index`.
    func walkRange(_ index: Int) throws -> Range<Int> {
        try bytes.withUnsafeBytes { raw in
            let start = try walkCursor(raw, index).offset
            let end = index + 1 < meta.pages ? try walkCursor(raw, index + 1).offset : meta.walkOffsets
            guard start <= end, end <= raw.count else { throw Malformed() }
            return start..<end
        }
    }

    /// What the page made at `position` left, and its bytes in the file.
    func product(at position: Int) throws -> (product: JournalFile.Product, range: Range<Int>) {
        try bytes.withUnsafeBytes { raw in
            guard position >= 0, position < meta.pages else { throw Malformed() }
            var cursor = JournalCursor(raw, at: meta.productOffsets + position * 8)
            cursor.offset = try cursor.int()
            let start = cursor.offset
            let product = try JournalFile.Product.decode(&cursor)
            return (product, start..<cursor.offset)
        }
    }

    /// Every file of the site and its fingerprint, in the journal's order; `hashAt` is where
    /// the fingerprint lies in the file.
    func files() throws -> [(path: String, fingerprint: StableHash, hashAt: Int)] {
        try bytes.withUnsafeBytes { raw in
            var cursor = JournalCursor(raw, at: meta.files)
            let count = Int(try cursor.u32())
            guard count <= raw.count else { throw Malformed() }
            var files: [(path: String, fingerprint: StableHash, hashAt: Int)] = []
            files.reserveCapacity(count)
            for _ in 0..<count {
                let path = try cursor.string()
                let at = cursor.offset
                files.append((path, try cursor.hash(), at))
            }
            return files
        }
    }

    /// The made position of each page by a hash of its file's path (no String per page: at
    /// 1000x that would be tens of megabytes), for ``index(ofPath:in:)``; -1 for a hash two
    /// paths share.
    func pathTable() throws -> [UInt64: Int32] {
        var table: [UInt64: Int32] = [:]
        table.reserveCapacity(meta.pages)
        try bytes.withUnsafeBytes { raw in
            for position in 0..<meta.pages {
                var cursor = JournalCursor(raw, at: meta.productOffsets + position * 8)
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

    /// The discovery index of the page whose file is `path`, by `table` (``pathTable()``).
    func index(ofPath path: String, in table: [UInt64: Int32]) throws -> Int32? {
        var path = path
        let key = path.withUTF8 { Self.pathKey(UnsafeRawBufferPointer($0)) }
        guard let position = table[key] else { return nil }
        if position >= 0 {
            let product = try product(at: Int(position)).product
            return product.path == path ? product.index : nil
        }
        for position in 0..<meta.pages {
            let product = try product(at: position).product
            if product.path == path { return product.index }
        }
        return nil
    }
}
