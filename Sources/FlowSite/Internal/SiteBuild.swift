import Foundation
import Logging
import Synchronization

/// What a build needs before it touches the output: the renderer with its parsed templates,
/// the flow lint settings and the build key.
struct BuildPlan<R: Route>: Sendable {
    var renderer: PageRenderer<R>
    let lint: FlowLintConfiguration
    /// The site's language's plural rules, for the counted words of flow lint and the flow map.
    let pluralRules: PluralRules?
    /// What every page's bytes depend on besides its own state (see `SiteBuilder.buildKey`).
    var buildKey: StableHash
}

/// One language's run of ``SiteBuilder/build(into:)`` once its staging folder is open: the state its
/// phases share (the pages' records, the counters) and the phases themselves, which the builder
/// calls in order: ``walk()``, ``makeSteps(for:flow:lint:)``, ``runSteps(_:in:pages:)`` and
/// ``linkCheck(stepsFrom:)``; the builder checks the links and commits (see
/// `SiteBuilder.buildSite`).
final class SiteBuild<C: RootCoordinator>: Sendable {
    let builder: SiteBuilder<C>
    let plan: BuildPlan<C.R>
    let staging: SiteStaging
    let phases = PhaseClock()
    let started: ContinuousClock.Instant
    /// The folder of the language this run builds in a multilingual site (`es/`), or empty:
    /// every file it writes goes there.
    let folder: String
    /// The records and counters the phases share, behind their locks.
    private let state = RunState<C.R>()
    /// Where this run writes down its pages for the next `holocron build` (see
    /// ``SiteBuilder/journalsEdits``).
    let journal: JournalWriting<C.R>?

