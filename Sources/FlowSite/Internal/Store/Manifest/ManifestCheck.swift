import FlowSiteUtilities
import Foundation
import Synchronization

extension SiteManifest {
    /// The one check of a site against its manifest: whether each file the manifest lists is still the one its line
    /// describes (a regular file of that size, inode and modification time, not through a link). Threads take chunks
    /// of lines in turn, any thread at any time: the read-ahead starts an edit's check while the data loads, and the
    /// build takes the chunks left. The no-change check stops every thread at the first changed file; an edit's
    /// check lists them all.
    final class FileCheck: @unchecked Sendable {
        private enum Storage {
            case mapped(FileContents)
            case read([UInt8])
        }

        // Only the atomics and the results are written after `init`; `storage` and `folder` are its own.
        private let storage: Storage
        private let folder: Int32
        private let stopsAtFirstChange: Bool
        /// The header's `inputs` value.
        private let inputs: Range<Int>?
        let pages: Int
        let lint: (findings: Int, summary: String)?
        private let chunks: [Range<Int>]
        private let next = Atomic<Int>(0)
        /// Set by a malformed line, by a changed file in the no-change check, or by ``stop()``.
        private let stopped = Atomic<Bool>(false)
        private let pending = DispatchGroup()
        /// Each chunk's findings; `nil` until checked, or when it was not.
        private let results: Locked<[Chunk?]>

        private struct Chunk {
            var files = 0
            var bytes = 0
            var sitemap = false
            var changed: [(path: String, entry: Entry)] = []
        }

