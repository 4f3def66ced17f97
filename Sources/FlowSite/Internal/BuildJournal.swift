import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `holocron build` keeps of the build that made the live site, for the next run of the
/// command (a new process, with no memory of its own): `.NAME.spare/journal`, beside the spare
/// generation. With it, a build after an edit makes only the pages that read a changed input
/// (see ``SiteBuilder/journalsEdits``).
///
/// One binary file, read whole, sections in this order:
/// - the walk's record of every page, in discovery order (written as the walk goes, so memory
///   does not grow with the site): its route's ``StorableRoute/storedName``, its breadcrumb
///   title, the fingerprint of where its links lead (``WalkOutcome/leadsFingerprint(targets:)``),
///   where it stands (trail and presenter as discovery indices, presentation, depth, kind) and
///   the inputs it read; then their offsets;
/// - what each page left, in the order pages were made: its discovery index, file, title,
///   summary, search section, content fingerprint, and whether it wrote files of its own; then
///   their offsets;
/// - every file of the site with its manifest fingerprint;
/// - the app's input fingerprints (``InputFingerprints``);
/// - the meta block: the build key, the live manifest's identity (the journal describes that
///   site and no other), counts, and where each section starts; then its offset;
/// - the trailer: a checksum of each block of a mebibyte of all that, where the meta block
///   starts, a checksum of those, and a magic (``JournalFile/trailer(blocks:metaStart:)``).
///
/// An edit patches the live journal in place rather than writing it again (it grows with the
/// site): its pages' new records are appended, the offset tables, fingerprints and meta block
/// written over, and a new trailer appended, with only the blocks written into checked again
/// (``SiteBuilder/patchJournal``); it is written whole again when the appended part passes an
/// eighth of it. A build that reads it meanwhile has its own copy (``FileContents``), which the
/// checksums refuse when it was torn.
enum BuildJournal {
    static let magic: [UInt8] = Array("HOLOJRN4".utf8)

    /// `.NAME.spare/journal`.
    static func path(of output: URL) -> String {
        SiteWriter.spareFolder(of: output).appendingPathComponent("journal").path
    }

    /// The live manifest's identity: a commit writes a new manifest, so another build's site
    /// (or none) never matches a journal.
    static func manifestStamp(of output: URL) -> [UInt64]? {
        var status = stat()
        guard lstat(output.appendingPathComponent(SiteWriter.manifestName).path, &status) == 0 else { return nil }
        let modified = SiteManifest.Entry.modified(status)
        return [UInt64(status.st_ino), UInt64(status.st_size), UInt64(bitPattern: Int64(modified.tv_sec)), UInt64(modified.tv_nsec)]
    }
}

/// Little-endian bytes of a journal.
struct JournalBytes {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func hash(_ value: StableHash) {
        u64(value.a)
        u64(value.b)
    }
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            u32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }
    mutating func optionalString(_ text: String?) {
        if let text {
            u8(1)
            string(text)
        } else {
            u8(0)
        }
    }
}

/// Reads a journal's bytes; every read is bounds-checked, so a damaged file is refused, never
/// trusted.
struct JournalCursor {
    struct Malformed: Error {}
    let bytes: UnsafeRawBufferPointer
    var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    private mutating func take(_ count: Int) throws(Malformed) -> Int {
        guard count >= 0, offset >= 0, offset <= bytes.count - count else { throw Malformed() }
        defer { offset += count }
        return offset
    }
    mutating func u8() throws(Malformed) -> UInt8 { bytes[try take(1)] }
    mutating func u32() throws(Malformed) -> UInt32 { UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(4), as: UInt32.self)) }
    mutating func i32() throws(Malformed) -> Int32 { Int32(bitPattern: try u32()) }
    mutating func u64() throws(Malformed) -> UInt64 { UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(8), as: UInt64.self)) }
    mutating func int() throws(Malformed) -> Int {
        let value = try u64()
        guard value <= UInt64(Int.max) else { throw Malformed() }
        return Int(value)
    }
    mutating func hash() throws(Malformed) -> StableHash { StableHash(a: try u64(), b: try u64()) }
    /// A string's bytes, without making a String.
    mutating func stringBytes() throws(Malformed) -> UnsafeRawBufferPointer {
        let count = Int(try u32())
        let start = try take(count)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<start + count])
    }
    mutating func string() throws(Malformed) -> String { String(decoding: try stringBytes(), as: UTF8.self) }
    mutating func optionalString() throws(Malformed) -> String? { try u8() == 0 ? nil : try string() }
    mutating func skip(_ count: Int) throws(Malformed) { _ = try take(count) }
}

