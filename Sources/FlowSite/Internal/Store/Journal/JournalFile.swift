import FlowSiteUtilities
import Foundation

/// A journal file's encoding (see ``BuildJournal``).
struct JournalFile {
    /// What each page left, in made order.
    struct Product {
        var index: Int32
        var path: String
        var title: String
        var summary: String?
        var isDialog: Bool
        /// Whether it is in the search index, under `section`.
        var hasEntry: Bool
        var section: String?
        var content: StableHash
        var kind: Int32
        var hasFiles: Bool
        /// Showed text in the fallback language.
        var fellBack = false

        func encode(into out: inout ByteWriter) {
            out.i32(index)
            out.string(path)
            out.string(title)
            out.optionalString(summary)
            out.u8((isDialog ? 1 : 0) | (hasEntry ? 2 : 0) | (hasFiles ? 4 : 0) | (fellBack ? 8 : 0))
            out.optionalString(section)
            out.hash(content)
            out.i32(kind)
        }

        static func decode(_ cursor: inout ByteReader) throws(ByteReader.Malformed) -> Product {
            let index = try cursor.i32()
            let path = try cursor.string()
            let title = try cursor.string()
            let summary = try cursor.optionalString()
            let flags = try cursor.u8()
            let section = try cursor.optionalString()
            let content = try cursor.hash()
            let kind = try cursor.i32()
            return Product(
                index: index, path: path, title: title, summary: summary, isDialog: flags & 1 != 0,
                hasEntry: flags & 2 != 0,
                section: section, content: content, kind: kind, hasFiles: flags & 4 != 0, fellBack: flags & 8 != 0
            )
        }
    }

    struct Meta {
        var buildKey: StableHash
        var manifestIdentity: [UInt64]
        var pages: Int
        var edges: Int
        var links: Int
        var walkOffsets: Int
        var products: Int
        var productOffsets: Int
        var files: Int
        var kinds: Int
        var fingerprints: Int

        func encode(into out: inout ByteWriter) {
            out.hash(buildKey)
            for value in manifestIdentity { out.u64(value) }
            for value in [pages, edges, links, walkOffsets, products, productOffsets, files, kinds, fingerprints] {
                out.u64(UInt64(value))
            }
        }

        static func decode(_ cursor: inout ByteReader) throws(ByteReader.Malformed) -> Meta {
            let key = try cursor.hash()
            var manifestIdentity: [UInt64] = []
            for _ in 0..<FileIdentity.wordCount { manifestIdentity.append(try cursor.u64()) }
            var values: [Int] = []
            for _ in 0..<9 { values.append(try cursor.int()) }
            return Meta(
                buildKey: key, manifestIdentity: manifestIdentity, pages: values[0], edges: values[1], links: values[2],
                walkOffsets: values[3],
                products: values[4], productOffsets: values[5], files: values[6], kinds: values[7],
                fingerprints: values[8]
            )
        }
    }

    /// What follows the files section, from `start`: kinds, fingerprints, the meta block and its offset.
    static func tail(start: Int, meta: Meta, kinds: [String], fingerprints: InputFingerprints) -> [UInt8] {
        var meta = meta
        var out = ByteWriter()
        out.bytes.reserveCapacity(fingerprints.count * 16 + 256)
        meta.kinds = start + out.bytes.count
        out.u32(UInt32(kinds.count))
        for kind in kinds { out.string(kind) }
        meta.fingerprints = start + out.bytes.count
        encode(fingerprints, into: &out)
        let metaStart = start + out.bytes.count
        meta.encode(into: &out)
        out.u64(UInt64(metaStart))
        return out.bytes
    }

    /// The input fingerprints table: the count, the keys, then their values.
    static func encode(_ fingerprints: InputFingerprints, into out: inout ByteWriter) {
        out.u32(UInt32(fingerprints.count))
        for key in fingerprints.keys { out.u64(key) }
        for value in fingerprints.values { out.u64(value) }
    }

    /// Each block's checksum, their count, the meta start, the checksum of those, and the magic. A journal whose
    /// bytes changed in any way is not read.
    static func trailer(blocks: [StableHash], metaStart: Int) -> [UInt8] {
        var out = ByteWriter()
        for block in blocks { out.hash(block) }
        out.u64(UInt64(blocks.count))
        out.u64(UInt64(metaStart))
        let sealed = out.bytes.withUnsafeBytes { checksum($0) }
        out.hash(sealed)
        out.bytes.append(contentsOf: BuildJournal.magic)
        return out.bytes
    }

    /// The trailer's size besides its block checksums.
    static let trailerEnd = 8 + 8 + 16 + 8

    static func blockCount(_ count: Int) -> Int { (count + checksumBlock - 1) / checksumBlock }

    /// Read from the end of a tail.
    static func metaStart(ofTail tail: [UInt8]) -> Int {
        tail.withUnsafeBytes {
            Int(UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: tail.count - 8, as: UInt64.self)))
        }
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> StableHash {
        var hash = StableHash()
        hash.combine(bytes)
        return hash
    }

    /// Read a block at a time to check it, each block's pages given back once checked.
    static let checksumBlock = 1 << 20

    /// Each block's checksum, as ``SealedFile`` takes them while it writes: for a reader of a whole file.
    static func blockChecksums(of bytes: UnsafeRawBufferPointer) -> [StableHash] {
        stride(from: 0, to: bytes.count, by: checksumBlock).map { start in
            checksum(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + checksumBlock, bytes.count)]))
        }
    }

    /// Puts the journal in place after the commit: the tail (with the live manifest's identity), the trailer,
    /// the rename. Failure only cleans up: a build that can't keep its journal still succeeded.
    static func install(
        _ file: inout SealedFile, meta: Meta, kinds: [String], fingerprints: InputFingerprints, output: URL,
        folder: String
    ) {
        guard let manifestIdentity = BuildJournal.manifestIdentity(of: output),
            SiteLayout.prepareSpareFolder(of: output)
        else {
            file.discard()
            return
        }
        var meta = meta
        meta.manifestIdentity = manifestIdentity
        let bytes = tail(start: file.count, meta: meta, kinds: kinds, fingerprints: fingerprints)
        bytes.withUnsafeBytes { file.append($0) }
        _ = file.seal(
            trailer: { trailer(blocks: $0, metaStart: metaStart(ofTail: bytes)) },
            as: SiteLayout.journalPath(of: output, folder: folder))
    }
}