        /// The no-change check of the manifest in `folder`, mapped rather than read; `nil` when there is none.
        convenience init?(mappingManifestIn folder: Int32) {
            let file = openat(folder, SiteLayout.manifest, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard file >= 0 else { return nil }
            defer { close(file) }
            guard let contents = FileContents.map(file) else { return nil }
            self.init(.mapped(contents), of: folder, stopsAtFirstChange: true)
        }

        /// An edit's check of `manifest`, the manifest of `folder`'s files; `nil` when it is not a manifest.
        convenience init?(manifest: [UInt8], of folder: Int32) {
            self.init(.read(manifest), of: folder, stopsAtFirstChange: false)
        }

        /// `folder` is duplicated: the caller keeps its own.
        private init?(_ storage: Storage, of folder: Int32, stopsAtFirstChange: Bool) {
            let header = Self.withBytes(of: storage) { bytes in
                SiteManifest.header(of: bytes).map {
                    ($0, SiteManifest.chunks(of: bytes, from: $0.filesStart, count: 64))
                }
            }
            let own = header == nil ? -1 : dup(folder)
            guard let (header, chunks) = header, own >= 0 else {
                if case .mapped(let contents) = storage { contents.release() }
                return nil
            }
            self.storage = storage
            self.folder = own
            self.stopsAtFirstChange = stopsAtFirstChange
            (inputs, pages, lint) = (header.inputs, header.pages, header.lint)
            self.chunks = chunks
            results = Locked(Array(repeating: nil, count: chunks.count))
            for _ in chunks { pending.enter() }
        }

        deinit {
            close(folder)
            if case .mapped(let contents) = storage { contents.release() }
        }

        private static func withBytes<T>(of storage: Storage, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
            switch storage {
            case .mapped(let contents): body(contents.bytes.assumingMemoryBound(to: UInt8.self))
            case .read(let bytes): bytes.withUnsafeBufferPointer(body)
            }
        }

        func isMade(from inputs: String) -> Bool {
            guard let range = self.inputs else { return false }
            return Self.withBytes(of: storage) { UnsafeBufferPointer(rebasing: $0[range]).elementsEqual(inputs.utf8) }
        }

        /// Stops every thread at its next file: the answer is no longer wanted.
        func stop() { stopped.store(true, ordering: .relaxed) }

        /// Checks chunks until none is left.
        func work() {
            while true {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < chunks.count else { return }
                defer { pending.leave() }
                guard !stopped.load(ordering: .relaxed) else { continue }
                let found = Self.withBytes(of: storage) { check(chunks[index], of: $0) }
                results.withLock { $0[index] = found }
            }
        }

        private func check(_ chunk: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) -> Chunk? {
            var found = Chunk()
            var lookup = SectionLookup(site: folder)
            var start = chunk.lowerBound
            while start < chunk.upperBound {
                let end =
                    memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\n")), chunk.upperBound - start)
                    .map { UnsafeRawPointer($0) - UnsafeRawPointer(bytes.baseAddress!) } ?? chunk.upperBound
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                start = end + 1
                if line.isEmpty { continue }
                guard !(stopsAtFirstChange && stopped.load(ordering: .relaxed)),
                    let (entry, name) = SiteManifest.entryAndPath(line)
                else {
                    stop()
                    return nil
                }
                if !lookup.holds(name, as: entry) {
                    // With its fingerprint, which the edit keeps.
                    guard !stopsAtFirstChange, let (entry, _) = SiteManifest.file(line) else {
                        stop()
                        return nil
                    }
                    found.changed.append((String(decoding: name, as: UTF8.self), entry))
                }
                if !Self.equal(name, Self.marker) {
                    found.files += 1
                    found.bytes += entry.size
                }
                if Self.equal(name, Self.sitemap) { found.sitemap = true }
            }
            return found
        }

        private static let marker = Array(SiteLayout.marker.utf8)
        private static let sitemap = Array("sitemap.xml".utf8)

        private static func equal(_ name: UnsafeBufferPointer<UInt8>, _ other: [UInt8]) -> Bool {
            name.count == other.count
                && other.withUnsafeBytes { memcmp(name.baseAddress!, $0.baseAddress!, name.count) == 0 }
        }

        /// Every chunk's findings once all are checked, on `lanes` threads (this one among them) besides any
        /// already at work; `nil` when a line is malformed, the check was stopped, or the mapped manifest changed.
        private func finish(lanes: Int) -> [Chunk]? {
            if lanes > 1 {
                DispatchQueue.concurrentPerform(iterations: lanes) { _ in work() }
            } else {
                work()
            }
            pending.wait()
            if case .mapped(let contents) = storage, contents.wasChanged { return nil }
            guard !stopped.load(ordering: .relaxed) else { return nil }
            return results.withLock { found in found.contains { $0 == nil } ? nil : found.map { $0! } }
        }

        /// The no-change check's answer: the site's totals (the marker file not counted) when every file is the one
        /// its line describes; `nil` otherwise.
        func unchangedSite(
            lanes: Int
        ) -> (pages: Int, files: Int, bytes: Int, sitemap: Bool, lint: (findings: Int, summary: String)?)? {
            guard let found = finish(lanes: lanes), found.allSatisfy({ $0.changed.isEmpty }) else { return nil }
            let files = found.reduce(0) { $0 + $1.files }
            let bytes = found.reduce(0) { $0 + $1.bytes }
            return (pages, files, bytes, found.contains { $0.sitemap }, lint)
        }

        /// An edit's answer: the files that are not what their line describes, with that line's entry; `nil` when
        /// the manifest is malformed.
        func changedFiles() -> [(path: String, entry: Entry)]? {
            finish(lanes: 1)?.flatMap(\.changed)
        }
    }
}

extension SiteManifest {
    /// About `count` chunks of at least 16 KiB from `start`, each ending at a line's end.
    static func chunks(of bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int) -> [Range<Int>] {
        let size = max(1 << 14, (bytes.count - start) / max(1, count))
        var chunks: [Range<Int>] = []
        var start = start
        while start < bytes.count {
            var end = min(bytes.count, start + size)
            while end < bytes.count, bytes[end - 1] != UInt8(ascii: "\n") { end += 1 }
            chunks.append(start..<end)
            start = end
        }
        return chunks
    }
}
