import Foundation
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds an app's whole site: walks every route, renders and writes each page as it is made,
/// runs the build steps (the assets, `404.html`, `sitemap.xml` and `robots.txt`, the search
/// index, then the app's own ``steps``), checks every link, and only then swaps the new site in
/// for the old one.
///
/// ```swift
/// let builder = SiteBuilder(coordinator: AppCoordinator(dependencies: .live))
/// let report = try await builder.build(into: URL(fileURLWithPath: "site"))
/// print(report)
/// ```
public struct SiteBuilder<C: RootCoordinator>: Sendable {
    /// The app's root coordinator.
    public var coordinator: C
    /// The templates and assets.
    public var templates: TemplateSet
    /// The absolute URL the site is served from, for the sitemap, robots.txt and 404 page.
    public var baseURL: String?
    /// Whether to replace an output folder that holocron did not make.
    public var force: Bool
    /// How many pages are made at once.
    public var concurrency: Int
    /// Where progress and warnings go.
    public var logger: Logger
    /// Steps of the app's own, run in order after the built-in ones, before the link check.
    public var steps: [BuildStep]
    /// Whether the site gets its flow map: pages under `flow/` that draw the app's screen
    /// kinds and transitions (laid out by Graphviz), linked from the footer.
    public var flowMap: Bool = true
    /// Flow lint settings over the coordinator's own (``RootCoordinator/flowLint``): a
    /// configuration file's, say. Every build runs flow lint; ``BuildReport/flowLint`` has what
    /// it found.
    public var flowLint: FlowLintConfiguration?
    /// Whether a flow lint finding at warning level or above fails the build (before the new
    /// site replaces the old).
    public var strictFlowLint: Bool = false
    /// What the build's inputs were (data, templates, options), as the caller fingerprints them;
    /// kept in the site's manifest so ``unchangedSite(at:inputs:)`` can tell a rebuild with
    /// nothing changed.
    public var inputs: String?
    /// Told how the build is going: the phase (`pages` while the walk makes pages, then
    /// `steps`, `links` and `swap`), the pages made so far and the routes discovered so far.
    /// Called concurrently from the walk, once per page, so keep it cheap; `holocron` draws its
    /// progress line with it.
    public var progress: (@Sendable (_ update: (phase: String, made: Int, discovered: Int)) -> Void)?
    /// What the last build into the same output learnt of each page, kept by the caller from
    /// one build to the next (`serve --watch` does): with ``changedInputs``, a page in the same
    /// place that read none of the changed inputs is neither made nor rendered again. Each
    /// successful build replaces what it holds; a failed one leaves it.
    package var memory: BuildMemory<C.R>?
    /// The inputs (see ``InputKey``) whose values changed since the build ``memory`` holds;
    /// `nil` when unknown, and then every page is made. Whatever pages read besides what the app
    /// tags (its compiled words, say) must be the same in both builds, or this must be `nil`:
    /// the templates, site information and options are checked by the build itself.
    package var changedInputs: Set<InputKey>?
    /// Whether `output` is a private preview that nobody else reads as a whole
    /// (`serve --watch`'s): an edit that moves no page (see ``memory``) is then written into it
    /// in place, file by file, instead of as a new generation of the whole site, so it costs
    /// what it changes. The pages are the bytes a full build writes.
    package var patchesInPlace = false
    /// Runs just before the link check; tests use it to fail or wait midway.
    var beforeCommit: @Sendable (SiteStaging) throws -> Void = { _ in }

    public init(
        coordinator: C,
        templates: TemplateSet = .embedded,
        baseURL: String? = nil,
        force: Bool = false,
        concurrency: Int = max(2, ProcessInfo.processInfo.activeProcessorCount * 2),
        logger: Logger = Logger(label: "holocron"),
        steps: [BuildStep] = [],
        inputs: String? = nil,
        progress: (@Sendable (_ update: (phase: String, made: Int, discovered: Int)) -> Void)? = nil
    ) {
        self.inputs = inputs
        self.coordinator = coordinator
        self.templates = templates
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        self.force = force
        self.concurrency = concurrency
        self.logger = logger
        self.steps = steps
        self.progress = progress
    }