    /// Opens the staging folder of a build of `builder` into `output` (see
    /// ``SiteWriter/beginStaging(readAhead:)``), and logs what it found beside it.
    static func openStaging(for builder: SiteBuilder<C>, output: URL) throws -> SiteStaging {
        let writer = SiteWriter(output: output, force: builder.force)
        let staging = try writer.beginStaging(
            readAhead: builder.readAhead.flatMap { ahead in
                (try? writer.guardedOutput()).map(ahead.isFor) == true ? ahead : nil
            })
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: output.path)) != nil {
            builder.logger.info("\(output.path) is a symbolic link: building into \(staging.output.path)")
        }
        if !staging.removedLeftovers.isEmpty {
            builder.logger.info(
                "Removed what killed builds left beside the output: \(staging.removedLeftovers.joined(separator: ", "))"
            )
        }
        return staging
    }

    /// A run that builds one language into `folder` (`es/`, or the root) of a staging folder the
    /// languages share, and keeps its journal when the builder keeps them.
    init(
        _ builder: SiteBuilder<C>, plan: BuildPlan<C.R>, staging: SiteStaging, folder: String,
        started: ContinuousClock.Instant
    ) {
        self.builder = builder
        self.plan = plan
        self.started = started
        self.staging = staging
        self.folder = folder
        journal = JournalWriting(builder, output: staging.output, folder: folder, buildKey: builder.journalKey(plan))
    }

    // MARK: The walk

    /// Makes every page.
    func walk() async throws -> SiteGraph<C.R> {
        var walker = SiteWalker(coordinator: builder.coordinator, concurrency: builder.concurrency, keepsEdges: false)
        walker.phases = phases
        walker.journal = journal?.walk
        let graph = try await walker.walk(visit: { try await self.visit($0) })
        journal?.walked(pages: graph.routes.count)
        try graph.requireNoFailures()
        for failure in graph.recovered {
            builder.logger.warning("\(failure.route) (\(failure.route.path)) shows its error screen: \(failure.error)")
        }
        return graph
    }

    /// Makes one page's file (or keeps the one the staging folder has) and takes in what it left.
    private func visit(_ visit: PageVisit<C.R>) async throws {
        let (renderer, phases, staging, buildKey) = (plan.renderer, phases, staging, plan.buildKey)
        let file = visit.path.file
        let path = folder.isEmpty ? file : folder + file
        var siteFiles: [String] = []
        // The page's HTML, kept to the end of the visit when its depth still needs a sample
        // for the template link check.
        var html: [UInt8]?
        // The fingerprint of what the page says, without the layout.
        var content = StableHash()
        // A page with thousands of links (a film with tens of thousands of characters) makes
        // megabytes of Markdown and HTML, and cmark's tree is ten times that: such pages go one
        // at a time, so memory is bounded by one of them, not one per task.
        let heavy = visit.page.document.routes.count >= HeavyPages.links
        try HeavyPages.one(if: heavy) {
            let markdown: PageMarkdown
            (markdown, content) = phases.measure(.markdown) {
                let markdown = renderer.markdown(of: visit) { siteFiles.append($0) }
                return (markdown, SiteBuilder<C>.contentFingerprint(of: visit, markdown: markdown))
            }
            var fingerprint = buildKey
            fingerprint.combine(content)
            if !phases.measure(.write, { staging.reuse(path, fingerprint: fingerprint) }) {
                try HeavyPages.one(if: !heavy && markdown.bytes.count >= HeavyPages.bytes) {
                    let bytes = try renderer.render(visit, markdown: markdown, phases: phases)
                    state.rendered.add(1, ordering: .relaxed)
                    try phases.measure(.write) { try staging.write(bytes, to: path, fingerprint: fingerprint) }
                    html = bytes
                }
            }
        }
        if !visit.fallbackTexts.isEmpty { state.untranslated.withLock { _ = $0.insert(file) } }
        let files = visit.page.files.sorted(by: { $0.key < $1.key })
        for (name, contents) in files {
            try Page<C.R>.checkFileName(name, route: "\(visit.route)")
            try staging.write(contents, to: folder + visit.path.directory + name)
        }
        let products = PageProducts(
            visit, file: file, search: builder.coordinator.search, content: content, siteFiles: siteFiles)
        take(
            products, kind: visit.kind, html: html, depth: visit.path.slugs.count, index: visit.index,
            hasFiles: !files.isEmpty,
            fellBack: !visit.fallbackTexts.isEmpty
        )
        counted(discovered: visit.discovered)
    }

    /// Takes in a page's products: what the steps, the search index, the flow record and the
    /// link check read.
    private func take(
        _ products: PageProducts<C.R>, kind: Int32, html: [UInt8]?, depth: Int, index: Int, hasFiles: Bool,
        fellBack: Bool
    ) {
        let journals = journal != nil
        let path = products.page.path
        let (staging, folder) = (staging, folder)
        let position = state.records.withLock { records in
            let position = records.made.count
            records.made.appendGrowingByQuarters(products.page)
            records.index.appendGrowingByQuarters((path, kind, products.content))
            if journals { records.journal.appendGrowingByQuarters((Int32(index), hasFiles, fellBack)) }
            records.linkCheck.offer(folder + path, depth: depth, modal: products.page.isDialog) {
                html ?? (try? Array(Data(contentsOf: staging.folder.appendingPathComponent(folder + path))))
            }
            if !products.siteFiles.isEmpty {
                records.linkCheck.siteFiles.append(
                    (folder + path, folder.isEmpty ? products.siteFiles : products.siteFiles.map { folder + $0 }))
            }
            if var entry = products.search {
                entry.page = Int32(position)
                records.searchEntries.appendGrowingByQuarters(entry)
            }
            return position
        }
        // The allocator keeps what pages freed for later; hand it back now and then, so
        // resident memory follows what the build really holds.
        if position % HeavyPages.trimInterval == HeavyPages.trimInterval - 1 { HeavyPages.releaseFreeMemory() }
    }

    private func counted(discovered: Int) {
        guard let progress = builder.progress else { return }
        let (made, discovered) = state.counts.withLock { counts in
            counts.made += 1
            counts.discovered = max(counts.discovered, discovered)
            return (counts.made, counts.discovered)
        }
        progress((phase: "pages", made: made, discovered: discovered))
    }

    /// How many pages this run rendered.
    var rendered: Int { state.rendered.load(ordering: .relaxed) }
    /// The pages (files from the site's or language's root) that showed fallback text.
    var untranslatedPages: Set<String> { state.untranslated.withLock { $0 } }

    // MARK: The steps

    /// The built-in steps and the context they run in.
    struct Steps {
        var pipeline: [BuildStep]
        let context: BuildStep.Context
    }

    /// Sorts `pages` by path in place (see ``SiteBuilder/pathPrecedes(_:_:)``) and moves each
    /// search entry's page position with its page.
    static func sortByPath(
        _ pages: inout [(path: String, title: String, summary: String?, isDialog: Bool)],
        entries: inout [SiteSearch<C.R>.Entry]
    ) {
        // Where each place's page comes from, sorted by path through the positions.
        var order = (0..<Int32(pages.count)).map { $0 }
        pages.withUnsafeBufferPointer { pages in
            order.sort { SiteBuilder<C>.pathPrecedes(pages[Int($0)].path, pages[Int($1)].path) }
        }
        var place = [Int32](repeating: 0, count: pages.count)
        for (new, old) in order.enumerated() { place[Int(old)] = Int32(new) }
        for index in entries.indices { entries[index].page = place[Int(entries[index].page)] }
        place = []
        // The pages moved cycle by cycle: each place marked done takes the page it comes from.
        for start in order.indices where order[start] != Int32(start) {
            var at = start
            while true {
                let from = Int(order[at])
                order[at] = Int32(at)
                if from == start { break }
                pages.swapAt(at, from)
                at = from
            }
        }
    }

    /// The steps after the walk: the assets, 404 page, sitemap, flow map, flow record and page
    /// index, and search index. The pages are sorted first; then the search index (written by
    /// its task as it is made) and the flow map's layouts start at once on the other core while
    /// the other steps run.
    func makeSteps(for graph: SiteGraph<C.R>, flow: FlowGraph, lint: FlowLintReport) -> Steps {
        let (renderer, phases) = (plan.renderer, phases)
        let search = builder.coordinator.search
        var (made, searchEntries) = state.records.withLock { records in
            journal?.writeProducts(
                made: records.made, index: records.index, entries: records.searchEntries, journal: records.journal)
            records.journal = []
            var made: [(path: String, title: String, summary: String?, isDialog: Bool)] = []
            var entries: [SiteSearch<C.R>.Entry] = []
            swap(&made, &records.made)
            swap(&entries, &records.searchEntries)
            return (made, entries)
        }
        // Sorted where they lie, the search entries pointed at their pages' new places: a sorted
        // copy would sit beside them at the build's peak.
        Self.sortByPath(&made, entries: &searchEntries)
        let sorted = made
        let site = builder.coordinator.siteInfo
        let context = BuildStep.Context(
            pages: sorted, siteName: site.name, baseURL: builder.baseURL, staging: staging, folder: folder)
        // Written by its task as it is made, not held whole for its step.
        var searchIndex = search.map { search in
            Task { [made, searchEntries] in
                try phases.measure(.steps) {
                    try context.write(to: search.indexPath) { emit in
                        try SiteSearch<C.R>.write(searchEntries, pages: made, summaries: search.summaries, emit: emit)
                    }
                }
            }
        }
        let rules = plan.pluralRules
        let mapPages = FlowMapPages(
            graph: flow, lint: lint, coverage: builder.flowCoverage, label: { site.label($0, $1) },
            counted: { site.label($0, count: $1, rules: rules, $2) }, number: { site.number($0) }
        )
        var flowMapTask =
            builder.flowMap
            ? Task { try phases.measure(.flow) { try SiteBuilder<C>.renderFlowMap(mapPages, with: renderer) } } : nil
        var pipeline = builder.builtInSteps(
            renderer: renderer, morePages: builder.flowMap ? mapPages.paths().map(\.file) : [],
            languages: plan.renderer.languages
        )
        if let task = flowMapTask {
            // Handed over once and let go when written, like the search index.
            let handOver = Locked<Task<[(path: String, html: [UInt8])], any Error>?>(task)
            pipeline.append(
                BuildStep("flow map") { context in
                    guard
                        let task = handOver.withLock({ task in
                            defer { task = nil }
                            return task
                        })
                    else { return }
                    for page in try await task.value { try context.write(page.html, to: page.path) }
                })
        }
        flowMapTask = nil
        // What `holocron diff` reads: the flow, and each page's kind and content.
        let kindIDs = flow.kinds.map(\.id)
        let recordBytes = Array(FlowRecord(graph: flow, lint: lint).json().utf8)
        let pageOrder = Locked<[(path: String, kind: Int32, content: StableHash)]?>(
            state.records.withLock { records in
                var index: [(path: String, kind: Int32, content: StableHash)] = []
                swap(&index, &records.index)
                return index
            })
        pipeline.append(
            BuildStep("flow record") { context in
                try context.write(recordBytes, to: FlowRecord.fileName)
                // Sorted where it lies and let go once written, not kept in a dictionary: the build's
                // peak memory grows with it.
                guard
                    var pages = pageOrder.withLock({ order in
                        defer { order = nil }
                        return order
                    })
                else { return }
                pages.sort { $0.path < $1.path }
                // Written as it is made, never held whole (it grows with the site).
                try context.write(to: PageIndex.fileName) { emit in
                    try PageIndex.lines(
                        count: pages.count, path: { pages[$0].path }, kind: { kindIDs[Int(pages[$0].kind)] },
                        content: { pages[$0].content }, emit: emit
                    )
                }
                pages = []
            })
        if let searchIndex {
            // Handed over once and let go when written, so it isn't held to the end.
            let handOver = Locked<Task<Void, any Error>?>(searchIndex)
            pipeline.append(
                BuildStep("search index") { _ in
                    if let task = handOver.withLock({ task in
                        defer { task = nil }
                        return task
                    }) {
                        try await task.value
                    }
                })
        }
        searchIndex = nil
        return Steps(pipeline: pipeline, context: context)
    }

    /// Runs `steps` into the staging folder; returns how many files it held before them.
    func runSteps(_ steps: [BuildStep], in context: BuildStep.Context, pages: Int) async throws -> Int {
        let before = staging.fileCount
        let stepsStarted = ContinuousClock.now
        builder.progress?((phase: "steps", made: pages, discovered: pages))
        try await BuildStep.run(steps, in: context, logger: builder.logger)
        phases.add(.steps, ContinuousClock.now - stepsStarted)
        try builder.beforeCommit(staging)
        builder.progress?((phase: "links", made: pages, discovered: pages))
        return before
    }

    // MARK: The link check, the swap and the report

    /// What the link check reads of this run: the sampled pages, the site-file links and every
    /// HTML file a step wrote, with the pages whose links start from a root path. A multilingual
    /// build checks every language's once all are written, so links between them are checked too.
    func linkCheck(stepsFrom before: Int) throws -> (check: LinkCheckByConstruction, rootPaths: [String: String]) {
        var check = state.records.withLock { $0.linkCheck }
        // The flow map's pages link only to paths the walk made and to each other, by
        // construction; its first page is the sample for the layout's own links there.
        let mapFolder = folder + FlowMapPages.folder.rawValue + "/"
        for path in staging.paths(since: before).sorted() where path.hasSuffix(".html") {
            if path.hasPrefix(mapFolder) && path != mapFolder + "index.html" { continue }
            check.samples.append((path, Array(try Data(contentsOf: staging.folder.appendingPathComponent(path)))))
        }
        // The 404 page links from the root path a server shows it under, at any depth: a
        // language's from the whole site's.
        return (check, [folder + "404.html": plan.renderer.languages?.siteRootPath ?? plan.renderer.notFoundRoot])
    }
}