/// Where a page stood when the walk made it, by discovery index: what a journal keeps to make
/// the page again in its place.
struct JournalContext: Sendable {
    var trail: [Int32]
    var presenter: Int32
    var presentation: Presentation
    var depth: Int
    var kind: Int32
}

extension Presentation {
    /// A small number for journals and fingerprints.
    var code: UInt8 {
        switch self {
        case .root: 0
        case .push: 1
        case .modal: 2
        case .replace: 3
        }
    }

    init?(code: UInt8) {
        switch code {
        case 0: self = .root
        case 1: self = .push
        case 2: self = .modal
        case 3: self = .replace
        default: return nil
        }
    }
}

extension WalkOutcome {
    /// A fingerprint of everything by which this page moves other pages (see
    /// ``leadsLike(_:)``): its title, failures, and each link's target (as its discovery index
    /// in the walk), presentation and the code that chose it, and what flow lint reads.
    func leadsFingerprint(targets indices: [Int32]) -> StableHash {
        var hash = StableHash()
        hash.combine(title)
        hash.combine(failure ?? "\u{0}")
        hash.combine(recovered ?? "\u{0}")
        hash.combine(indices.count)
        for index in indices { hash.combine(Int(index)) }
        for presentation in presentations { hash.combine(Int(presentation.code)) }
        for location in linkLocations { hash.combine(Int(location)) }
        for location in locations + [location].compactMap({ $0 }) {
            hash.combine(location.fileID)
            hash.combine(location.line)
        }
        hash.combine(location == nil ? 0 : 1)
        hash.combine(ownLinks)
        if let problems = labelProblems {
            hash.combine(problems.emptyCount)
            hash.combine(problems.firstEmpty?.description ?? "\u{0}")
            hash.combine(problems.ambiguousCount)
            if let first = problems.firstAmbiguous {
                hash.combine(first.label)
                hash.combine(first.first.description)
                hash.combine(first.second.description)
            }
        } else {
            hash.combine(-1)
        }
        for link in unhandled {
            hash.combine(link.label)
            hash.combine(link.target)
            hash.combine(link.shown.joined(separator: "\u{0}"))
        }
        hash.combine(error == nil ? 0 : 1)
        return hash
    }
}

/// What a walk leaves of each page for the journal, in discovery order, written to a file as
/// it goes (the walk's own task takes pages in that order, one at a time).
final class WalkJournal<R: Route>: Sendable {
    /// The stored name of a route (``StorableRoute/storedName``).
    let name: @Sendable (R) -> String
    let path: String
    private let state: Mutex<State>

    private struct State {
        var buffer = JournalBytes()
        var offsets: [UInt64] = []
        var written: UInt64 = 0
        var descriptor: Int32
        var failed = false
        /// Whether a page failed or showed its error screen: such a build's journal is not
        /// kept (the next build reports those pages again by making them).
        var unusual = false
    }