    /// Builds the site into `output`, replacing the previous site only on success.
    ///
    /// A page whose state, breadcrumbs and templates are what the previous build wrote is not
    /// rendered again: its file is linked from the previous site (keeping its inode and
    /// modification time), and ``BuildReport/rendered`` counts only the pages that were.
    /// - Throws: ``FlowSiteError`` for screens that failed, broken links, an output folder that
    ///   isn't holocron's or must never be replaced, another build of the same output running,
    ///   a failed step, bad templates or file-system errors; the previous site is untouched.
    @discardableResult
    public func build(into output: URL) async throws -> BuildReport {
        let clock = ContinuousClock()
        let started = clock.now
        let search = coordinator.search
        let renderer = try PageRenderer(
            templates: templates, site: coordinator.siteInfo, baseURL: baseURL, searchIndexPath: search?.indexPath, flowMap: flowMap
        )
        var lintConfiguration = coordinator.flowLint
        if let flowLint { lintConfiguration = lintConfiguration.merging(flowLint) }
        try lintConfiguration.validate()
        let buildKey = self.buildKey(searchIndexPath: search?.indexPath)
        // An edit of a private preview is patched into it when it moves no page; otherwise (or
        // when that can't be told) it is built as below, from the same memory.
        var mayPatch = true
        if patchesInPlace, let changedInputs, let pages = memory?.take() {
            mayPatch = false
            if pages.buildKey == buildKey,
                let report = try await patch(
                    output, from: pages, changedInputs: changedInputs, renderer: renderer, buildKey: buildKey,
                    lint: lintConfiguration, started: started
                )
            {
                memory?.keep(pages)
                return report
            }
            memory?.keep(pages)
        }
        // What each page leaves for after the walk, taken under one lock per page: the pages
        // made, their search entries, and what the link check needs.
        let records = Mutex(PageRecords<C.R>())
        let rendered = Atomic<Int>(0)
        let replayed = Atomic<Int>(0)
        let phases = PhaseClock()
        // Pages made and routes discovered so far, for `progress` only.
        let counts = Mutex<(made: Int, discovered: Int)>((0, 1))
        let progress = progress
        let staging = try SiteWriter(output: output, force: force).beginStaging()
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: output.path)) != nil {
            logger.info("\(output.path) is a symbolic link: building into \(staging.output.path)")
        }
        if !staging.removedLeftovers.isEmpty {
            logger.info("Removed what killed builds left beside the output: \(staging.removedLeftovers.joined(separator: ", "))")
        }
        // The previous build's memory is replayed only when every page's bytes still depend
        // on the same program, templates and options.
        // It is updated in place: a replayed page's entry stays as it is, a page made again
        // replaces its own. A failed build forgets it all, since it may be half updated.
        let remembered = memory?.take()
        let previous = remembered.flatMap { $0.buildKey == buildKey ? $0 : nil }
        let learnt = memory.map { _ in previous ?? BuildMemory<C.R>.Pages(buildKey: buildKey, capacity: remembered?.walk.count ?? 0) }
        do {
            var walker = SiteWalker(coordinator: coordinator, concurrency: concurrency, keepsEdges: false)
            walker.phases = phases
            walker.memory = learnt?.walk
            if let previous, let changedInputs { walker.previous = (previous.walk, changedInputs) }
            /// Takes in a page's products, made or replayed: what the steps, the search index,
            /// the flow record and the link check read.
            @Sendable func take(_ route: C.R, _ products: BuildMemory<C.R>.Products, kind: Int32, html: [UInt8]?, depth: Int, replayed: Bool = false) {
                let path = products.page.path
                let position = records.withLock { records in
                    let position = records.made.count
                    records.made.append(products.page)
                    records.index.append((path, kind, products.content))
                    if records.linkCheck.wantsSample(depth: depth, modal: products.page.isDialog),
                        let html = html ?? (try? Array(Data(contentsOf: staging.folder.appendingPathComponent(path))))
                    {
                        records.linkCheck.samples.append((path, html))
                    }
                    if !products.siteFiles.isEmpty { records.linkCheck.siteFiles.append((path, products.siteFiles)) }
                    if var entry = products.search {
                        entry.page = Int32(position)
                        records.searchEntries.append(entry)
                    }
                    return position
                }
                if !replayed { learnt?.keep(route, products) }
                // The allocator keeps what pages freed for later; hand it back now and then, so
                // resident memory follows what the build really holds.
                if position % HeavyPages.trimInterval == HeavyPages.trimInterval - 1 { HeavyPages.releaseFreeMemory() }
            }
            @Sendable func counted(discovered: Int) {
                guard let progress else { return }
                let (made, discovered) = counts.withLock { counts in
                    counts.made += 1
                    counts.discovered = max(counts.discovered, discovered)
                    return (counts.made, counts.discovered)
                }
                progress((phase: "pages", made: made, discovered: discovered))
            }
            @Sendable func visit(_ visit: PageVisit<C.R>) async throws {
                let path = visit.route.path.file
                var siteFiles: [String] = []
                // The page's HTML, kept to the end of the visit when its depth still needs a
                // sample for the template link check.
                var html: [UInt8]?
                // The fingerprint of what the page says, without the layout.
                var content = StableHash()
                // A page with thousands of links (a film with tens of thousands of characters)
                // makes megabytes of Markdown and HTML, and cmark's tree is ten times that: such
                // pages go one at a time, so memory is bounded by one of them, not one per task.
                let heavy = visit.page.document.routes.count >= HeavyPages.links
                try HeavyPages.one(if: heavy) {
                    let markdown: PageMarkdown
                    (markdown, content) = phases.measure(.markdown) {
                        let markdown = renderer.markdown(of: visit.page.document, at: visit.route.path) { siteFiles.append($0) }
                        return (markdown, Self.contentFingerprint(of: visit, markdown: markdown))
                    }
                    var fingerprint = buildKey
                    fingerprint.combine(content)
                    if !phases.measure(.write, { staging.reuse(path, fingerprint: fingerprint) }) {
                        try HeavyPages.one(if: !heavy && markdown.bytes.count >= HeavyPages.bytes) {
                            let bytes = try renderer.render(visit, markdown: markdown, phases: phases)
                            rendered.add(1, ordering: .relaxed)
                            try phases.measure(.write) { try staging.write(bytes, to: path, fingerprint: fingerprint) }
                            html = bytes
                        }
                    }
                }
                let files = visit.page.files.sorted(by: { $0.key < $1.key })
                for (name, contents) in files {
                    try Page<C.R>.checkFileName(name, route: "\(visit.route)")
                    try staging.write(contents, to: visit.route.path.directory + name)
                }
                let products = BuildMemory<C.R>.Products(
                    visit, search: search, content: content, siteFiles: siteFiles, files: learnt == nil ? [] : files
                )
                take(visit.route, products, kind: visit.kind, html: html, depth: visit.route.path.slugs.count)
                counted(discovered: visit.discovered)
            }
            /// Replays a page from the last build: its file is the one that build wrote.
            @Sendable func replay(_ route: C.R, _ context: PageContext<C.R>) async throws -> Bool {
                guard let products = previous?.products(route) else { return false }
                var fingerprint = buildKey
                fingerprint.combine(products.content)
                guard phases.measure(.write, { staging.reuse(products.page.path, fingerprint: fingerprint) }) else { return false }
                for (name, contents) in products.files { try staging.write(contents, to: route.path.directory + name) }
                take(route, products, kind: context.kind, html: nil, depth: route.path.slugs.count, replayed: true)
                replayed.add(1, ordering: .relaxed)
                counted(discovered: 0)
                return true
            }
            // An edit whose pages, made again, lead where they led (the same titles and links)
            // moves no other page: every other page is replayed in its place, without a walk.
            var patched: SiteGraph<C.R>?
            if mayPatch, let previous, let changedInputs, var graph = previous.graph {
                let touched = previous.walk.routes(reading: changedInputs)
                if touched.count <= Self.patchLimit(pages: graph.routes.count), try await walker.remake(touched, in: &graph, visit: visit) {
                    let remade = Set(touched)
                    var complete = true
                    for route in graph.routes where !remade.contains(route) {
                        guard let context = previous.walk.kept(route)?.context, try await replay(route, context) else {
                            complete = false
                            break
                        }
                    }
                    if complete { patched = graph }
                }
                if patched == nil {
                    // Walk after all, from nothing taken.
                    records.withLock { $0 = PageRecords() }
                    rendered.store(0, ordering: .relaxed)
                    replayed.store(0, ordering: .relaxed)
                    counts.withLock { $0 = (0, 1) }
                }
            }
            let graph: SiteGraph<C.R>
            if let patched { graph = patched } else { graph = try await walker.walk(visit: visit, replay: replay) }
            try graph.requireNoFailures()
            for failure in graph.recovered {
                logger.warning("\(failure.route) (\(failure.route.path)) shows its error screen: \(failure.error)")
            }
            let (flow, lint) = try flowAndLint(of: graph, configuration: lintConfiguration, phases: phases)
            // The search index reads the pages in the order they were made, before they are
            // sorted: it is made on the other core while the pages are sorted and the steps run.
            let (made, searchEntries) = records.withLock { records in
                var made: [(path: String, title: String, summary: String?, isDialog: Bool)] = []
                var entries: [SiteSearch<C.R>.Entry] = []
                swap(&made, &records.made)
                swap(&entries, &records.searchEntries)
                return (made, entries)
            }
            var searchIndex = search.map { search in
                Task { [made, searchEntries] in
                    phases.measure(.steps) { SiteSearch<C.R>.json(searchEntries, pages: made, summaries: search.summaries) }
                }
            }
            var sorted = made
            sorted.sort { Self.pathPrecedes($0.path, $1.path) }
            let context = BuildStep.Context(pages: sorted, siteName: coordinator.siteInfo.name, baseURL: baseURL, staging: staging)
            // The flow map's pages depend only on the flow: Graphviz lays them out on the other
            // core while this one runs the other steps.
            let site = coordinator.siteInfo
            let mapPages = FlowMapPages(graph: flow, label: { site.label($0, $1) })
            var flowMapTask = flowMap ? Task { try phases.measure(.flow) { try Self.renderFlowMap(mapPages, with: renderer) } } : nil
            var pipeline = builtInSteps(renderer: renderer, morePages: flowMap ? mapPages.paths().map(\.file) : [])
            if let task = flowMapTask {
                // Handed over once and let go when written, like the search index.
                let handOver = Mutex<Task<[(path: String, html: [UInt8])], any Error>?>(task)
                pipeline.append(BuildStep("flow map") { context in
                    guard let task = handOver.withLock({ task in defer { task = nil }; return task }) else { return }
                    for page in try await task.value { try context.write(page.html, to: page.path) }
                })
            }
            flowMapTask = nil
            // What `holocron diff` reads: the flow, and each page's kind and content.
            let kindIDs = flow.kinds.map(\.id)
            let recordBytes = Array(FlowRecord(graph: flow, lint: lint).json().utf8)
            // What an edit patched in place needs of the page index, when the build is remembered.
            let keptIndex = Mutex<[(path: String, kind: Int32, content: StableHash)]>([])
            let keepsIndex = learnt != nil
            let pageOrder = Mutex<[(path: String, kind: Int32, content: StableHash)]?>(records.withLock { records in
                var index: [(path: String, kind: Int32, content: StableHash)] = []
                swap(&index, &records.index)
                return index
            })
            pipeline.append(BuildStep("flow record") { context in
                try context.write(recordBytes, to: FlowRecord.fileName)
                // Sorted where it lies and let go once written: at 1000x a dictionary of it
                // was tens of megabytes at the build's peak.
                guard var pages = pageOrder.withLock({ order in defer { order = nil }; return order }) else { return }
                pages.sort { $0.path < $1.path }
                let bytes = PageIndex.bytes(count: pages.count) { pages[$0].path } kind: { kindIDs[Int(pages[$0].kind)] } content: { pages[$0].content }
                if keepsIndex { keptIndex.withLock { swap(&$0, &pages) } }
                pages = []
                try context.write(bytes, to: PageIndex.fileName)
            })
            if let search, let searchIndex {
                // Handed over once and let go when written, so it isn't held to the end.
                let handOver = Mutex<Task<[UInt8], Never>?>(searchIndex)
                pipeline.append(BuildStep("search index") { context in
                    if let task = handOver.withLock({ task in defer { task = nil }; return task }) {
                        try context.write(await task.value, to: search.indexPath)
                    }
                })
            }
            searchIndex = nil
            let before = staging.fileCount
            let stepsStarted = ContinuousClock.now
            let pages = graph.routes.count
            progress?((phase: "steps", made: pages, discovered: pages))
            try await BuildStep.run(pipeline + steps, in: context, logger: logger)
            phases.add(.steps, ContinuousClock.now - stepsStarted)
            try beforeCommit(staging)
            progress?((phase: "links", made: pages, discovered: pages))

            // Links by construction: every route link leads to a page the walk made (or the
            // build failed), so what is left to check is links to site files, and the
            // templates' own links on one page of each depth, plus every HTML file a step wrote.
            let written = staging.paths
            var check = records.withLock { $0.linkCheck }
            // The flow map's pages link only to paths the walk made and to each other, by
            // construction; its first page is the sample for the layout's own links there.
            let mapFolder = FlowMapPages.folder.rawValue + "/"
            for path in staging.paths(since: before).sorted() where path.hasSuffix(".html") {
                if path.hasPrefix(mapFolder) && path != mapFolder + "index.html" { continue }
                check.samples.append((path, Array(try Data(contentsOf: staging.folder.appendingPathComponent(path)))))
            }
            // The 404 page links from the root path a server shows it under, at any depth.
            let links = try phases.measure(.linkCheck) { try check.run(files: written, rootPaths: ["404.html": renderer.notFoundRoot]) }
            if !links.broken.isEmpty { throw FlowSiteError(.brokenLinks(links.broken.map { ($0.page, $0.link) })) }
            let unchanged = staging.unchangedCount
            let totalBytes = staging.totalBytes
            progress?((phase: "swap", made: pages, discovered: pages))
            try phases.measure(.swap) { try staging.commit(inputs: inputs, pages: graph.routes.count) }
            if let learnt {
                // Pages the site no longer has go from the memory.
                if learnt.walk.count > graph.routes.count { learnt.keepOnly(Set(graph.routes)) }
                learnt.graph = graph
                learnt.written = BuildMemory<C.R>.Written(
                    made: made, searchEntries: searchEntries, index: keptIndex.withLock { $0 }, flowRecord: recordBytes,
                    files: written.count, bytes: totalBytes, links: graph.edgeCount + links.internalReferences
                )
                memory?.keep(learnt)
            }
            var report = BuildReport(
                pages: graph.routes.count,
                rendered: rendered.load(ordering: .relaxed),
                edges: graph.edgeCount,
                links: graph.edgeCount + links.internalReferences,
                files: written.count,
                bytes: totalBytes,
                unchangedFiles: unchanged,
                warnings: graph.recovered.map { "\($0.route): \($0.error)" },
                duration: clock.now - started,
                timings: phases.seconds,
                sitemap: baseURL != nil,
                flow: flow,
                flowLint: lint
            )
            report.replayed = replayed.load(ordering: .relaxed)
            report.patched = patched != nil
            return report
        } catch {
            staging.discard()
            throw error
        }
    }

    /// The flow of the graph's screen kinds and what flow lint finds in it.
    /// - Throws: ``FlowSiteError`` when ``strictFlowLint`` is on and lint finds a warning.
    func flowAndLint(
        of graph: SiteGraph<C.R>, configuration: FlowLintConfiguration, phases: PhaseClock
    ) throws -> (flow: FlowGraph, lint: FlowLintReport) {
        let (flow, lint) = phases.measure(.flow) {
            (graph.flowGraph, graph.lint(configuration, declared: C.R.screenKindExamples.map(\.screenKind)))
        }
        if strictFlowLint && lint.failsStrict {
            throw FlowSiteError(.flowLintFailed(summary: lint.summaryLine, findings: lint.active.map { "\($0.rule.id): \($0.message)" }))
        }
        return (flow, lint)
    }

    /// The most pages an edit may touch for them to be made again without a walk: above it, a
    /// walk (which replays the untouched pages too) costs little more than making them, and
    /// making them first would be wasted when one leads elsewhere.
    static func patchLimit(pages: Int) -> Int { max(64, pages / 16) }

    /// The flow map's pages in the layout, with their files.
    private static func renderFlowMap(_ map: FlowMapPages, with renderer: PageRenderer<C.R>) throws -> [(path: String, html: [UInt8])] {
        try map.pages().map { page in
            (page.path.file, try renderer.renderStandalone(at: page.path, title: page.title, summary: page.summary, trail: page.trail, content: page.content))
        }
    }

    /// Whether the page file `a` comes before `b` in the order of their routes' paths (slug by
    /// slug, a folder before what is inside it), without making the paths again.
    static func pathPrecedes(_ a: String, _ b: String) -> Bool {
        // Compare the folders ("characters/luke/"), with "/" lower than any slug character.
        let suffix = "index.html".utf8.count
        var a = a, b = b
        return a.withUTF8 { a in
            b.withUTF8 { b in
                let a = a.dropLast(suffix), b = b.dropLast(suffix)
                for (x, y) in zip(a, b) where x != y {
                    if x == UInt8(ascii: "/") { return true }
                    if y == UInt8(ascii: "/") { return false }
                    return x < y
                }
                return a.count < b.count
            }
        }
    }

    /// The report of the site at `output` when the build that made it had exactly `inputs` and
    /// every file it wrote is still there as it was: nothing to build and nothing to write.
    /// `nil` otherwise, or when `inputs` is `nil`.
    ///
    /// A command-line tool fingerprints its inputs (data files, templates, options, its own
    /// version) and calls this before loading anything.
    ///
    /// Like a build, it first removes the staging and old folders that killed builds left beside
    /// the output, and logs their names.
    public static func unchangedSite(at output: URL, inputs: String?, logger: Logger? = nil) -> BuildReport? {
        guard let inputs else { return nil }
        let clock = ContinuousClock()
        let started = clock.now
        let folder = open(output.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        defer { close(folder) }
        guard let bytes = SiteManifest.readBytes(from: folder),
            let site = SiteManifest.intactSite(bytes, in: folder, inputs: inputs, lanes: ProcessInfo.processInfo.activeProcessorCount)
        else { return nil }
        let removed = SiteWriter.removeLeftovers(besides: output)
        if !removed.isEmpty {
            logger?.info("Removed what killed builds left beside the output: \(removed.joined(separator: ", "))")
        }
        return BuildReport(
            pages: site.pages, rendered: 0, edges: 0, links: 0, files: site.files, bytes: site.bytes,
            unchangedFiles: site.files, warnings: [], duration: clock.now - started, sitemap: site.sitemap
        )
    }

    /// What every page's bytes depend on besides its own state: the templates, the site's
    /// information, the base URL, the search index's place and the program itself.
    private func buildKey(searchIndexPath: String?) -> StableHash {
        var key = StableHash()
        key.combine(ProgramIdentity.current)
        for (name, source) in templates.templates.sorted(by: { $0.key < $1.key }) {
            key.combine(name)
            key.combine(source)
        }
        let site = coordinator.siteInfo
        for text in [site.name, site.language, site.footer, baseURL ?? "-", searchIndexPath ?? "-"] { key.combine(text) }
        for action in site.navigation {
            key.combine(action.label)
            key.combine(action.route.path.description)
        }
        return key
    }

    /// What a page's bytes are made of besides the build's key (templates, site, program): its
    /// state. A page's fingerprint is the key and this.
    static func contentFingerprint(of visit: PageVisit<C.R>, markdown: PageMarkdown) -> StableHash {
        var hash = StableHash()
        hash.combine(visit.route.path.description)
        hash.combine(visit.page.title)
        hash.combine(visit.page.summary ?? "\u{0}")
        for (name, value) in visit.page.templateValues.sorted(by: { $0.key < $1.key }) {
            hash.combine(name)
            hash.combine(value)
        }
        for crumb in visit.breadcrumbs {
            hash.combine(crumb.title)
            hash.combine(crumb.route.path.description)
        }
        hash.combine(visit.presentation.rawValue)
        if let presenter = visit.presenter {
            hash.combine(presenter.title)
            hash.combine(presenter.route.path.description)
        }
        markdown.bytes.withUnsafeBytes { bytes in
            for chunk in markdown.chunks {
                hash.combine(chunk.style?.name ?? "\u{0}")
                hash.combine(UnsafeRawBufferPointer(rebasing: bytes[chunk.range]))
            }
        }
        return hash
    }

    /// The files every site has: its assets, the 404 page, robots.txt, and with a base URL the
    /// sitemap (dialogs are not in it; a sitemap's locations must be absolute, so without a base
    /// URL there is none).
    /// `morePages` are pages the build writes beside the app's screens (the flow map's), for the
    /// sitemap.
    private func builtInSteps(renderer: PageRenderer<C.R>, morePages: [String]) -> [BuildStep] {
        let assets = templates.assets
        let baseURL = baseURL
        return [
            BuildStep("assets") { context in
                for (name, data) in assets.sorted(by: { $0.key < $1.key }) {
                    try context.write(data, to: SiteWriter.assetsFolder + "/" + name)
                }
            },
            BuildStep("404 page") { context in
                try context.write(Data(try renderer.renderNotFound()), to: "404.html")
            },
            BuildStep("sitemap") { context in
                let pages = (context.pages.filter { !$0.isDialog }.map(\.path) + morePages).sorted(by: Self.pathPrecedes)
                let sitemap = Sitemap(baseURL: baseURL, pages: pages)
                if let xml = sitemap.xml { try context.write(Data(xml.utf8), to: "sitemap.xml") }
                try context.write(Data(sitemap.robots.utf8), to: "robots.txt")
            },
        ]
    }
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
}
