import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension SiteBuilder {
    /// Builds an edit from the live site's journal (see ``journalsEdits``): the pages that read
    /// an input whose fingerprint changed are made again in the place the journal gives them;
    /// when every one of them leads where it led (the same title and links), no other page
    /// moves, and the new site is the spare generation brought up to date: every other file is
    /// the live site's (checked intact, as a full build checks it), the pages whose content
    /// changed are written, and the search index and page index when what they say of those
    /// pages changed. It is swapped in like any build, and the journal is written for the next.
    ///
    /// `nil` when the journal can't tell (none, another site's, other templates or options, a
    /// page that moved, a file changed by hand): then the caller builds as usual, and nothing
    /// was written.
    func buildFromJournal(into output: URL, plan: BuildPlan<C.R>, started: ContinuousClock.Instant) async throws -> BuildReport? {
        guard journalsEdits, otherLanguages.isEmpty, let fingerprints = inputFingerprints,
            let storable = C.R.self as? any StorableRoute.Type
        else { return nil }
        let target = try SiteWriter(output: output, force: force).guardedOutput()
        let phases = PhaseClock()
        let ahead = readAhead.flatMap { $0.isFor(target) ? $0 : nil }
        let key = journalKey(plan)
        let loaded = phases.measure(.viewModels) { ahead?.journal() ?? StoredJournal.load(for: target, buildKey: key) }
        guard let journal = loaded, journal.buildKey == key else { return nil }
        func route(_ name: String) -> C.R? { storable.init(storedName: name) as? C.R }

        // The pages an edit reaches, each where it stood.
        let changed = fingerprints.changes(since: journal.fingerprints)
        let touched = try phases.measure(.viewModels) { try journal.pages(reading: changed) }
        guard touched.count <= Self.patchLimit(pages: journal.pages) else { return nil }
        var remakes: [Remake] = []
        for index in touched {
            let record = try journal.walkRecord(index)
            guard let page = route(record.name) else { return nil }
            func crumb(_ step: Int32) throws -> Breadcrumb<C.R>? {
                let record = try journal.walkRecord(Int(step))
                return route(record.name).map { Breadcrumb(title: record.title, route: $0) }
            }
            var trail: [Breadcrumb<C.R>] = []
            for step in record.context.trail {
                guard let crumb = try crumb(step) else { return nil }
                trail.append(crumb)
            }
            var presenter: Breadcrumb<C.R>?
            if record.context.presenter >= 0 {
                guard let crumb = try crumb(record.context.presenter) else { return nil }
                presenter = crumb
            }
            let position = Int(journal.madeOf[index])
            let (product, _) = try journal.product(at: position)
            guard !product.hasFiles else { return nil }
            remakes.append(Remake(index: index, position: position, route: page, record: record, trail: trail, presenter: presenter, product: product))
        }

        // Made again, each leading where it led; each page's HTML only when what it says changed.
        let paths = remakes.isEmpty ? [:] : try journal.pathTable()
        guard let remade = try await remake(remakes, journal: journal, paths: paths, renderer: plan.renderer, phases: phases) else { return nil }

        // What changes in the site besides those pages' own files.
        var replaced: [String: (fingerprint: StableHash, bytes: [UInt8]?)] = [:]
        var contentChanged = false
        var searchChanged = false
        for (remake, page) in zip(remakes, remade) {
            var fingerprint = plan.buildKey
            fingerprint.combine(page.product.content)
            if let html = page.html {
                replaced[page.product.path] = (fingerprint, html)
                contentChanged = true
            }
            let (old, new) = (remake.product, page.product)
            if old.title != new.title || old.summary != new.summary || old.isDialog != new.isDialog || old.hasEntry != new.hasEntry
                || old.section != new.section
            {
                searchChanged = true
            }
        }
        let search = coordinator.search
        if let search, searchChanged {
            let bytes = try phases.measure(.steps) { try searchIndex(journal, remade: zip(remakes, remade).map { ($0.position, $1.product) }, search: search) }
            replaced[search.indexPath] = (StableHash(of: bytes), bytes)
        }
        if contentChanged {
            // Read and copied once, into the bytes patched: the index grows with the site,
            // and this runs on the edit's one busy core.
            let contents = Dictionary(remade.map { ($0.product.path, $0.product.content) }, uniquingKeysWith: { $1 })
            guard let bytes = FileContents.withBytes(of: target.appendingPathComponent(PageIndex.fileName).path, { Self.patchedPageIndex(Array($0), contents: contents) })
            else { return nil }
            replaced[PageIndex.fileName] = (StableHash(of: bytes), bytes)
        }
        // Links to site files from the pages made again must lead to files the site has, and
        // the journal's fingerprint of each file written is written over. (Few pages link site
        // files, and an edit writes a few files: the journal's list is searched for those.)
        let linkedFiles = Set(remade.flatMap(\.siteFiles))
        let listed = try journal.files(among: linkedFiles.union(replaced.keys))
        for page in remade {
            for link in page.siteFiles where listed[link] == nil {
                throw FlowSiteError(.brokenLinks([(page.product.path, link)]))
            }
        }
        guard replaced.keys.allSatisfy({ listed[$0] != nil }) else { return nil }

        // The new generation: the spare, made up to the live site, with the edit's files written.
        guard let staging = try SiteWriter(output: output, force: force).beginEditStaging(readAhead: ahead), let gap = staging.gap else { return nil }
        do {
            // A file whose new fingerprint is the live one's is the live file.
            replaced = replaced.filter { gap.liveEntry($0.key)?.fingerprint != $0.value.fingerprint }
            let intact = try phases.measure(.write) { () throws -> Bool in
                guard staging.catchUp(leaving: Set(replaced.keys)) else { return false }
                for (path, file) in replaced {
                    guard let bytes = file.bytes else { return false }
                    try staging.write(bytes, to: path, fingerprint: file.fingerprint)
                }
                return true
            }
            guard intact else {
                staging.discard()
                return nil
            }
            let lint = gap.lint
            let newHashes = replaced.compactMap { path, file in listed[path].map { ($0.hashAt, file.fingerprint) } }
            // The journal is patched in place once the site is committed, when it can be
            // (``patchJournal``). Otherwise the next journal is written whole on another core
            // while the site is committed (its manifest written, the folders swapped); only its
            // last bytes, which name the new manifest, wait for the commit.
            let patches = Self.mayPatch(journal, fingerprints: fingerprints)
            let committed = DispatchSemaphore(value: 0)
            let commitSucceeded = Atomic<Bool>(false)
            let journalWritten = DispatchGroup()
            let output = staging.output
            let made = remakes
            if !patches {
                journalWritten.enter()
                DispatchQueue.global().async {
                    defer { journalWritten.leave() }
                    Self.rewriteJournal(journal, remakes: made, remade: remade, replaced: newHashes, fingerprints: fingerprints, output: output) {
                        committed.wait()
                        return commitSucceeded.load(ordering: .acquiring)
                    }
                }
            }
            do {
                try beforeCommit(staging)
                try phases.measure(.swap) { try staging.commit(inputs: inputs, pages: journal.pages, lint: lint) }
                commitSucceeded.store(true, ordering: .releasing)
                committed.signal()
            } catch {
                committed.signal()
                journalWritten.wait()
                throw error
            }
            phases.measure(.swap) {
                journalWritten.wait()
                if patches, !Self.patchJournal(journal, remakes: made, remade: remade, replaced: newHashes, fingerprints: fingerprints, output: output) {
                    Self.rewriteJournal(journal, remakes: made, remade: remade, replaced: newHashes, fingerprints: fingerprints, output: output)
                }
            }
            // Every file but those written is the live site's.
            let written = staging.files
            let bytes = gap.byteCount + written.reduce(0) { total, file in total + file.value - (gap.liveEntry(file.key)?.size ?? 0) }
            var report = BuildReport(
                pages: journal.pages, rendered: remade.count(where: { $0.html != nil }), edges: journal.meta.edges, links: journal.meta.links,
                files: gap.fileCount, bytes: bytes, unchangedFiles: gap.fileCount - written.count, warnings: [],
                duration: ContinuousClock.now - started, timings: phases.seconds, sitemap: baseURL != nil
            )
            report.recordedFlowLint = lint.map { ($0.findings, $0.summary) }
            report.replayed = journal.pages - remade.count
            return report
        } catch {
            staging.discard()
            throw error
        }
    }

    /// What a journal must have been written with to be used: the build key, the assets (which
    /// an edit built from the journal does not write), and what flow lint decided with (an edit
    /// built from the journal keeps the last build's findings, which only the walk's graph and
    /// these decide).
    func journalKey(_ plan: BuildPlan<C.R>) -> StableHash {
        var key = plan.buildKey
        for (name, data) in templates.assets.sorted(by: { $0.key < $1.key }) {
            key.combine(name)
            data.withUnsafeBytes { key.combine($0) }
        }
        key.combine(strictFlowLint ? 1 : 0)
        key.combine(flowMap ? 1 : 0)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        key.combine(Array((try? encoder.encode(plan.lint)) ?? Data()))
        return key
    }

    /// A page the journal says read a changed input, and where it stood.
    struct Remake: Sendable {
        let index: Int
        let position: Int
        let route: C.R
        let record: StoredJournal.WalkRecord
        let trail: [Breadcrumb<C.R>]
        let presenter: Breadcrumb<C.R>?
        let product: JournalFile.Product
    }

    /// A page made again: what the walk took of it, what it left, and its HTML when its content
    /// changed.
    struct Remade: Sendable {
        var outcome: WalkOutcome<C.R>
        var product: JournalFile.Product
        var html: [UInt8]?
        var siteFiles: [String]
    }

    /// Makes the pages of `remakes` again, a few at a time; `nil` when one failed, wrote
    /// files of its own (a full build says why, or writes them) or leads elsewhere than it led
    /// (its links' pages, found in `journal` by `paths`, are not the ones it recorded).
    private func remake(
        _ remakes: [Remake], journal: StoredJournal, paths: [UInt64: Int32], renderer: PageRenderer<C.R>, phases: PhaseClock
    ) async throws -> [Remade]? {
        var making = SiteWalker(coordinator: coordinator, concurrency: concurrency, keepsEdges: false)
        making.phases = phases
        making.recordsInputs = true
        let walker = making
        let search = coordinator.search
        let results = try await withThrowingTaskGroup(of: (Int, Remade?).self) { group in
            var results = [Remade?](repeating: nil, count: remakes.count)
            var next = 0
            func start() {
                let (offset, remake) = (next, remakes[next])
                group.addTask {
                    let left = Mutex<(product: JournalFile.Product, html: [UInt8]?, siteFiles: [String])?>(nil)
                    let context = remake.record.context
                    let outcome = await walker.makePage(
                        remake.route, trail: remake.trail, presentation: context.presentation, presenter: remake.presenter,
                        depth: context.depth, kind: context.kind, discovered: 0, index: remake.index
                    ) { visit in
                        guard visit.page.files.isEmpty else { return }
                        var siteFiles: [String] = []
                        let markdown = phases.measure(.markdown) {
                            renderer.markdown(of: visit.page.document, at: visit.route.path) { siteFiles.append($0) }
                        }
                        let content = Self.contentFingerprint(of: visit, markdown: markdown)
                        let html = content == remake.product.content ? nil : try renderer.render(visit, markdown: markdown, phases: phases)
                        let entry = search?.entry(for: visit.route, page: visit.page)
                        var product = remake.product
                        product.title = visit.page.title
                        product.summary = visit.page.summary
                        product.isDialog = visit.presentation == .modal
                        product.hasEntry = entry != nil
                        product.section = entry?.section
                        product.content = content
                        left.withLock { $0 = (product, html, siteFiles) }
                    }
                    guard outcome.error == nil, outcome.failure == nil, outcome.recovered == nil,
                        let (product, html, siteFiles) = left.withLock({ $0 })
                    else { return (offset, nil) }
                    // Where its links lead, as the journal numbers pages (an edited film page has
                    // thousands of links: looked up here, on the task's own core).
                    var targets: [Int32] = []
                    targets.reserveCapacity(outcome.targets.count)
                    for target in outcome.targets {
                        guard let index = try journal.index(ofPath: target.path.file, in: paths) else { return (offset, nil) }
                        targets.append(index)
                    }
                    guard outcome.leadsFingerprint(targets: targets) == remake.record.leads else { return (offset, nil) }
                    return (offset, Remade(outcome: outcome, product: product, html: html, siteFiles: siteFiles))
                }
                next += 1
            }
            while next < min(remakes.count, concurrency) { start() }
            while let (offset, remade) = try await group.next() {
                results[offset] = remade
                if next < remakes.count { start() }
            }
            return results
        }
        var remade: [Remade] = []
        for result in results {
            guard let result else { return nil }
            remade.append(result)
        }
        return remade
    }

    /// The search index of the journal's pages, with those of `remade` (by made position) as
    /// they are now.
    private func searchIndex(_ journal: StoredJournal, remade: [(position: Int, product: JournalFile.Product)], search: SiteSearch<C.R>) throws -> [UInt8] {
        let now = Dictionary(remade.map { ($0.position, $0.product) }, uniquingKeysWith: { $1 })
        var pages: [(path: String, title: String, summary: String?, isDialog: Bool)] = []
        var entries: [SiteSearch<C.R>.Entry] = []
        pages.reserveCapacity(journal.pages)
        for position in 0..<journal.pages {
            let product = try now[position] ?? journal.product(at: position).product
            pages.append((product.path, product.title, product.summary, product.isDialog))
            if product.hasEntry { entries.append(SiteSearch<C.R>.Entry(page: Int32(position), section: product.section, title: product.title)) }
        }
        return SiteSearch<C.R>.json(entries, pages: pages, summaries: search.summaries)
    }

    /// The page index `bytes` with the content fingerprints of `contents` (by path) written
    /// over; `nil` when a page is missing from it. Lines are found with `memchr`, and a line is
    /// a page's when it ends with a space and the page's path, the space being its second:
    /// `<content> <kind> <path>` (an edit changes a few pages of tens of thousands).
    static func patchedPageIndex(_ bytes: consuming [UInt8], contents: [String: StableHash]) -> [UInt8]? {
        var bytes = bytes
        let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
        let wanted: [(tail: [UInt8], hex: [UInt8])] = contents.map { path, content in
            var hex: [UInt8] = []
            content.appendHex(to: &hex)
            return ([space] + Array(path.utf8), hex)
        }
        var matched = [Bool](repeating: false, count: wanted.count)
        let count = bytes.count
        bytes.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var lineStart = 0
            while lineStart < count {
                let lineEnd = memchr(base + lineStart, Int32(newline), count - lineStart).map { $0.assumingMemoryBound(to: UInt8.self) - base } ?? count
                defer { lineStart = lineEnd + 1 }
                guard lineEnd - lineStart > 34, buffer[lineStart + 32] == space else { continue }
                for (number, page) in wanted.enumerated() where lineEnd - lineStart > 33 + page.tail.count {
                    let at = lineEnd - page.tail.count
                    guard memcmp(base + at, page.tail, page.tail.count) == 0,
                        buffer[(lineStart + 33)..<lineEnd].firstIndex(of: space) == at
                    else { continue }
                    for (offset, digit) in page.hex.enumerated() { buffer[lineStart + offset] = digit }
                    matched[number] = true
                }
            }
        }
        return matched.allSatisfy { $0 } ? bytes : nil
    }

    /// Writes the journal of the site an edit made: the old one with the pages made again
    /// written anew (what they read may differ), the files' new fingerprints and the inputs'.
    /// `committed` waits for the new site's commit and says whether it succeeded: the journal's
    /// last bytes name the manifest it wrote.
    static func rewriteJournal(
        _ journal: StoredJournal, remakes: [Remake], remade: [Remade], replaced: [(hashAt: Int, fingerprint: StableHash)],
        fingerprints: InputFingerprints, output: URL, committed: () -> Bool = { true }
    ) {
        var byIndex: [Int: (record: StoredJournal.WalkRecord, outcome: WalkOutcome<C.R>)] = [:]
        var byPosition: [Int: JournalFile.Product] = [:]
        for (remake, page) in zip(remakes, remade) {
            byIndex[remake.index] = (remake.record, page.outcome)
            byPosition[remake.position] = page.product
        }
        let temporary = output.deletingLastPathComponent().appendingPathComponent(SiteWriter.siblingName(of: output, role: "journal", pid: getpid())).path
        guard SiteWriter.prepareSpareFolder(of: output) else { return }
        let descriptor = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        // Written as it is made, old runs straight from the old journal's bytes: the journal
        // grows with the site, and an edit need not hold it twice.
        var sink = JournalSink(descriptor: descriptor)
        let old = journal.raw
        var metaStart = 0
        let done: Bool = (try? { () throws -> Bool in
            // A section of records: the old ones copied a run at a time, the new ones encoded.
            // A record's bytes run to the next record's start when that follows it in the
            // section as written; a record an edit appended (or the one before it) is measured
            // by reading it (`recordEnd`). Adjacent old records are copied as one run.
            func section(
                offsets: Int, end: Int, recordEnd: (Int) throws -> Int, encode: (Int, inout JournalBytes) -> Bool
            ) throws -> [UInt64] {
                let starts = try journal.offsets(at: offsets)
                var written: [UInt64] = []
                written.reserveCapacity(journal.pages)
                var run = 0..<0
                func copyRun() {
                    guard !run.isEmpty else { return }
                    sink.write(UnsafeRawBufferPointer(rebasing: old[run]))
                    run = 0..<0
                }
                for index in 0..<journal.pages {
                    var fresh = JournalBytes()
                    if encode(index, &fresh) {
                        copyRun()
                        written.append(UInt64(sink.position))
                        sink.write(fresh.bytes)
                        continue
                    }
                    let start = starts[index]
                    let next = index + 1 < journal.pages ? starts[index + 1] : end
                    let stop = start < next && next <= end ? next : try recordEnd(start)
                    guard start >= 0, start < stop, stop <= old.count else { throw JournalCursor.Malformed() }
                    if run.isEmpty || run.upperBound != start {
                        copyRun()
                        run = start..<start
                    }
                    written.append(UInt64(sink.position + start - run.lowerBound))
                    run = run.lowerBound..<stop
                }
                copyRun()
                return written
            }
            func table(_ offsets: [UInt64]) {
                var out = JournalBytes()
                for offset in offsets { out.u64(offset) }
                sink.write(out.bytes)
            }
            var meta = journal.meta
            let walkOffsets = try section(offsets: meta.walkOffsets, end: meta.walkOffsets, recordEnd: journal.walkRecordEnd) { index, fresh in
                guard let (record, outcome) = byIndex[index] else { return false }
                WalkJournal<C.R>.encode(name: record.name, outcome: outcome, leads: record.leads, context: record.context, into: &fresh)
                return true
            }
            meta.walkOffsets = sink.position
            table(walkOffsets)
            let productsStart = sink.position
            let productOffsets = try section(offsets: meta.productOffsets, end: meta.productOffsets, recordEnd: journal.productEnd) { position, fresh in
                guard let product = byPosition[position] else { return false }
                product.encode(into: &fresh)
                return true
            }
            meta.products = productsStart
            meta.productOffsets = sink.position
            table(productOffsets)
            // The files section as it was, each replaced file's fingerprint written over.
            guard meta.files <= meta.kinds, meta.kinds <= old.count else { throw JournalCursor.Malformed() }
            let filesStart = sink.position
            var from = meta.files
            for (hashAt, fingerprint) in replaced.sorted(by: { $0.hashAt < $1.hashAt }) {
                guard hashAt >= from, hashAt + 16 <= meta.kinds else { throw JournalCursor.Malformed() }
                sink.write(UnsafeRawBufferPointer(rebasing: old[from..<hashAt]))
                var hash = JournalBytes()
                hash.hash(fingerprint)
                sink.write(hash.bytes)
                from = hashAt + 16
            }
            sink.write(UnsafeRawBufferPointer(rebasing: old[from..<meta.kinds]))
            meta.files = filesStart
            guard committed(), let stamp = BuildJournal.manifestStamp(of: output) else { throw JournalCursor.Malformed() }
            meta.stamp = stamp
            let tail = JournalFile.tail(start: sink.position, meta: meta, kinds: journal.kinds, fingerprints: fingerprints)
            metaStart = JournalFile.metaStart(ofTail: tail)
            sink.write(tail)
            return sink.finish()
        }()) ?? false
        guard done, JournalFile.trailer(blocks: sink.blocks.finish(), metaStart: metaStart).withUnsafeBytes({ JournalFile.writeAll(descriptor, $0) }),
            rename(temporary, BuildJournal.path(of: output)) == 0
        else {
            unlink(temporary)
            return
        }
    }
}