    /// A journal written to a new file at `path`, or `nil` when it can't be made.
    init?(path: String, name: @escaping @Sendable (R) -> String) {
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return nil }
        self.path = path
        self.name = name
        state = Mutex(State(descriptor: descriptor))
    }

    deinit {
        state.withLock { state in
            if state.descriptor >= 0 { close(state.descriptor) }
        }
    }

    /// Records the page at discovery index `index`.
    func record(_ route: R, index: Int, outcome: WalkOutcome<R>, context: JournalContext, targets: [Int32]) {
        let leads = outcome.leadsFingerprint(targets: targets)
        let name = name(route)
        state.withLock { state in
            guard !state.failed else { return }
            if outcome.failure != nil || outcome.recovered != nil { state.unusual = true }
            guard state.offsets.count == index else {
                state.failed = true
                return
            }
            state.offsets.append(state.written + UInt64(state.buffer.bytes.count))
            Self.encode(name: name, outcome: outcome, leads: leads, context: context, into: &state.buffer)
            if state.buffer.bytes.count >= 1 << 20 { Self.flush(&state) }
        }
    }

    /// One page's walk record.
    static func encode(name: String, outcome: WalkOutcome<R>, leads: StableHash, context: JournalContext, into out: inout JournalBytes) {
        out.string(name)
        out.string(outcome.title)
        out.hash(leads)
        out.u8(context.presentation.code)
        out.u32(UInt32(clamping: context.depth))
        out.i32(context.kind)
        out.i32(context.presenter)
        out.u32(UInt32(context.trail.count))
        for step in context.trail { out.i32(step) }
        out.u32(UInt32(outcome.inputs.count))
        for input in outcome.inputs { out.u64(input.rawValue) }
    }

    private static func flush(_ state: inout State) {
        let ok = state.buffer.bytes.withUnsafeBytes { JournalFile.writeAll(state.descriptor, $0) }
        if !ok { state.failed = true }
        state.written += UInt64(state.buffer.bytes.count)
        state.buffer.bytes.removeAll(keepingCapacity: true)
    }

    /// Ends the walk's part: its records are in the file, followed by their offsets. Returns
    /// the open file and where the offsets begin, or `nil` when the journal can't be used
    /// (then the file is removed).
    func finish(pages: Int) -> (descriptor: Int32, offsets: UInt64, end: UInt64)? {
        state.withLock { state in
            Self.flush(&state)
            let offsetsStart = state.written
            var table = JournalBytes()
            for offset in state.offsets { table.u64(offset) }
            state.buffer = table
            Self.flush(&state)
            guard !state.failed, !state.unusual, state.offsets.count == pages else {
                close(state.descriptor)
                state.descriptor = -1
                unlink(path)
                return nil
            }
            let descriptor = state.descriptor
            state.descriptor = -1
            return (descriptor, offsetsStart, state.written)
        }
    }

    /// Gives up: the file is removed.
    func discard() {
        state.withLock { state in
            if state.descriptor >= 0 { close(state.descriptor) }
            state.descriptor = -1
            state.failed = true
        }
        unlink(path)
    }
}

/// A journal file as a whole: written after a build, read by the next.
struct JournalFile {
    /// What each page left, in made order.
    struct Product {
        var index: Int32
        var path: String
        var title: String
        var summary: String?
        var isDialog: Bool
        /// The page's search section, when it is in the search index (``hasEntry``).
        var hasEntry: Bool
        var section: String?
        var content: StableHash
        var kind: Int32
        var hasFiles: Bool

        func encode(into out: inout JournalBytes) {
            out.i32(index)
            out.string(path)
            out.string(title)
            out.optionalString(summary)
            out.u8((isDialog ? 1 : 0) | (hasEntry ? 2 : 0) | (hasFiles ? 4 : 0))
            out.optionalString(section)
            out.hash(content)
            out.i32(kind)
        }

        static func decode(_ cursor: inout JournalCursor) throws(JournalCursor.Malformed) -> Product {
            let index = try cursor.i32()
            let path = try cursor.string()
            let title = try cursor.string()
            let summary = try cursor.optionalString()
            let flags = try cursor.u8()
            let section = try cursor.optionalString()
            let content = try cursor.hash()
            let kind = try cursor.i32()
            return Product(
                index: index, path: path, title: title, summary: summary, isDialog: flags & 1 != 0, hasEntry: flags & 2 != 0,
                section: section, content: content, kind: kind, hasFiles: flags & 4 != 0
            )
        }
    }

    /// The meta block.
    struct Meta {
        var buildKey: StableHash
        var stamp: [UInt64]
        var pages: Int
        var edges: Int
        var links: Int
        var walkOffsets: Int
        var products: Int
        var productOffsets: Int
        var files: Int
        var kinds: Int
        var fingerprints: Int

        func encode(into out: inout JournalBytes) {
            out.hash(buildKey)
            for value in stamp { out.u64(value) }
            for value in [pages, edges, links, walkOffsets, products, productOffsets, files, kinds, fingerprints] { out.u64(UInt64(value)) }
        }

