import FlowSiteUtilities
import Foundation

/// A run's journal (see ``BuildJournal``) while it is written, each part to the file as it is made.
final class JournalWriting<R: Route>: Sendable {
    let walk: WalkJournal<R>
    private let output: URL
    private let folder: String
    private let buildKey: StableHash
    private let fingerprints: InputFingerprints
    private let state = Locked(Progress())

    private struct Progress {
        var descriptor: Int32 = -1
        var walkOffsets = 0
        var written = 0
        var products = 0
        var productOffsets: [UInt64] = []
        var failed = false
    }

    /// `nil` unless the builder keeps journals, has input fingerprints and storable routes.
    init?<C: RootCoordinator>(_ builder: SiteBuilder<C>, output: URL, folder: String, buildKey: StableHash)
    where C.R == R {
        guard builder.journalsEdits, let fingerprints = builder.inputFingerprints, R.self is any StorableRoute.Type
        else { return nil }
        let temporary = output.deletingLastPathComponent()
            .appendingPathComponent(
                SiteLayout.siblingName(of: output, role: SiteLayout.journalName(folder: folder), pid: getpid())
            ).path
        guard let walk = WalkJournal<R>(path: temporary, name: { ($0 as! any StorableRoute).storedName }) else {
            return nil
        }
        self.walk = walk
        self.output = output
        self.folder = folder
        self.buildKey = buildKey
        self.fingerprints = fingerprints
    }

    func walked(pages: Int) {
        guard let (descriptor, offsets, end) = walk.finish(pages: pages) else {
            state.withLock { $0.failed = true }
            return
        }
        state.withLock { state in
            state.descriptor = descriptor
            state.walkOffsets = Int(offsets)
            state.written = Int(end)
        }
    }

    /// In made order.
    func writeProducts(
        made: [(path: String, title: String, summary: String?, isDialog: Bool)],
        index: [(path: String, kind: Int32, content: StableHash)],
        entries: [SiteSearch<R>.Entry], journal: [(index: Int32, hasFiles: Bool, fellBack: Bool)]
    ) {
        state.withLock { state in
            guard !state.failed, state.descriptor >= 0, made.count == index.count, made.count == journal.count else {
                state.failed = true
                return
            }
            var sections = [String?](repeating: nil, count: made.count)
            var hasEntry = [Bool](repeating: false, count: made.count)
            for entry in entries where sections.indices.contains(Int(entry.page)) {
                sections[Int(entry.page)] = entry.section
                hasEntry[Int(entry.page)] = true
            }
            state.products = state.written
            state.productOffsets.reserveCapacity(made.count)
            var out = ByteWriter()
            for position in made.indices {
                state.productOffsets.append(UInt64(state.written + out.bytes.count))
                let page = made[position]
                JournalFile.Product(
                    index: journal[position].index, path: page.path, title: page.title, summary: page.summary,
                    isDialog: page.isDialog,
                    hasEntry: hasEntry[position], section: sections[position], content: index[position].content,
                    kind: index[position].kind,
                    hasFiles: journal[position].hasFiles, fellBack: journal[position].fellBack
                ).encode(into: &out)
                if out.bytes.count >= 1 << 20 { Self.flush(&out, &state) }
            }
            Self.flush(&out, &state)
        }
    }

    private static func flush(_ out: inout ByteWriter, _ state: inout Progress) {
        if !out.bytes.withUnsafeBytes({ writeAll(state.descriptor, $0) }) { state.failed = true }
        state.written += out.bytes.count
        out.bytes.removeAll(keepingCapacity: true)
    }

    /// After the commit: writes the rest and puts the journal in place. The files section (the language's files
    /// but the marker) grows with the site, so it is written a block at a time, never held whole.
    /// `files` calls its body with each file the build wrote and its fingerprint (the staging's table).
    func install(
        files forEachFile: ((String, StableHash) -> Void) -> Void, kinds: [String], edges: Int, links: Int
    ) {
        var progress = state.withLock { state in
            defer { state.descriptor = -1 }
            return state
        }
        guard !progress.failed, progress.descriptor >= 0 else {
            if progress.descriptor >= 0 { close(progress.descriptor) }
            unlink(walk.path)
            return
        }
        let offsetsStart = progress.written
        let filesStart = offsetsStart + progress.productOffsets.count * 8
        var count: UInt32 = 0
        let folder = folder
        func kept(_ path: String) -> Bool { path != SiteLayout.marker && path.hasPrefix(folder) }
        forEachFile { path, _ in if kept(path) { count += 1 } }
        var out = ByteWriter()
        out.u32(count)
        var written = 0
        var failed = false
        var offsets = ByteWriter()
        for offset in progress.productOffsets { offsets.u64(offset) }
        failed = !offsets.bytes.withUnsafeBytes { writeAll(progress.descriptor, $0) }
        forEachFile { path, fingerprint in
            guard kept(path), !failed else { return }
            out.string(String(path.dropFirst(folder.count)))
            out.hash(fingerprint)
            if out.bytes.count >= 1 << 20 {
                failed = !out.bytes.withUnsafeBytes { writeAll(progress.descriptor, $0) }
                written += out.bytes.count
                out.bytes.removeAll(keepingCapacity: true)
            }
        }
        failed = failed || !out.bytes.withUnsafeBytes { writeAll(progress.descriptor, $0) }
        written += out.bytes.count
        guard !failed else {
            close(progress.descriptor)
            unlink(walk.path)
            return
        }
        progress.written = filesStart + written
        let fingerprints = fingerprints
        let meta = JournalFile.Meta(
            buildKey: buildKey, manifestIdentity: [], pages: progress.productOffsets.count, edges: edges, links: links,
            walkOffsets: progress.walkOffsets,
            products: progress.products, productOffsets: offsetsStart, files: filesStart, kinds: 0, fingerprints: 0
        )
        JournalFile.install(
            walk.path, descriptor: progress.descriptor,
            tail: { start, manifestIdentity in
                var meta = meta
                meta.manifestIdentity = manifestIdentity
                return JournalFile.tail(start: start, meta: meta, kinds: kinds, fingerprints: fingerprints)
            }, start: progress.written, output: output, folder: folder)
    }

    /// A failed build keeps no journal.
    func discard() {
        let descriptor = state.withLock { state in
            defer { state.descriptor = -1 }
            return state.descriptor
        }
        if descriptor >= 0 { close(descriptor) }
        walk.discard()
    }
}
