import FlowSite
import Foundation

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

        init?(path: String, program: String, kind: ResourceKind, fileIdentity: StableHash) {
            self.path = path
            partial = "\(path).partial-\(getpid())"
            descriptor = open(partial, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
            guard descriptor >= 0 else { return nil }
            buffer.reserveCapacity(DecodedCache.chunk * 2)
            buffer.append(contentsOf: DecodedCache.magic)
            u32(DecodedCache.version)
            string(program)
            string(kind.rawValue)
            string(fileIdentity.description)
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
        func adoptPrefixes(_ texts: [String], indexes: [Int32]) {
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
                if !failed, !Self.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: bytes[..<count])) {
                    failed = true
                }
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

/// The fields of a resource as another reader (``SwapiJSONReader``'s) reads them, each value
/// also recorded, in the order the resource reads them.
struct RecordingFields<Base: SwapiFields>: SwapiFields {
    var base: Base
    let recorder: DecodedCache.Recorder

    mutating func text(_ key: String, _ value: inout String) throws {
        try base.text(key, &value)
        recorder.string(value)
    }

    mutating func required(_ key: String, _ value: inout String) throws {
        try base.required(key, &value)
        recorder.string(value)
    }

    mutating func links(_ key: String, _ value: inout [ResourceLink]) throws {
        try base.links(key, &value)
        recorder.links(value)
    }

    mutating func link(_ key: String, _ value: inout ResourceLink?) throws {
        try base.link(key, &value)
        recorder.optionalLink(value)
    }

    mutating func integer(_ key: String, _ value: inout Int?) throws {
        try base.integer(key, &value)
        recorder.optionalInteger(value)
    }

    mutating func ownURL(_ key: String, _ value: inout ResourceLink) throws {
        try base.ownURL(key, &value)
        recorder.link(value)
    }

    mutating func timestamp(_ key: String, _ value: inout PackedTimestamp) throws {
        try base.timestamp(key, &value)
        recorder.timestamp(value.packed)
    }
}
