import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The data files' resources as they were decoded, kept beside a site so that the next build
/// of it decodes only the files that changed.
///
/// Decoding every JSON file again would be most of an edit's time, though an edit usually
/// changes one. Each file decoded straight from its bytes leaves a cache file
/// (`people.decoded`, …) holding every value its resources read, in the order they read them,
/// with the file's identity (device, inode, size, modification and change times) and the
/// program's. A later load uses it only when both are the same, and its checksum holds; any
/// other cache file, damaged or not, is a miss and the JSON is decoded. The resources read
/// back are equal to those decoded (a test holds them together for every kind).
package struct DecodedCache: Sendable {
    /// The folder of the cache files.
    package let folder: URL
    /// What identifies the program that reads and writes them: another build of it may read
    /// resources in another order.
    package let program: String

    package init(folder: URL, program: String) {
        self.folder = folder
        self.program = program
    }

    static let magic: [UInt8] = Array("HOLODEC1".utf8)
    static let version: UInt32 = 1
    /// The checksum is of chunks this long, so the writer can hash what it flushes.
    static let chunk = 1 << 20

    func path(of kind: ResourceKind) -> String {
        folder.appendingPathComponent("\(kind.rawValue).decoded").path
    }

    /// The resources (and their fingerprints) the cache keeps for the file of `R`'s kind whose
    /// identity is `stamp` (words that change whenever the file does); `nil` when it keeps none
    /// for that very file, or its file is damaged. With no `stamp`, those it keeps for whichever
    /// version of the file it was made from (an edit decodes only what differs from it).
    func load<R: SwapiJSONDecodable>(_ type: R.Type, stamp: [UInt64]?) -> (resources: [R], fingerprints: [UInt64]?)? {
        guard let bytes = Self.contents(of: path(of: R.kind)),
            let read = bytes.withUnsafeBytes({ raw in try? Reader.contents(R.self, in: raw, program: program, stamp: stamp, locatingRecords: false) })
        else { return nil }
        return (read.resources, read.fingerprints)
    }

    /// The cache of `R`'s kind for whichever version of its data file it was made from, with
    /// what a recorder needs to copy its records: an edit of a few resources reuses the others
    /// and copies their records into the new version's cache. `nil` when there is none (or
    /// it lacks fingerprints, or is damaged).
    func earlier<R: SwapiJSONDecodable>(_ type: R.Type) -> Earlier<R>? {
        guard let bytes = Self.contents(of: path(of: R.kind)),
            let read = bytes.withUnsafeBytes({ raw in try? Reader.contents(R.self, in: raw, program: program, stamp: nil, locatingRecords: true) }),
            let fingerprints = read.fingerprints
        else { return nil }
        return Earlier(read: read, fingerprints: fingerprints, bytes: bytes)
    }

    /// A cache file made from an earlier version of its data file, read and kept mapped: its
    /// resources, their fingerprints, and where each one's record lies.
    package final class Earlier<R: SwapiJSONDecodable>: @unchecked Sendable {
        // Never written after `init`; `bytes` is the mapped file the records are in.
        let resources: [R]
        let fingerprints: [UInt64]
        private let bytes: Data
        private let recordStarts: [Int]
        fileprivate let prefixes: [String]
        fileprivate let prefixIndexes: [Int32]

        fileprivate init(read: Reader.Contents<R>, fingerprints: [UInt64], bytes: Data) {
            resources = read.resources
            self.fingerprints = fingerprints
            self.bytes = bytes
            recordStarts = read.recordStarts
            prefixes = read.prefixes
            prefixIndexes = read.prefixIndexes
        }

        /// Copies the record of resource `index` into `recorder`, which numbers the URL prefixes
        /// as this file does (``DecodedCache/recorder(for:stamp:continuing:)``).
        func copyRecord(_ index: Int, into recorder: Recorder) {
            bytes.withUnsafeBytes { raw in
                recorder.copyRecord(UnsafeRawBufferPointer(rebasing: raw[recordStarts[index]..<recordStarts[index + 1]]))
            }
        }
    }

    /// A recorder for the file of `kind`, whose identity is `stamp` as it is read; `nil` when
    /// the cache folder can't be written.
    func recorder(for kind: ResourceKind, stamp: [UInt64]) -> Recorder? {
        Recorder(path: path(of: kind), program: program, kind: kind, stamp: stamp)
    }

    /// A recorder for the file of `R`'s kind whose identity is `stamp`, into which the records
    /// of `earlier` can be copied as they are: it numbers the URL prefixes as that file did.
    func recorder<R>(for kind: ResourceKind, stamp: [UInt64], continuing earlier: Earlier<R>) -> Recorder? {
        let recorder = Recorder(path: path(of: kind), program: program, kind: kind, stamp: stamp)
        recorder?.adoptPrefixes(earlier.prefixes, indexes: earlier.prefixIndexes)
        return recorder
    }

    /// Removes the partial files that killed loads left (their process is gone).
    func removeLeftovers() {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
            guard let marker = name.range(of: ".decoded.partial-"), let pid = Int32(name[marker.upperBound...]),
                pid > 0, pid != getpid(), kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    /// The whole file at `path` mapped, not read: the caches an edit reads grow with the data,
    /// and a copy of each into a fresh buffer would cost a page fault per page. A cache file is
    /// replaced by a rename, never written in place, so the mapped pages stay the file opened.
    /// Foundation opens it without blocking and fails on anything but a file (a named pipe in
    /// its place is a miss, not a hang). `nil` when there is no such file, or it is empty.
    private static func contents(of path: String) -> Data? {
        guard let bytes = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped), !bytes.isEmpty else { return nil }
        return bytes
    }

    /// A 64-bit checksum of `bytes`, a chunk at a time.
    struct Checksum {
        private(set) var value: UInt64 = 0x2545_F491_4F6C_DD1D

        mutating func add(chunk: UnsafeRawBufferPointer) {
            value = (value ^ SwapiJSONReader.fingerprint(chunk)) &* 0xFF51_AFD7_ED55_8CCD
            value ^= value >> 29
        }

        static func of(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
            var checksum = Checksum()
            var start = 0
            while start < bytes.count {
                let end = min(start + DecodedCache.chunk, bytes.count)
                checksum.add(chunk: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                start = end
            }
            return checksum.value
        }
    }
}

// MARK: Writing

extension DecodedCache {
    /// Writes the values a file's resources read as they read them (``RecordingFields``) into a
    /// file of its own, renamed into place by ``finish(count:fingerprints:keep:)``: a reader
    /// never sees half of one.
    package final class Recorder {
        private let path: String
        private let partial: String
        private var descriptor: Int32
        private var buffer: [UInt8] = []
        private var checksum = Checksum()
        private var written = 0
        private var failed = false
        /// The file's own numbers for the URL prefixes of the process's table.
        private var prefixNumbers: [Int32: UInt32] = [:]
        private var prefixes: [String] = []

        fileprivate init?(path: String, program: String, kind: ResourceKind, stamp: [UInt64]) {
            self.path = path
            partial = "\(path).partial-\(getpid())"
            descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard descriptor >= 0 else { return nil }
            buffer.reserveCapacity(DecodedCache.chunk * 2)
            buffer.append(contentsOf: DecodedCache.magic)
            u32(DecodedCache.version)
            string(program)
            string(kind.rawValue)
            u32(UInt32(stamp.count))
            for word in stamp { u64(word) }
        }

        deinit {
            if descriptor >= 0 {
                close(descriptor)
                unlink(partial)
            }
        }

        /// Numbers the URL prefixes as another cache file did (`texts`, whose process indexes
        /// are `indexes`), before anything is recorded: that file's records then copy over as
        /// they are, and a prefix it lacks is numbered after its own.
        fileprivate func adoptPrefixes(_ texts: [String], indexes: [Int32]) {
            precondition(prefixes.isEmpty && texts.count == indexes.count)
            prefixes = texts
            for (number, index) in indexes.enumerated() where prefixNumbers[index] == nil {
                prefixNumbers[index] = UInt32(number)
            }
        }

        /// A record another cache file holds, copied: a file whose prefixes this one adopted.
        func copyRecord(_ record: UnsafeRawBufferPointer) {
            buffer.append(contentsOf: record)
            flushWholeChunks()
        }

        func u8(_ value: UInt8) { buffer.append(value) }
        func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) } }
        func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { buffer.append(contentsOf: $0) } }

        func string(_ text: String) {
            var text = text
            text.withUTF8 { bytes in
                u32(UInt32(bytes.count))
                buffer.append(contentsOf: bytes)
            }
            flushWholeChunks()
        }

        func link(_ link: ResourceLink) {
            if let prefix = link.prefixIndex, let id = UInt32(exactly: link.id) {
                let stored = Int32(prefix)
                let number: UInt32
                if let known = prefixNumbers[stored] {
                    number = known
                } else {
                    number = UInt32(prefixes.count)
                    prefixNumbers[stored] = number
                    prefixes.append(ResourceURLTable.shared.text(stored))
                }
                u8(0)
                u32(number)
                u32(id)
            } else {
                u8(1)
                string(link.url)
            }
        }

        func links(_ links: [ResourceLink]) {
            u32(UInt32(links.count))
            for link in links { self.link(link) }
            flushWholeChunks()
        }

        func optionalLink(_ link: ResourceLink?) {
            guard let link else { return u8(0) }
            u8(1)
            self.link(link)
        }

        func optionalInteger(_ value: Int?) {
            guard let value else { return u8(0) }
            u8(1)
            u64(UInt64(bitPattern: Int64(value)))
        }

        func timestamp(_ value: TimestampText) {
            if let (low, high) = value.packedWords {
                u8(0)
                u64(low)
                u64(high)
            } else {
                u8(1)
                string(value.text)
            }
        }

        /// Writes every whole chunk of the buffer, hashing each.
        private func flushWholeChunks() {
            guard buffer.count >= DecodedCache.chunk * 2 else { return }
            let whole = buffer.count / DecodedCache.chunk * DecodedCache.chunk
            emit(upTo: whole)
        }

        private func emit(upTo count: Int) {
            guard count > 0 else { return }
            buffer.withUnsafeBytes { bytes in
                var start = 0
                while start < count {
                    let end = min(start + DecodedCache.chunk, count)
                    checksum.add(chunk: UnsafeRawBufferPointer(rebasing: bytes[start..<end]))
                    start = end
                }
                if !failed, !Self.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: bytes[..<count])) { failed = true }
            }
            written += count
            buffer.removeFirst(count)
        }

        private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
            var done = 0
            while done < bytes.count {
                let wrote = write(descriptor, bytes.baseAddress! + done, bytes.count - done)
                if wrote < 0, errno == EINTR { continue }
                guard wrote > 0 else { return false }
                done += wrote
            }
            return true
        }

        /// Ends the file with its `count` resources' `fingerprints`, the table of URL prefixes
        /// and the checksum, and puts it in place when `keep` says the data file is still the
        /// one read; otherwise, or when a write failed, removes it.
        func finish(count: Int, fingerprints: [UInt64]?, keep: () -> Bool) {
            let trailerStart = written + buffer.count
            u32(UInt32(prefixes.count))
            for prefix in prefixes { string(prefix) }
            if let fingerprints {
                u8(1)
                u64(UInt64(fingerprints.count))
                for fingerprint in fingerprints { u64(fingerprint) }
            } else {
                u8(0)
            }
            u64(UInt64(count))
            u64(UInt64(trailerStart))
            // Everything so far is checksummed: whole chunks from the file's start, then the rest.
            emit(upTo: buffer.count / DecodedCache.chunk * DecodedCache.chunk)
            buffer.withUnsafeBytes { if !$0.isEmpty { checksum.add(chunk: $0) } }
            u64(checksum.value)
            buffer.append(contentsOf: DecodedCache.magic)
            buffer.withUnsafeBytes { if !failed, !Self.writeAll(descriptor, $0) { failed = true } }
            buffer = []
            close(descriptor)
            descriptor = -1
            if failed || !keep() || rename(partial, path) != 0 { unlink(partial) }
        }
    }
}