extension SiteBuilder {
    /// Whether an edit may patch `journal` in place (``patchJournal``): the app's inputs are
    /// the same keys (only their fingerprints change), and what earlier edits appended to the
    /// file is under an eighth of it; past that it is written whole again, without the records
    /// the edits left behind.
    static func mayPatch(_ journal: StoredJournal, fingerprints: InputFingerprints) -> Bool {
        var meta = JournalBytes()
        journal.meta.encode(into: &meta)
        let firstWritten = journal.metaStart + meta.bytes.count + 8 + (journal.blocks.count * 16 + JournalFile.trailerEnd)
        return fingerprints.keys == journal.fingerprints.keys && journal.raw.count - firstWritten <= journal.raw.count / 8
    }

    /// Patches the live site's journal in place after an edit's commit, instead of writing it
    /// whole again: each page made again gets its walk record and product appended and pointed
    /// at from the offset tables; the replaced files' fingerprints, the inputs' fingerprints
    /// and the meta block (the new manifest's identity) are written over; and a new trailer is
    /// appended, the checksums of blocks nothing was written into kept.
    ///
    /// Only the file `journal` was read from is patched. Until the trailer is written the file fails its checksums, so a
    /// patch cut short (a kill) leaves no journal to trust, never a wrong one. Whether it
    /// patched; when not, the caller writes the journal whole.
    static func patchJournal(
        _ journal: StoredJournal, remakes: [Remake], remade: [Remade], replaced: [(hashAt: Int, fingerprint: StableHash)],
        fingerprints: InputFingerprints, output: URL
    ) -> Bool {
        guard let stamp = BuildJournal.manifestStamp(of: output) else { return false }
        let descriptor = open(BuildJournal.path(of: output), O_RDWR | O_NOFOLLOW | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, UInt64(status.st_dev) == journal.identity.device, UInt64(status.st_ino) == journal.identity.inode,
            Int(status.st_size) == journal.raw.count
        else { return false }
        var dirty: Set<Int> = []
        func put(_ bytes: [UInt8], at offset: Int) -> Bool {
            guard !bytes.isEmpty else { return true }
            let done = bytes.withUnsafeBytes { JournalFile.writeAll(descriptor, $0, at: offset) }
            for block in offset / JournalFile.checksumBlock...(offset + bytes.count - 1) / JournalFile.checksumBlock { dirty.insert(block) }
            return done
        }
        func word(_ value: UInt64) -> [UInt8] {
            var out = JournalBytes()
            out.u64(value)
            return out.bytes
        }
        let meta = journal.meta
        // The pages' records, appended first in one write: from here until the trailer is
        // written, the file's end is no trailer. Then the offset-table entries that point at them.
        var appended = JournalBytes()
        var entries: [(at: Int, offset: Int)] = []
        for (remake, page) in zip(remakes, remade) {
            entries.append((meta.walkOffsets + remake.index * 8, journal.raw.count + appended.bytes.count))
            WalkJournal<C.R>.encode(name: remake.record.name, outcome: page.outcome, leads: remake.record.leads, context: remake.record.context, into: &appended)
            entries.append((meta.productOffsets + remake.position * 8, journal.raw.count + appended.bytes.count))
            page.product.encode(into: &appended)
        }
        guard put(appended.bytes, at: journal.raw.count) else { return false }
        for (at, offset) in entries {
            guard put(word(UInt64(offset)), at: at) else { return false }
        }
        let end = journal.raw.count + appended.bytes.count
        for (hashAt, fingerprint) in replaced {
            var hash = JournalBytes()
            hash.hash(fingerprint)
            guard put(hash.bytes, at: hashAt) else { return false }
        }
        let valuesAt = meta.fingerprints + 4 + fingerprints.count * 8
        let changed = fingerprints.values.indices.filter { fingerprints.values[$0] != journal.fingerprints.values[$0] }
        if changed.count > 1024 {
            var values = JournalBytes()
            for value in fingerprints.values { values.u64(value) }
            guard put(values.bytes, at: valuesAt) else { return false }
        } else {
            for index in changed {
                guard put(word(fingerprints.values[index]), at: valuesAt + index * 8) else { return false }
            }
        }
        var newMeta = meta
        newMeta.stamp = stamp
        var metaBytes = JournalBytes()
        newMeta.encode(into: &metaBytes)
        guard put(metaBytes.bytes, at: journal.metaStart) else { return false }
        // The blocks wholly before the old trailer that nothing was written into keep their
        // checksums; the others are read back.
        let kept = journal.trailerStart / JournalFile.checksumBlock
        var buffer = [UInt8](repeating: 0, count: JournalFile.checksumBlock)
        var blocks: [StableHash] = []
        for index in 0..<JournalFile.blockCount(end) {
            if index < kept, !dirty.contains(index) {
                blocks.append(journal.blocks[index])
                continue
            }
            guard let block = JournalFile.blockChecksum(of: descriptor, index: index, count: end, buffer: &buffer) else { return false }
            blocks.append(block)
        }
        return put(JournalFile.trailer(blocks: blocks, metaStart: journal.metaStart), at: end)
    }
}

/// Bytes going to a file in order, small pieces gathered and large ones written through.
struct JournalSink {
    let descriptor: Int32
    private(set) var position = 0
    /// The checksums of the blocks written, for the trailer.
    private(set) var blocks = JournalFile.BlockChecksums()
    private var buffer: [UInt8] = []
    private var failed = false

    init(descriptor: Int32) { self.descriptor = descriptor }

    mutating func write(_ bytes: [UInt8]) { bytes.withUnsafeBytes { write($0) } }

    mutating func write(_ bytes: UnsafeRawBufferPointer) {
        position += bytes.count
        blocks.add(bytes)
        if buffer.count + bytes.count < 1 << 16 {
            buffer.append(contentsOf: bytes)
            return
        }
        flush()
        if !JournalFile.writeAll(descriptor, bytes) { failed = true }
    }

    private mutating func flush() {
        if !buffer.isEmpty, !buffer.withUnsafeBytes({ JournalFile.writeAll(descriptor, $0) }) { failed = true }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes what is gathered; whether every write succeeded.
    mutating func finish() -> Bool {
        flush()
        return !failed
    }
}

extension StableHash {
    /// The hash of `bytes`: a file's fingerprint when nothing else decides its bytes.
    init(of bytes: [UInt8]) {
        self.init()
        combine(bytes)
    }

    /// The hash of `bytes` (a manifest's line or path, read in place).
    init(of bytes: UnsafeBufferPointer<UInt8>) {
        self.init()
        combine(UnsafeRawBufferPointer(bytes))
    }
}
