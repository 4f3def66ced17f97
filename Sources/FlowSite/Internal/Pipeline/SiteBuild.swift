import FlowSiteUtilities
import Foundation
import Logging
import Synchronization

/// What a build needs before it touches the output.
struct BuildPlan<R: Route>: Sendable {
    var renderer: PageRenderer<R>
    let lint: FlowLintConfiguration
    /// For the counted words of flow lint and the flow map.
    let pluralRules: PluralRules?
    /// What every page's bytes depend on besides its own state.
    var buildKey: StableHash
}

/// One language's run of ``SiteBuilder/build(into:)``. The builder calls ``walk()``, ``makeSteps(for:flow:lint:)``,
/// ``runSteps(_:in:pages:)`` and ``linkCheck(stepsFrom:in:)`` in order, then checks the links and commits.
final class SiteBuild<C: RootCoordinator>: Sendable {
    let builder: SiteBuilder<C>
    let plan: BuildPlan<C.R>
    let staging: SiteStaging
    let phases = PhaseClock()
    let started: ContinuousClock.Instant
    /// This run's language folder (`es/`), or empty: every file it writes goes there.
    let folder: String
    private let state = RunState<C.R>()
    /// Where this run records its pages for the next build (see ``SiteBuilder/journalsEdits``).
    let journal: JournalWriting<C.R>?
    let step: PageStep<C.R>

