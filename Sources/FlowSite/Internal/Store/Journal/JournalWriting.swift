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
        var file: SealedFile?
        var walkOffsets = 0
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
        guard let (file, offsets) = walk.finish(pages: pages) else {
            state.withLock { $0.failed = true }
            return
        }
        state.withLock { state in
            state.file = file
            state.walkOffsets = offsets
        }
    }

    /// In made order.
    func writeProducts(
        made: [BuildStep.BuiltPage],
        index: [(path: String, kind: Int32, content: StableHash)],
        entries: [SiteSearch<R>.Entry], journal: [(index: Int32, hasFiles: Bool, fellBack: Bool)]
    ) {
        state.withLock { state in
            guard !state.failed, let start = state.file?.count, made.count == index.count, made.count == journal.count
            else {
                state.failed = true
                return
            }
            var sections = [String?](repeating: nil, count: made.count)
            var hasEntry = [Bool](repeating: false, count: made.count)
            for entry in entries where sections.indices.contains(Int(entry.page)) {
                sections[Int(entry.page)] = entry.section
                hasEntry[Int(entry.page)] = true
            }
            state.products = start
            state.productOffsets.reserveCapacity(made.count)
            var out = ByteWriter()
            for position in made.indices {
                state.productOffsets.append(UInt64(state.file!.count))
                let page = made[position]
                JournalFile.Product(
                    index: journal[position].index, path: page.path, title: page.title, summary: page.summary,
                    isDialog: page.isDialog,
                    hasEntry: hasEntry[position], section: sections[position], content: index[position].content,
                    kind: index[position].kind,
                    hasFiles: journal[position].hasFiles, fellBack: journal[position].fellBack
                ).encode(into: &out)
                state.file!.append(&out)
            }
        }
    }

    /// After the commit: writes the rest and puts the journal in place. The files section (the language's files
    /// but the marker) grows with the site, so it is written a block at a time, never held whole.
    /// `files` calls its body with each file the build wrote and its fingerprint (the staging's table).
    func install(
        files forEachFile: ((String, StableHash) -> Void) -> Void, kinds: [String], edges: Int, links: Int
    ) {
        let progress = state.withLock { state in
            defer { state.file = nil }
            return state
        }
        guard !progress.failed, var file = progress.file else {
            var file = progress.file
            file?.discard()
            return
        }
        let offsetsStart = file.count
        var out = ByteWriter()
        for offset in progress.productOffsets { out.u64(offset) }
        file.append(&out)
        let filesStart = file.count
        var count: UInt32 = 0
        let folder = folder
        func kept(_ path: String) -> Bool { path != SiteLayout.marker && path.hasPrefix(folder) }
        forEachFile { path, _ in if kept(path) { count += 1 } }
        out.u32(count)
        forEachFile { path, fingerprint in
            guard kept(path) else { return }
            out.string(String(path.dropFirst(folder.count)))
            out.hash(fingerprint)
            if out.bytes.count >= 1 << 16 { file.append(&out) }
        }
        file.append(&out)
        let meta = JournalFile.Meta(
            buildKey: buildKey, manifestIdentity: [], pages: progress.productOffsets.count, edges: edges, links: links,
            walkOffsets: progress.walkOffsets,
            products: progress.products, productOffsets: offsetsStart, files: filesStart, kinds: 0, fingerprints: 0
        )
        JournalFile.install(&file, meta: meta, kinds: kinds, fingerprints: fingerprints, output: output, folder: folder)
    }

    /// A failed build keeps no journal.
    func discard() {
        var file = state.withLock { state in
            defer { state.file = nil }
            return state.file
        }
        file?.discard()
        walk.discard()
    }
}