        static func decode(_ cursor: inout JournalCursor) throws(JournalCursor.Malformed) -> Meta {
            let key = try cursor.hash()
            var stamp: [UInt64] = []
            for _ in 0..<4 { stamp.append(try cursor.u64()) }
            var values: [Int] = []
            for _ in 0..<9 { values.append(try cursor.int()) }
            return Meta(
                buildKey: key, stamp: stamp, pages: values[0], edges: values[1], links: values[2], walkOffsets: values[3],
                products: values[4], productOffsets: values[5], files: values[6], kinds: values[7], fingerprints: values[8]
            )
        }
    }

    /// What follows the files section: the kinds, the fingerprints, the meta block (with
    /// `meta`'s walk, products, offsets and files where they were written) and its offset,
    /// from `start` in the file. The trailer (``trailer(blocks:metaStart:)``) comes last.
    static func tail(start: Int, meta: Meta, kinds: [String], fingerprints: InputFingerprints) -> [UInt8] {
        var meta = meta
        var out = JournalBytes()
        out.bytes.reserveCapacity(fingerprints.count * 16 + 256)
        meta.kinds = start + out.bytes.count
        out.u32(UInt32(kinds.count))
        for kind in kinds { out.string(kind) }
        meta.fingerprints = start + out.bytes.count
        out.u32(UInt32(fingerprints.count))
        for key in fingerprints.keys { out.u64(key) }
        for value in fingerprints.values { out.u64(value) }
        let metaStart = start + out.bytes.count
        meta.encode(into: &out)
        out.u64(UInt64(metaStart))
        return out.bytes
    }