    /// Opens the staging folder of a build into `output`, and logs what it found beside it.
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
        step = PageStep(
            renderer: plan.renderer, phases: phases, buildKey: plan.buildKey, search: builder.coordinator.search)
    }

    // MARK: The walk

    func walk() async throws -> SiteGraph<C.R> {
        var walker = SiteWalker(coordinator: builder.coordinator, concurrency: builder.concurrency, keepsEdges: false)
        walker.phases = phases
        if let walk = journal?.walk { walker.takesPage = { walk.record($0) } }
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
        let (staging, state, phases) = (staging, state, phases)
        let file = visit.path.file
        let path = folder.isEmpty ? file : folder + file
        let made = try step.make(
            visit, file: file,
            isCurrent: { fingerprint, _ in phases.measure(.write) { staging.reuse(path, fingerprint: fingerprint) } },
            write: { bytes, fingerprint in
                state.rendered.add(1, ordering: .relaxed)
                try phases.measure(.write) { try staging.write(bytes, to: path, fingerprint: fingerprint) }
            })
        if !visit.fallbackTexts.isEmpty { state.untranslated.withLock { _ = $0.insert(file) } }
        let files = visit.page.files.sorted(by: { $0.key < $1.key })
        for (name, contents) in files {
            try Page<C.R>.checkFileName(name, route: "\(visit.route)")
            try staging.write(contents, to: folder + visit.path.directory + name)
        }
        take(
            made.products, kind: visit.kind, html: made.html, depth: visit.path.slugs.count, index: visit.index,
            hasFiles: !files.isEmpty,
            fellBack: !visit.fallbackTexts.isEmpty
        )
        counted(discovered: visit.discovered)
    }

    /// Takes in what the steps, the search index, the flow record and the link check read of a page.
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
        // The allocator keeps freed memory; hand it back now and then so resident memory follows use.
        if position % HeavyPages.trimInterval == HeavyPages.trimInterval - 1 { HeavyPages.releaseFreeMemory() }
    }

    private func counted(discovered: Int) {
        guard let progress = builder.progress else { return }
        let (made, discovered) = state.counts.withLock { counts in
            counts.made += 1
            counts.discovered = max(counts.discovered, discovered)
            return (counts.made, counts.discovered)
        }
        progress(.init(phase: "pages", made: made, discovered: discovered))
    }

    var rendered: Int { state.rendered.load(ordering: .relaxed) }
    /// Pages (from the site's or language's root) that showed fallback text.
    var untranslatedPages: Set<String> { state.untranslated.withLock { $0 } }

    // MARK: The steps

    struct Steps {
        var pipeline: [BuildStep]
        let context: BuildStep.Context
    }

    /// Sorts `pages` by path in place and moves each search entry's page position with its page.
    static func sortByPath(
        _ pages: inout [BuildStep.BuiltPage],
        entries: inout [SiteSearch<C.R>.Entry]
    ) {
        // order[place] is the position the page at `place` comes from.
        var order = (0..<Int32(pages.count)).map { $0 }
        pages.withUnsafeBufferPointer { pages in
            order.sort { SiteBuilder<C>.pathPrecedes(pages[Int($0)].path, pages[Int($1)].path) }
        }
        var place = [Int32](repeating: 0, count: pages.count)
        for (new, old) in order.enumerated() { place[Int(old)] = Int32(new) }
        for index in entries.indices { entries[index].page = place[Int(entries[index].page)] }
        place = []
        // Moved cycle by cycle; a place marked done takes the page it comes from.
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

    /// The steps after the walk. The search index and the flow map's layouts start at once in tasks of their
    /// own while the other steps run.
    func makeSteps(for graph: SiteGraph<C.R>, flow: FlowGraph, lint: FlowLintReport) -> Steps {
        let (renderer, phases) = (plan.renderer, phases)
        let search = builder.coordinator.search
        var (made, searchEntries) = state.records.withLock { records in
            journal?.writeProducts(
                made: records.made, index: records.index, entries: records.searchEntries, journal: records.journal)
            records.journal = []
            var made: [BuildStep.BuiltPage] = []
            var entries: [SiteSearch<C.R>.Entry] = []
            swap(&made, &records.made)
            swap(&entries, &records.searchEntries)
            return (made, entries)
        }
        // Sorted in place: a sorted copy would sit beside them at the build's memory peak.
        Self.sortByPath(&made, entries: &searchEntries)
        let sorted = made
        let site = builder.coordinator.siteInfo
        let context = BuildStep.Context(
            pages: sorted, siteName: site.name, baseURL: builder.baseURL, staging: staging, folder: folder)
        // Written as it is made, never held whole.
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
        // Where the map drew each kind, for the flow record; a task of its own, so the map's pages are let go
        // once written.
        let boxes = flowMapTask.map { task in Task { try await task.value.boxes } }
        if let task = flowMapTask {
            // Handed over once and let go when written.
            let handOver = Locked<Task<(pages: [(path: String, html: [UInt8])], boxes: [FlowRecord.Box]?), any Error>?>(
                task)
            pipeline.append(
                BuildStep("flow map") { context in
                    guard
                        let task = handOver.withLock({ task in
                            defer { task = nil }
                            return task
                        })
                    else { return }
                    for page in try await task.value.pages { try context.write(page.html, to: page.path) }
                })
        }
        flowMapTask = nil
        // What the command line's `diff` reads.
        let kindIDs = flow.kinds.map(\.id)
        let pageOrder = Locked<[(path: String, kind: Int32, content: StableHash)]?>(
            state.records.withLock { records in
                var index: [(path: String, kind: Int32, content: StableHash)] = []
                swap(&index, &records.index)
                return index
            })
        pipeline.append(
            BuildStep("flow record") { context in
                var record = FlowRecord(graph: flow, lint: lint, boxes: try await boxes?.value)
                // Without their source lines, which move with the code.
                record.journeys = flow.journeys.isEmpty ? nil : flow.journeys.map { $0.withoutLocation }
                try context.write(Array(record.json().utf8), to: SiteLayout.flowRecord)
                // Sorted in place and let go once written: it grows with the site.
                guard
                    var pages = pageOrder.withLock({ order in
                        defer { order = nil }
                        return order
                    })
                else { return }
                pages.sort { $0.path < $1.path }
                try context.write(to: SiteLayout.pageIndex) { emit in
                    try PageIndex.lines(
                        count: pages.count, path: { pages[$0].path }, kind: { kindIDs[Int(pages[$0].kind)] },
                        content: { pages[$0].content }, emit: emit
                    )
                }
                pages = []
            })
        if let searchIndex {
            // Handed over once and let go when written.
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
        builder.progress?(.init(phase: "steps", made: pages, discovered: pages))
        try await BuildStep.run(steps, in: context, logger: builder.logger)
        phases.add(.steps, ContinuousClock.now - stepsStarted)
        builder.progress?(.init(phase: "links", made: pages, discovered: pages))
        return before
    }

    // MARK: The link check, the swap and the report

    /// What the link check reads of this run, with the pages whose links start from a root path.
    /// A multilingual build checks all languages once all are written, so links between them are checked too.
    func linkCheck(
        stepsFrom before: Int, in context: BuildStep.Context
    ) -> (check: LinkCheckByConstruction, rootPaths: [String: String]) {
        var check = state.records.withLock { $0.linkCheck }
        // Flow map pages link only to walked paths and each other; the first one samples the layout's links.
        let mapFolder = folder + SiteLayout.flowMapFolder.rawValue + "/"
        let sinceSteps = Set(staging.paths(since: before))
        // A page written twice is checked as it was written last.
        let written = Dictionary(
            context.writtenPages.withLock { $0 }.filter { sinceSteps.contains($0.path) }.map { ($0.path, $0.html) },
            uniquingKeysWith: { $1 })
        for (path, html) in written.sorted(by: { $0.key < $1.key }) {
            if path.hasPrefix(mapFolder) && path != mapFolder + "index.html" { continue }
            check.samples.append((path, html))
        }
        // The 404 page's links start from the root path a server shows it under: a language's from the site's.
        return (check, [folder + "404.html": plan.renderer.languages?.siteRootPath ?? plan.renderer.notFoundRoot])
    }
}

/// A class of its own: as ``SiteBuild``'s stored properties, the 6.3 compiler's ownership verifier crashed
/// on its initialiser in release builds (clean-up of an `Atomic`).
private final class RunState<R: Route>: Sendable {
    /// Taken under one lock per page.
    let records = Locked(PageRecords<R>())
    let rendered = Atomic<Int>(0)
    /// For `progress` only.
    let counts = Locked<(made: Int, discovered: Int)>((0, 1))
    let untranslated = Locked<Set<String>>([])
}

/// What the pages of a build leave for after the walk.
private struct PageRecords<R: Route>: Sendable {
    /// In the order made.
    var made: [BuildStep.BuiltPage] = []
    /// `kind` is the flow recorder's number.
    var index: [(path: String, kind: Int32, content: StableHash)] = []
    /// Pointing into `made`.
    var searchEntries: [SiteSearch<R>.Entry] = []
    var linkCheck = LinkCheckByConstruction()
    /// In `made`'s order, when the run keeps a journal.
    var journal: [(index: Int32, hasFiles: Bool, fellBack: Bool)] = []
}
