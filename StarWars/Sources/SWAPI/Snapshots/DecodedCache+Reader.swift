import FlowSite
import Foundation

extension DecodedCache {
    /// Reads back what a ``Recorder`` wrote, checking every length against the file's end.
    package final class Reader {
        struct Malformed: Error {}

        private let bytes: UnsafeRawBufferPointer
        private var position: Int
        private let end: Int
        /// The process's prefix index for each of the file's prefix numbers.
        private var prefixes: [Int32] = []

        private init(bytes: UnsafeRawBufferPointer, position: Int, end: Int) {
            self.bytes = bytes
            self.position = position
            self.end = end
        }

        /// What ``contents(_:in:program:fileIdentity:locatingRecords:)`` reads of a cache file: its
        /// resources and their fingerprints; and when asked, where each one's record begins
        /// (and, last, where the records end), and the file's URL prefixes in its numbering,
        /// with the process's index of each.
        struct Contents<R> {
            var resources: [R]
            var fingerprints: [UInt64]?
            var recordStarts: [Int]
            var prefixes: [String]
            var prefixIndexes: [Int32]
        }

        /// The resources in the cache file `raw`, when it is one written by `program` for the
        /// data file whose identity's fingerprint is `fileIdentity` (any, when `nil`); with `locatingRecords`, also
        /// what a recorder needs to copy their records.
        static func contents<R: SwapiRecord>(
            _ type: R.Type, in raw: UnsafeRawBufferPointer, program: String, fileIdentity: StableHash?,
            locatingRecords: Bool = false
        ) throws -> Contents<R> {
            let magic = DecodedCache.magic
            let footer = 16 + magic.count
            guard raw.count > magic.count + footer,
                raw.prefix(magic.count).elementsEqual(magic), raw.suffix(magic.count).elementsEqual(magic)
            else { throw Malformed() }
            let sealed = raw.count - footer
            let trailerStart = Int(clamping: raw.loadUnaligned(fromByteOffset: sealed, as: UInt64.self).littleEndian)
            guard trailerStart <= sealed else { throw Malformed() }
            // The header: what wrote it, and for which file. Read (within its bounds) before the
            // whole file is summed: a cache for another version of the file is told in a few
            // bytes, and an edit then reads it again for what it can reuse.
            let header = Reader(bytes: raw, position: magic.count, end: trailerStart)
            guard try header.u32() == DecodedCache.version, try header.string() == program,
                try header.string() == R.kind.rawValue
            else { throw Malformed() }
            let identity = try header.string()
            guard fileIdentity.map({ $0.description == identity }) ?? true else { throw Malformed() }
            let checksum = raw.loadUnaligned(fromByteOffset: sealed + 8, as: UInt64.self).littleEndian
            guard DecodedCache.Checksum.of(UnsafeRawBufferPointer(rebasing: raw[..<(sealed + 8)])) == checksum else {
                throw Malformed()
            }
            // The trailer: the prefixes, the fingerprints and the count.
            let trailer = Reader(bytes: raw, position: trailerStart, end: sealed)
            // Each prefix as the JSON reader keeps one: the part of a URL before its id.
            var prefixBytes: [UInt8] = []
            var prefixRanges: [Range<Int>] = []
            for _ in 0..<(try trailer.u32()) {
                let prefix = try trailer.take(Int(try trailer.u32()))
                guard prefix.last == UInt8(ascii: "/") else { throw Malformed() }
                prefixRanges.append(prefixBytes.count..<(prefixBytes.count + prefix.count))
                prefixBytes.append(contentsOf: prefix)
            }
            var fingerprints: [UInt64]?
            if try trailer.u8() == 1 {
                let count = try trailer.count(of: 8)
                fingerprints = try (0..<count).map { _ in try trailer.u64() }
            }
            let count = Int(clamping: try trailer.u64())
            guard trailer.position == sealed, fingerprints.map({ $0.count == count }) ?? true else { throw Malformed() }
            // The records, each read back by its resource, then nothing more.
            let records = header
            records.prefixes = prefixBytes.withUnsafeBufferPointer { all in
                ResourceURLTable.shared.storePrefixes(prefixRanges.map { UnsafeBufferPointer(rebasing: all[$0]) })
            }
            var resources: [R] = []
            resources.reserveCapacity(min(count, raw.count / 16))
            var starts: [Int] = []
            if locatingRecords { starts.reserveCapacity(min(count, raw.count / 16) + 1) }
            for _ in 0..<count {
                if locatingRecords { starts.append(records.position) }
                var fields = CachedFields(reader: records)
                resources.append(try R(reading: &fields))
            }
            guard records.position == trailerStart else { throw Malformed() }
            guard locatingRecords else {
                return Contents(
                    resources: resources, fingerprints: fingerprints, recordStarts: [], prefixes: [], prefixIndexes: [])
            }
            starts.append(trailerStart)
            let prefixes = prefixRanges.map { String(decoding: prefixBytes[$0], as: UTF8.self) }
            return Contents(
                resources: resources, fingerprints: fingerprints, recordStarts: starts, prefixes: prefixes,
                prefixIndexes: records.prefixes)
        }

        private func take(_ count: Int) throws(Malformed) -> UnsafeRawBufferPointer {
            guard count >= 0, count <= end - position else { throw Malformed() }
            defer { position += count }
            return UnsafeRawBufferPointer(rebasing: bytes[position..<(position + count)])
        }

        func u8() throws(Malformed) -> UInt8 { try take(1)[0] }
        func u32() throws(Malformed) -> UInt32 { try take(4).loadUnaligned(as: UInt32.self).littleEndian }
        func u64() throws(Malformed) -> UInt64 { try take(8).loadUnaligned(as: UInt64.self).littleEndian }

        /// A count of items at least `size` bytes each, checked against what is left.
        func count(of size: Int) throws(Malformed) -> Int {
            let count = Int(clamping: try u64())
            guard count <= (end - position) / size else { throw Malformed() }
            return count
        }

        func string() throws(Malformed) -> String {
            let bytes = try take(Int(try u32()))
            return String(decoding: bytes, as: UTF8.self)
        }

        func link() throws(Malformed) -> ResourceLink {
            switch try u8() {
            case 0:
                let number = Int(try u32())
                guard number < prefixes.count, let id = Int32(exactly: try u32()),
                    let link = ResourceLink.usual(prefix: prefixes[number], id: id)
                else { throw Malformed() }
                return link
            case 1:
                guard let link = ResourceLink(url: try string()) else { throw Malformed() }
                return link
            default:
                throw Malformed()
            }
        }

        func links() throws(Malformed) -> [ResourceLink] {
            // Each link takes at least five bytes (a whole URL's tag and length).
            let count = Int(try u32())
            guard count <= (end - position) / 5 else { throw Malformed() }
            var links: [ResourceLink] = []
            links.reserveCapacity(count)
            for _ in 0..<count { links.append(try link()) }
            return links
        }

        func optionalLink() throws(Malformed) -> ResourceLink? {
            switch try u8() {
            case 0: return nil
            case 1: return try link()
            default: throw Malformed()
            }
        }

        func optionalInteger() throws(Malformed) -> Int? {
            switch try u8() {
            case 0: return nil
            case 1: return Int(Int64(bitPattern: try u64()))
            default: throw Malformed()
            }
        }

        func timestamp() throws(Malformed) -> TimestampText {
            switch try u8() {
            case 0:
                guard let text = TimestampText(packedLow: try u64(), high: try u64()) else { throw Malformed() }
                return text
            case 1:
                return TimestampText(try string())
            default:
                throw Malformed()
            }
        }
    }
}

/// A resource's fields read back from a cache file, in the order it recorded them; the names
/// are not needed, since a resource reads its fields in one order.
struct CachedFields: SwapiFields {
    let reader: DecodedCache.Reader

    func text(_ key: String, _ value: inout String) throws { value = try reader.string() }
    func required(_ key: String, _ value: inout String) throws { value = try reader.string() }
    func links(_ key: String, _ value: inout [ResourceLink]) throws { value = try reader.links() }
    func link(_ key: String, _ value: inout ResourceLink?) throws { value = try reader.optionalLink() }
    func integer(_ key: String, _ value: inout Int?) throws { value = try reader.optionalInteger() }
    func ownURL(_ key: String, _ value: inout ResourceLink) throws { value = try reader.link() }
    func timestamp(_ key: String, _ value: inout PackedTimestamp) throws {
        value = PackedTimestamp(try reader.timestamp())
    }
}
