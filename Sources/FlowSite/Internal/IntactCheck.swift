import Foundation
import Synchronization

extension SiteManifest {
    /// The no-change check: whether every file the manifest lists is still the one its line describes. Threads take
    /// chunks of lines in turn; the first changed file stops them all.
    final class IntactCheck: @unchecked Sendable {
        // Only the atomics and the tally are written after `init`; `contents` and `folder` are its own.
        private let contents: FileContents
        private var bytes: UnsafeBufferPointer<UInt8> { contents.bytes.assumingMemoryBound(to: UInt8.self) }
        private let folder: Int32
        /// The header's `inputs` value.
        private let inputs: Range<Int>?
        let pages: Int
        let lint: (findings: Int, summary: String)?
        private let chunks: [Range<Int>]
        private let next = Atomic<Int>(0)
        /// Set by a changed or missing file, a malformed line, or ``stop()``.
        private let stopped = Atomic<Bool>(false)
        private let tally = Locked((files: 0, bytes: 0, sitemap: false))

        /// `nil` when `folder` has no manifest.
        init?(in folder: Int32, chunks count: Int = 64) {
            let file = openat(folder, SiteWriter.manifestName, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard file >= 0 else { return nil }
            defer { close(file) }
            guard let contents = FileContents.map(file) else { return nil }
            let bytes = contents.bytes.assumingMemoryBound(to: UInt8.self)
            var start = 0
            var sawManifest = false
            var inputs: Range<Int>?
            var pages = 0
            var lint: (findings: Int, summary: String)?
            while start < bytes.count,
                !(bytes[start] == UInt8(ascii: "f") && start + 1 < bytes.count && bytes[start + 1] == UInt8(ascii: " "))
            {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
                let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                if line.elementsEqual("manifest 1".utf8) {
                    sawManifest = true
                } else if line.starts(with: "inputs ".utf8) {
                    inputs = (start + 7)..<end
                } else if line.starts(with: "pages ".utf8) {
                    var reader = FieldReader(line: line, at: 6)
                    pages = reader.integer(last: true) ?? 0
                } else if line.starts(with: "lint ".utf8) {
                    lint = SiteManifest.lint(line)
                }
                start = end + 1
            }
            let own = dup(folder)
            guard sawManifest, own >= 0 else {
                if own >= 0 { close(own) }
                contents.release()
                return nil
            }
            let chunks = SiteManifest.chunks(of: bytes, from: start, count: count, minimum: 1 << 14)
            self.contents = contents
            self.folder = own
            self.inputs = inputs
            self.pages = pages
            self.lint = lint
            self.chunks = chunks
        }

        deinit {
            close(folder)
            contents.release()
        }

        func isMade(from inputs: String) -> Bool {
            guard let range = self.inputs else { return false }
            return UnsafeBufferPointer(rebasing: bytes[range]).elementsEqual(inputs.utf8)
        }

        /// Stops every thread at its next file: the answer is no longer wanted.
        func stop() { stopped.store(true, ordering: .relaxed) }

        private static func equal(_ name: UnsafeBufferPointer<UInt8>, _ other: [UInt8]) -> Bool {
            name.count == other.count
                && other.withUnsafeBytes { memcmp(name.baseAddress!, $0.baseAddress!, name.count) == 0 }
        }

        func work() {
            let marker = Array(SiteWriter.markerName.utf8)
            let sitemapName = Array("sitemap.xml".utf8)
            while !stopped.load(ordering: .relaxed) {
                let index = next.add(1, ordering: .relaxed).oldValue
                guard index < chunks.count else { return }
                var (count, size, sitemap) = (0, 0, false)
                var lookup = SectionLookup(site: folder)
                var start = chunks[index].lowerBound
                let limit = chunks[index].upperBound
                while start < limit {
                    let end =
                        memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\n")), limit - start)
                        .map { UnsafeRawPointer($0) - UnsafeRawPointer(bytes.baseAddress!) } ?? limit
                    let line = UnsafeBufferPointer(rebasing: bytes[start..<end])
                    start = end + 1
                    if line.isEmpty { continue }
                    guard !stopped.load(ordering: .relaxed), let (entry, name) = SiteManifest.entryAndPath(line),
                        lookup.holds(name, as: entry)
                    else {
                        stop()
                        return
                    }
                    if !Self.equal(name, marker) {
                        count += 1
                        size += entry.size
                    }
                    if Self.equal(name, sitemapName) { sitemap = true }
                }
                tally.withLock {
                    $0.files += count
                    $0.bytes += size
                    $0.sitemap = $0.sitemap || sitemap
                }
            }
        }

        /// The totals once every chunk is checked by `lanes` threads (this one among them); `nil` when a file
        /// changed, a line is malformed, the check was stopped, or the manifest changed while read.
        func result(
            lanes: Int
        ) -> (pages: Int, files: Int, bytes: Int, sitemap: Bool, lint: (findings: Int, summary: String)?)? {
            if lanes > 1 {
                DispatchQueue.concurrentPerform(iterations: lanes) { _ in work() }
            } else {
                work()
            }
            guard !stopped.load(ordering: .relaxed), !contents.wasChanged else { return nil }
            let tally = tally.withLock { $0 }
            return (pages, tally.files, tally.bytes, tally.sitemap, lint)
        }
    }
}

extension SiteManifest {
    /// About `count` chunks of at least `minimum` bytes from `start`, each ending at a line's end.
    static func chunks(of bytes: UnsafeBufferPointer<UInt8>, from start: Int, count: Int, minimum: Int) -> [Range<Int>]
    {
        let size = max(minimum, (bytes.count - start) / max(1, count))
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