/// The records and counters of a ``SiteBuild``, in a class of their own: as the run's own stored
/// properties, the 6.3 compiler's ownership verifier crashed on the run's initialiser in release
/// builds (its clean-up of an `Atomic`).
private final class RunState<R: Route>: Sendable {
    /// What each page leaves for after the walk, taken under one lock per page: the pages made,
    /// their search entries, and what the link check needs.
    let records = Locked(PageRecords<R>())
    let rendered = Atomic<Int>(0)
    /// Pages made and routes discovered so far, for `progress` only.
    let counts = Locked<(made: Int, discovered: Int)>((0, 1))
    /// The pages that showed fallback text.
    let untranslated = Locked<Set<String>>([])
}

/// What the pages of a build leave for after the walk.
private struct PageRecords<R: Route>: Sendable {
    /// Every page made, in the order they were made.
    var made: [(path: String, title: String, summary: String?, isDialog: Bool)] = []
    /// Every page's file, screen kind (the flow recorder's number) and content fingerprint.
    var index: [(path: String, kind: Int32, content: StableHash)] = []
    /// The search index's entries, pointing into `made`.
    var searchEntries: [SiteSearch<R>.Entry] = []
    /// The sampled pages and the site-file links the link check reads.
    var linkCheck = LinkCheckByConstruction()
    /// Each page's discovery index and whether it wrote files of its own, in `made`'s order,
    /// when the run keeps a journal.
    var journal: [(index: Int32, hasFiles: Bool, fellBack: Bool)] = []
}

/// What a page leaves besides its file: its entry in the list of pages, its search entry, the
/// fingerprint of what it says and the site files it links to.
struct PageProducts<R: Route>: Sendable {
    var page: (path: String, title: String, summary: String?, isDialog: Bool)
    var search: SiteSearch<R>.Entry?
    var content: StableHash
    var siteFiles: [String]

    /// What the page of `visit` leaves; `file` is its path's file, made once by the caller.
    init(_ visit: PageVisit<R>, file: String, search: SiteSearch<R>?, content: StableHash, siteFiles: [String]) {
        page = (
            path: file, title: visit.page.title, summary: visit.page.summary, isDialog: visit.presentation == .modal
        )
        // A tab root's dialog copy is found in search as its tab.
        self.search = visit.isDialogCopy ? nil : search?.entry(for: visit.route, page: visit.page)
        self.content = content
        self.siteFiles = siteFiles
    }
}
