import FlowSite
import Foundation

/// The data files' resources as they were decoded, kept beside a site so that the next build
/// of it decodes only the files that changed.
///
/// Decoding every JSON file again would be most of an edit's time, though an edit usually
/// changes one. Each file decoded straight from its bytes leaves a cache file
/// (`people.decoded`, …) holding every value its resources read, in the order they read them,
/// with the fingerprint of the file's identity (`StableHash(identityOfFileAt:)`) and the
/// program's name. A later load uses it only when both are the same, and its checksum holds; any
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
    static let version: UInt32 = 2
    /// The checksum is of chunks this long, so the writer can hash what it flushes.
    static let chunk = 1 << 20

    func path(of kind: ResourceKind) -> String {
        folder.appendingPathComponent("\(kind.rawValue).decoded").path
    }

    /// The resources (and their fingerprints) the cache keeps for the file of `R`'s kind whose
    /// identity's fingerprint is `fileIdentity`; `nil` when it keeps none
    /// for that very file, or its file is damaged. With no `fileIdentity`, those it keeps for whichever
    /// version of the file it was made from (an edit decodes only what differs from it).
    func load<R: SwapiRecord>(_ type: R.Type, fileIdentity: StableHash?) -> (resources: [R], fingerprints: [UInt64]?)? {
        guard let bytes = Self.contents(of: path(of: R.kind)),
            let read = bytes.withUnsafeBytes({ raw in
                try? Reader.contents(
                    R.self, in: raw, program: program, fileIdentity: fileIdentity, locatingRecords: false)
            })
        else { return nil }
        return (read.resources, read.fingerprints)
    }

    /// The cache of `R`'s kind for whichever version of its data file it was made from, with
    /// what a recorder needs to copy its records: an edit of a few resources reuses the others
    /// and copies their records into the new version's cache. `nil` when there is none (or
    /// it lacks fingerprints, or is damaged).
    func earlier<R: SwapiRecord>(_ type: R.Type) -> Earlier<R>? {
        guard let bytes = Self.contents(of: path(of: R.kind)),
            let read = bytes.withUnsafeBytes({ raw in
                try? Reader.contents(R.self, in: raw, program: program, fileIdentity: nil, locatingRecords: true)
            }),
            let fingerprints = read.fingerprints
        else { return nil }
        return Earlier(read: read, fingerprints: fingerprints, bytes: bytes)
    }

    /// A cache file made from an earlier version of its data file, read and kept: its
    /// resources, their fingerprints, and where each one's record lies.
    package final class Earlier<R: SwapiRecord>: @unchecked Sendable {
        // Never written after `init`; `bytes` is the file the records are in.
        let resources: [R]
        let fingerprints: [UInt64]
        private let bytes: Data
        private let recordStarts: [Int]
        let prefixes: [String]
        let prefixIndexes: [Int32]

        init(read: Reader.Contents<R>, fingerprints: [UInt64], bytes: Data) {
            resources = read.resources
            self.fingerprints = fingerprints
            self.bytes = bytes
            recordStarts = read.recordStarts
            prefixes = read.prefixes
            prefixIndexes = read.prefixIndexes
        }

        /// Copies the record of resource `index` into `recorder`, which numbers the URL prefixes
        /// as this file does (``DecodedCache/recorder(for:fileIdentity:continuing:)``).
        func copyRecord(_ index: Int, into recorder: Recorder) {
            bytes.withUnsafeBytes { raw in
                recorder.copyRecord(
                    UnsafeRawBufferPointer(rebasing: raw[recordStarts[index]..<recordStarts[index + 1]]))
            }
        }
    }

    /// A recorder for the file of `R`'s kind, whose identity's fingerprint is `fileIdentity` as it is read; `nil`
    /// when the cache folder can't be written. With `earlier`, the records of that cache file
    /// can be copied into it as they are: it numbers the URL prefixes as that file did.
    func recorder<R: SwapiRecord>(
        for type: R.Type, fileIdentity: StableHash, continuing earlier: Earlier<R>?
    ) -> Recorder? {
        let recorder = Recorder(path: path(of: R.kind), program: program, kind: R.kind, fileIdentity: fileIdentity)
        if let earlier { recorder?.adoptPrefixes(earlier.prefixes, indexes: earlier.prefixIndexes) }
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

    /// The whole file at `path`, read into memory rather than mapped, so that another process
    /// shortening it cannot pull bytes from under the build (its checksum says whether the copy
    /// is whole). Opened without following a link or blocking, and only a regular file is read
    /// (a named pipe in its place is a miss, not a hang). `nil` when there is no such file, it
    /// is empty, or it could not be read whole.
    private static func contents(of path: String) -> Data? {
        let file = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard file >= 0 else { return nil }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0, status.st_mode & S_IFMT == S_IFREG, status.st_size > 0 else { return nil }
        var bytes = Data(count: Int(status.st_size))
        let complete = bytes.withUnsafeMutableBytes { buffer -> Bool in
            var done = 0
            while done < buffer.count {
                let got = pread(file, buffer.baseAddress! + done, buffer.count - done, off_t(done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { return false }
                done += got
            }
            return true
        }
        return complete ? bytes : nil
    }

    /// A 64-bit checksum of `bytes`, a chunk at a time: the ``StableHash`` of the chunks.
    struct Checksum {
        private var hash = StableHash()
        var value: UInt64 { hash.low }

        mutating func add(chunk: UnsafeRawBufferPointer) { hash.combine(chunk) }

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
