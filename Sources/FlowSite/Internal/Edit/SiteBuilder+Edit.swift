import FlowSiteUtilities
import Foundation

extension SiteBuilder {
    /// Builds an edit from each language's journal (see ``journalsEdits``): pages that read a changed input are
    /// made again where the journal places them. When each leads where it led, no other page moves: the spare is
    /// brought up to the live site, and the changed pages and indexes are written.
    ///
    /// `nil` when a journal can't tell (none, another site's, other options, a page that moved, a file changed
    /// by hand): then the caller builds as usual, and nothing was written.
    func buildFromJournal(
        into output: URL, languages: LanguagePlans,
        started: ContinuousClock.Instant
    ) async throws -> BuildReport? {
        guard journalsEdits, let fingerprints = inputFingerprints, C.R.self is any StorableRoute.Type else {
            return nil
        }
        let target = try SiteWriter(output: output, force: force).guardedOutput()
        let phases = PhaseClock()
        let ahead = readAhead.flatMap { $0.isFor(target) ? $0 : nil }
        var edits: [LanguageEdit] = []
        // In a full build's order, with the same plans: the languages that fall back first.
        let untranslated = try await inBuildOrder(languages) { _, one, plan, folder -> Set<String>? in
            let journal = phases.measure(.viewModels) { () -> StoredJournal? in
                let key = one.journalKey(plan)
                let loaded =
                    (folder.isEmpty ? ahead?.journal() : nil)
                    ?? StoredJournal.load(for: target, folder: folder, buildKey: key)
                return loaded?.buildKey == key && loaded?.isOutgrown == false ? loaded : nil
            }
            guard let journal else { return nil }
            let edit: LanguageEdit?
            do {
                edit = try await one.edit(
                    journal, fingerprints: fingerprints, plan: plan, target: target, phases: phases)
            } catch {
                // A journal patched since it was checked, or cut short, is no error of the site's: build in full.
                if journal.wasChanged || error is ByteReader.Malformed { return nil }
                throw error
            }
            guard let edit else { return nil }
            edits.append(edit)
            guard one.fallsBack else { return [] }
            // Other languages' pages depend on which of this one's fell back: a change means a full build.
            let before = try journal.pagesThatFellBack()
            var after = before
            for page in edit.remade where page.product.fellBack != before.contains(page.product.path) {
                if page.product.fellBack {
                    after.insert(page.product.path)
                } else {
                    after.remove(page.product.path)
                }
            }
            return after == before ? after : nil
        }
        guard let untranslated else { return nil }

        guard let staging = try SiteWriter(output: output, force: force).beginEditStaging(readAhead: ahead),
            let difference = staging.difference
        else { return nil }
        do {
            // A file whose new fingerprint is the live one's is the live file.
            var replaced: [String: (fingerprint: StableHash, bytes: [UInt8]?)] = [:]
            for edit in edits {
                for (path, file) in edit.replaced
                where difference.liveEntry(edit.journal.folder + path)?.fingerprint != file.fingerprint {
                    replaced[edit.journal.folder + path] = file
                }
            }
            let intact = try phases.measure(.write) { () throws -> Bool in
                guard staging.bringUpToDate(leaving: Set(replaced.keys)) else { return false }
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
            let lint = difference.lint
            let pages = edits.reduce(0) { $0 + $1.journal.pages }
            let committed = try commit(
                staging, pages: pages, lint: lint, phases: phases,
                stillHolds: {
                    // Journals were checked before the lock was taken: trust the edit only if each still describes
                    // the live site and was not written meanwhile; otherwise build in full.
                    let live = BuildJournal.manifestIdentity(of: target)
                    return edits.allSatisfy { $0.journal.manifestIdentity == live && !$0.journal.wasChanged }
                },
                journals: {
                    // Patched in place.
                    let output = staging.output
                    for edit in edits {
                        let journal = edit.journal
                        let newHashes = edit.replaced.compactMap { path, file in
                            replaced[journal.folder + path] == nil
                                ? nil : edit.listed[path].map { ($0.hashAt, file.fingerprint) }
                        }
                        _ = Self.patchJournal(
                            journal, remakes: edit.remakes, remade: edit.remade, replaced: newHashes,
                            fingerprints: fingerprints, output: output)
                    }
                })
            guard committed else {
                staging.discard()
                return nil
            }
            // Every file but those written is the live site's.
            let written = staging.files
            let bytes =
                difference.byteCount
                + written.reduce(0) { total, file in total + file.value - (difference.liveEntry(file.key)?.size ?? 0) }
            let remade = edits.flatMap { $0.remade }
            var report = BuildReport(
                pages: pages, rendered: remade.count(where: { $0.html != nil }),
                edges: edits.reduce(0) { $0 + $1.journal.meta.edges },
                links: edits.reduce(0) { $0 + $1.journal.meta.links },
                files: difference.fileCount, bytes: bytes, unchangedFiles: difference.fileCount - written.count,
                warnings: [],
                duration: ContinuousClock.now - started, timings: phases.seconds, sitemap: baseURL != nil
            )
            report.recordedFlowLint = lint.map { .init(findings: $0.findings, line: $0.summary) }
            report.replayed = pages - remade.count
            report.languages = Self.fallbacks(in: languages, untranslated: untranslated)
            return report
        } catch {
            staging.discard()
            throw error
        }
    }

    /// Whether each journey the last full build took (its flow record's) still holds over the pages made again:
    /// an edit keeps the record and the journeys' pages. A page made again leads where it led, with its title (or
    /// the edit falls back), so only a step's link text can have changed: each step from such a page must still
    /// find its link, and a broken journey whose last page now has the link text it looks for is taken anew by a
    /// full build.
    private func journeysHold(_ remade: [Remade], in folder: URL) -> Bool {
        guard !coordinator.journeys.isEmpty, !remade.isEmpty else { return true }
        let url = folder.appendingPathComponent(SiteLayout.flowRecord)
        guard let data = try? Data(contentsOf: url), let record = try? FlowRecord(json: data, source: url.path) else {
            return false
        }
        let pages = Dictionary(remade.map { ($0.product.path, $0.outcome) }, uniquingKeysWith: { first, _ in first })
        for journey in record.journeys ?? [] where journey.source == JourneyRecord.declared {
            // A broken journey may hold again once its page has the link text it looks for.
            if journey.brokenAtStep != nil, let wanted = journey.wanted, let last = journey.pages.last,
                pages[RoutePath(parsing: last).file]?.labels.contains(wanted) == true
            {
                return false
            }
            for (step, taken) in journey.steps.enumerated() where taken.tab != true {
                guard let outcome = pages[RoutePath(parsing: journey.pages[step]).file] else { continue }
                let next = journey.pages[step + 1]
                let found = outcome.labels.indices.contains { link in
                    outcome.labels[link] == taken.label && outcome.path(ofTarget: link).description == next
                }
                if !found { return false }
            }
        }
        return true
    }

    /// What an edit changes in one language: the pages made again, and the files to write (by path in its folder).
    struct LanguageEdit {
        let journal: StoredJournal
        let remakes: [Remake]
        let remade: [Remade]
        let replaced: [String: (fingerprint: StableHash, bytes: [UInt8]?)]
        let listed: [String: (fingerprint: StableHash, hashAt: Int)]
    }

    /// Remakes this language's pages that read a changed input, with its search and page index; `nil` when a page
    /// can't be made again without a walk.
    /// - Throws: ``FlowSiteError`` for a page made again that links a file the site lacks.
    private func edit(
        _ journal: StoredJournal, fingerprints: InputFingerprints, plan: BuildPlan<C.R>, target: URL, phases: PhaseClock
    ) async throws -> LanguageEdit? {
        guard let storable = C.R.self as? any StorableRoute.Type else { return nil }
        func route(_ name: String) -> C.R? { storable.init(storedName: name) as? C.R }

        let changed = fingerprints.changes(since: journal.fingerprints)
        let touched = try phases.measure(.viewModels) { try journal.pages(reading: changed) }
        guard touched.count <= Self.patchLimit(pages: journal.pages) else { return nil }
        var remakes: [Remake] = []
        for index in touched {
            let record = try journal.walkRecord(index)
            guard let page = route(record.name) else { return nil }
            func crumb(_ step: Int32) throws -> Breadcrumb<C.R>? {
                let record = try journal.walkRecord(Int(step))
                return route(record.name).map {
                    Breadcrumb(title: record.title, route: $0, isDialogCopy: record.context.isDialogCopy)
                }
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
            let position = Int(journal.madePosition[index])
            let (product, _) = try journal.product(at: position)
            guard !product.hasFiles else { return nil }
            remakes.append(
                Remake(
                    index: index, position: position, route: page, record: record, trail: trail, presenter: presenter,
                    product: product))
        }

        // HTML only for pages whose content changed.
        let paths = remakes.isEmpty ? [:] : try journal.pathTable()
        guard
            let remade = try await remake(
                remakes, journal: journal, paths: paths, renderer: plan.renderer, buildKey: plan.buildKey,
                phases: phases)
        else { return nil }

        guard journeysHold(remade, in: target.appendingPathComponent(journal.folder)) else { return nil }

        var replaced: [String: (fingerprint: StableHash, bytes: [UInt8]?)] = [:]
        var contentChanged = false
        var searchChanged = false
        let start = coordinator.startRoute.path
        for (remake, page) in zip(remakes, remade) {
            if let html = page.html {
                replaced[page.product.path] = (page.fingerprint, html)
                contentChanged = true
            }
            let (old, new) = (remake.product, page.product)
            // The front page that leads to a start route elsewhere names its title: a full build writes it again.
            if old.title != new.title, !start.slugs.isEmpty, new.path == start.file { return nil }
            if old.title != new.title || old.summary != new.summary || old.isDialog != new.isDialog
                || old.hasEntry != new.hasEntry
                || old.section != new.section
            {
                searchChanged = true
            }
        }
        if let search = coordinator.search, searchChanged {
            let bytes = try phases.measure(.steps) {
                try searchIndex(journal, remade: zip(remakes, remade).map { ($0.position, $1.product) }, search: search)
            }
            replaced[search.indexPath] = (StableHash(of: bytes), bytes)
        }
        if contentChanged {
            // Read and copied once, into the bytes patched: the index grows with the site.
            let contents = Dictionary(remade.map { ($0.product.path, $0.product.content) }, uniquingKeysWith: { $1 })
            let file = target.appendingPathComponent(journal.folder + SiteLayout.pageIndex).path
            guard let bytes = FileContents.withBytes(of: file, { PageIndex.patched(Array($0), contents: contents) })
            else { return nil }
            replaced[SiteLayout.pageIndex] = (StableHash(of: bytes), bytes)
        }
        // Site-file links must lead to files the site has; the journal's list is searched only for those few.
        let linkedFiles = Set(remade.flatMap { $0.siteFiles })
        let listed = try journal.files(among: linkedFiles.union(replaced.keys))
        for page in remade {
            for link in page.siteFiles where listed[link] == nil {
                throw FlowSiteError(.brokenLinks([(journal.folder + page.product.path, journal.folder + link)]))
            }
        }
        guard replaced.keys.allSatisfy({ listed[$0] != nil }) else { return nil }
        return LanguageEdit(journal: journal, remakes: remakes, remade: remade, replaced: replaced, listed: listed)
    }

    /// What a journal must have been written with: the build key, the assets (an edit does not write them), and
    /// flow lint's settings (an edit keeps the last build's findings).
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
        // The coverage decides the flow map's pages and lint's counts.
        for transition in (flowCoverage?.transitions ?? []).sorted() { key.combine(transition.description) }
        key.combine(flowCoverage == nil ? "-" : "coverage")
        return key
    }

    struct Remake: Sendable {
        let index: Int
        let position: Int
        let route: C.R
        let record: StoredJournal.WalkRecord
        let trail: [Breadcrumb<C.R>]
        let presenter: Breadcrumb<C.R>?
        let product: JournalFile.Product
    }

    /// A page made again; `html` only when its content changed.
    struct Remade: Sendable {
        var outcome: WalkOutcome<C.R>
        var product: JournalFile.Product
        /// Its file's.
        var fingerprint: StableHash
        var html: [UInt8]?
        var siteFiles: [String]
    }

    /// Makes `remakes` again, a few at a time; `nil` when one failed, wrote files of its own or leads elsewhere
    /// than it led.
    private func remake(
        _ remakes: [Remake], journal: StoredJournal, paths: [UInt64: Int32], renderer: PageRenderer<C.R>,
        buildKey: StableHash, phases: PhaseClock
    ) async throws -> [Remade]? {
        // With journeys, the pages' link texts too, which ``journeysHold(_:in:)`` looks up.
        var making = SiteWalker(
            coordinator: coordinator, concurrency: concurrency, keepsEdges: !coordinator.journeys.isEmpty)
        making.phases = phases
        making.recordsInputs = true
        let walker = making
        let step = PageStep(renderer: renderer, phases: phases, buildKey: buildKey, search: coordinator.search)
        let results = try await withThrowingTaskGroup(of: (Int, Remade?).self) { group in
            var results = [Remade?](repeating: nil, count: remakes.count)
            var next = 0
            func start() {
                let (offset, remake) = (next, remakes[next])
                group.addTask {
                    let left = Locked<(made: PageStep<C.R>.Made, product: JournalFile.Product)?>(nil)
                    let context = remake.record.context
                    let outcome = await walker.makePage(
                        remake.route, trail: remake.trail, presentation: context.presentation,
                        presenter: remake.presenter,
                        depth: context.depth, kind: context.kind, discovered: 0, index: remake.index,
                        asDialogCopy: context.isDialogCopy
                    ) { visit in
                        guard visit.page.files.isEmpty else { return }
                        // Rendered only when what the page says changed.
                        let made = try step.make(
                            visit, file: remake.product.path,
                            isCurrent: { _, content in content == remake.product.content }, write: { _, _ in })
                        var product = remake.product
                        product.take(made.products, fellBack: !visit.fallbackTexts.isEmpty)
                        left.withLock { $0 = (made, product) }
                    }
                    guard outcome.error == nil, outcome.failure == nil, outcome.recovered == nil,
                        let (made, product) = left.withLock({ $0 })
                    else { return (offset, nil) }
                    // Journal numbers of its links' pages, looked up in the task: a page may have thousands.
                    var targets: [Int32] = []
                    targets.reserveCapacity(outcome.targets.count)
                    for target in outcome.targets.indices {
                        guard let index = try journal.index(ofPath: outcome.path(ofTarget: target).file, in: paths)
                        else { return (offset, nil) }
                        targets.append(index)
                    }
                    guard outcome.linksFingerprint(targets: targets) == remake.record.links else {
                        return (offset, nil)
                    }
                    return (
                        offset,
                        Remade(
                            outcome: outcome, product: product, fingerprint: made.fingerprint, html: made.html,
                            siteFiles: made.products.siteFiles)
                    )
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

    /// The search index of the journal's pages, `remade` ones (by made position) as they are now.
    private func searchIndex(
        _ journal: StoredJournal, remade: [(position: Int, product: JournalFile.Product)], search: SiteSearch<C.R>
    ) throws -> [UInt8] {
        let now = Dictionary(remade.map { ($0.position, $0.product) }, uniquingKeysWith: { $1 })
        var pages: [BuildStep.BuiltPage] = []
        var entries: [SiteSearch<C.R>.Entry] = []
        pages.reserveCapacity(journal.pages)
        for position in 0..<journal.pages {
            let product = try now[position] ?? journal.product(at: position).product
            pages.append(
                BuildStep.BuiltPage(
                    path: product.path, title: product.title, summary: product.summary, isDialog: product.isDialog))
            if product.hasEntry {
                entries.append(
                    SiteSearch<C.R>.Entry(page: Int32(position), section: product.section, title: product.title))
            }
        }
        return SiteSearch<C.R>.json(entries, pages: pages, summaries: search.summaries)
    }
}

extension JournalFile.Product {
    /// Takes what a page made again left, as a full build records it.
    mutating func take<R: Route>(_ products: PageProducts<R>, fellBack: Bool) {
        title = products.page.title
        summary = products.page.summary
        isDialog = products.page.isDialog
        self.fellBack = fellBack
        hasEntry = products.search != nil
        section = products.search?.section
        content = products.content
    }
}