/// The fields of a resource as ``SwapiJSONReader`` reads them, each value also recorded.
struct RecordingFields<Base: SwapiFields>: SwapiFields {
    typealias Key = Base.Key
    let base: Base
    let recorder: DecodedCache.Recorder

    func text(_ key: Key) throws -> String { recorded(try base.text(key), recorder.string) }
    func required(_ key: Key) throws -> String { recorded(try base.required(key), recorder.string) }
    func links(_ key: Key) throws -> [ResourceLink] { recorded(try base.links(key), recorder.links) }
    func link(_ key: Key) throws -> ResourceLink? { recorded(try base.link(key), recorder.optionalLink) }
    func integer(_ key: Key) throws -> Int? { recorded(try base.integer(key), recorder.optionalInteger) }
    func ownURL(_ key: Key) throws -> ResourceLink { recorded(try base.ownURL(key), recorder.link) }
    func timestamp(_ key: Key) throws -> TimestampText { recorded(try base.timestamp(key), recorder.timestamp) }

    /// `value`, once `record` has recorded it.
    private func recorded<Value>(_ value: Value, _ record: (Value) -> Void) -> Value {
        record(value)
        return value
    }
}

// MARK: Reading

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

        /// What ``contents(_:in:program:stamp:locatingRecords:)`` reads of a cache file: its
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
        /// data file whose identity is `stamp` (any, when `nil`); with `locatingRecords`, also
        /// what a recorder needs to copy their records.
        static func contents<R: SwapiJSONDecodable>(
            _ type: R.Type, in raw: UnsafeRawBufferPointer, program: String, stamp: [UInt64]?, locatingRecords: Bool = false
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
            guard try header.u32() == DecodedCache.version, try header.string() == program, try header.string() == R.kind.rawValue else { throw Malformed() }
            let words = Int(try header.u32())
            guard stamp.map({ $0.count == words }) ?? true else { throw Malformed() }
            for index in 0..<words {
                let word = try header.u64()
                guard stamp.map({ $0[index] == word }) ?? true else { throw Malformed() }
            }
            let checksum = raw.loadUnaligned(fromByteOffset: sealed + 8, as: UInt64.self).littleEndian
            guard DecodedCache.Checksum.of(UnsafeRawBufferPointer(rebasing: raw[..<(sealed + 8)])) == checksum else { throw Malformed() }
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
                resources.append(try R(cached: records))
            }
            guard records.position == trailerStart else { throw Malformed() }
            guard locatingRecords else { return Contents(resources: resources, fingerprints: fingerprints, recordStarts: [], prefixes: [], prefixIndexes: []) }
            starts.append(trailerStart)
            let prefixes = prefixRanges.map { String(decoding: prefixBytes[$0], as: UTF8.self) }
            return Contents(resources: resources, fingerprints: fingerprints, recordStarts: starts, prefixes: prefixes, prefixIndexes: records.prefixes)
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

/// A resource's fields read back from a cache file, in the order it recorded them; the keys
/// are not needed, since a resource reads its fields in one order.
struct CachedFields<Key: CodingKey>: SwapiFields {
    let reader: DecodedCache.Reader

    func text(_ key: Key) throws -> String { try reader.string() }
    func required(_ key: Key) throws -> String { try reader.string() }
    func links(_ key: Key) throws -> [ResourceLink] { try reader.links() }
    func link(_ key: Key) throws -> ResourceLink? { try reader.optionalLink() }
    func integer(_ key: Key) throws -> Int? { try reader.optionalInteger() }
    func ownURL(_ key: Key) throws -> ResourceLink { try reader.link() }
    func timestamp(_ key: Key) throws -> TimestampText { try reader.timestamp() }
}