    /// The trailer a journal ends with: the checksum of each block (``checksumBlock``) of
    /// everything before it, their count, where the meta block starts, the checksum of those,
    /// and the magic. A journal whose bytes changed in any way is not read.
    static func trailer(blocks: [StableHash], metaStart: Int) -> [UInt8] {
        var out = JournalBytes()
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

    /// The blocks that cover `count` bytes.
    static func blockCount(_ count: Int) -> Int { (count + checksumBlock - 1) / checksumBlock }

    /// Where the meta block starts, read from the end of a tail (``tail(start:meta:kinds:fingerprints:)``).
    static func metaStart(ofTail tail: [UInt8]) -> Int {
        tail.withUnsafeBytes { Int(UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: tail.count - 8, as: UInt64.self))) }
    }

    /// The checksum of `bytes` (``Checksum`` of them all).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> StableHash {
        var checksum = Checksum()
        checksum.add(bytes)
        return checksum.finish()
    }

    /// The checksums of each block of bytes that come a piece at a time, as they are written.
    struct BlockChecksums {
        private(set) var blocks: [StableHash] = []
        private var current = Checksum()
        private var filled = 0

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            var offset = 0
            while offset < bytes.count {
                let take = min(checksumBlock - filled, bytes.count - offset)
                current.add(UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + take]))
                filled += take
                offset += take
                if filled == checksumBlock {
                    blocks.append(current.finish())
                    current = Checksum()
                    filled = 0
                }
            }
        }

        /// Every block's checksum, the last one's however full it is.
        func finish() -> [StableHash] { filled > 0 ? blocks + [current.finish()] : blocks }
    }

    /// How much of a journal is read (or read back) at a time to check it: each block's pages
    /// are given back once checked.
    static let checksumBlock = 1 << 20

    /// A journal's checksum, of bytes that may come a piece at a time (as they are written, or
    /// read back a block at a time): four lanes, each folding every fourth word of eight bytes,
    /// side by side (independent chains keep the multiplier busy, where a single chain waits on
    /// each multiply), then the lanes, the tail and the count folded into two.
    struct Checksum {
        private var lanes: (UInt64, UInt64, UInt64, UInt64) = (0x9E37_79B9_7F4A_7C15, 0xC2B2_AE3D_27D4_EB4F, 0x1656_67B1_9E37_79F9, 0x27D4_EB2F_1656_67C5)
        /// Bytes short of a whole group of 32, waiting for the next piece.
        private var pending: [UInt8] = []
        private var total = 0

        @inline(__always) private static func fold(_ lane: inout UInt64, _ word: UInt64) {
            lane = (lane ^ word) &* 0xFF51_AFD7_ED55_8CCD
            lane ^= lane >> 32
        }

        private mutating func group(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
            Self.fold(&lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            Self.fold(&lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            Self.fold(&lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            Self.fold(&lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
        }

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            total += bytes.count
            var offset = 0
            if !pending.isEmpty {
                let take = min(32 - pending.count, bytes.count)
                pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<take]))
                offset = take
                guard pending.count == 32 else { return }
                pending.withUnsafeBytes { group($0, at: 0) }
                pending.removeAll(keepingCapacity: true)
            }
            while offset + 32 <= bytes.count {
                group(bytes, at: offset)
                offset += 32
            }
            if offset < bytes.count { pending.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[offset...])) }
        }

        /// The checksum of everything added.
        func finish() -> StableHash {
            var (a, b) = (lanes.0, lanes.1)
            Self.fold(&a, lanes.2)
            Self.fold(&b, lanes.3)
            // The tail, eight bytes at a time, and the count.
            var tail = pending
            tail.append(contentsOf: repeatElement(0, count: (8 - tail.count % 8) % 8))
            tail.withUnsafeBytes { words in
                for offset in stride(from: 0, to: words.count, by: 8) {
                    let word = words.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    Self.fold(&a, word)
                    Self.fold(&b, word ^ 0x9E37_79B9_7F4A_7C15)
                }
            }
            Self.fold(&a, UInt64(total))
            Self.fold(&b, UInt64(total) &+ 1)
            return StableHash(a: a, b: b)
        }
    }

    /// The checksum of block `index` of the first `count` bytes of the file open at
    /// `descriptor`, read back into `buffer` (``checksumBlock`` bytes).
    static func blockChecksum(of descriptor: Int32, index: Int, count: Int, buffer: inout [UInt8]) -> StableHash? {
        let offset = index * checksumBlock
        let length = min(checksumBlock, count - offset)
        guard length > 0 else { return nil }
        var done = 0
        while done < length {
            let read = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, length - done, off_t(offset + done)) }
            if read < 0 && errno == EINTR { continue }
            guard read > 0 else { return nil }
            done += read
        }
        return buffer.withUnsafeBytes { checksum(UnsafeRawBufferPointer(rebasing: $0[0..<length])) }
    }

    /// The checksums of the blocks of the first `count` bytes of the file open at `descriptor`.
    static func blockChecksums(of descriptor: Int32, count: Int) -> [StableHash]? {
        var buffer = [UInt8](repeating: 0, count: checksumBlock)
        var blocks: [StableHash] = []
        for index in 0..<blockCount(count) {
            guard let block = blockChecksum(of: descriptor, index: index, count: count, buffer: &buffer) else { return nil }
            blocks.append(block)
        }
        return blocks
    }

    /// Writes all of `bytes` to `descriptor`, at `offset` when one is given (the file's own
    /// position is then left as it is).
    static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int? = nil) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = offset.map { pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t($0 + done)) }
                ?? write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    /// Puts the journal written at `temporary` in place for `output`, after its commit: it then
    /// describes the live site (whose manifest identity it takes). Clean-up on failure only: a
    /// build that can't keep its journal still succeeded.
    static func install(_ temporary: String, descriptor: Int32, tail: (_ start: Int, _ stamp: [UInt64]) -> [UInt8], start: Int, output: URL) {
        defer { close(descriptor) }
        guard let stamp = BuildJournal.manifestStamp(of: output), SiteWriter.prepareSpareFolder(of: output) else {
            unlink(temporary)
            return
        }
        let bytes = tail(start, stamp)
        guard bytes.withUnsafeBytes({ writeAll(descriptor, $0) }), let blocks = blockChecksums(of: descriptor, count: start + bytes.count),
            trailer(blocks: blocks, metaStart: metaStart(ofTail: bytes)).withUnsafeBytes({ writeAll(descriptor, $0) }),
            rename(temporary, BuildJournal.path(of: output)) == 0
        else {
            unlink(temporary)
            return
        }
    }
}
