import Foundation
import Logging

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
    /// The same app in other languages, each coordinator's ``SiteInfo/language`` different.
    /// When there are any, the site is multilingual: every language, ``coordinator``'s first,
    /// is a tree under its code (`en/…`, `es/…`) with the same pages at the same paths; every
    /// page has `hreflang` alternates and a language switcher that keeps the reader on the same
    /// screen; each language has its own search index, flow map, 404 page and (with a base URL)
    /// sitemap with alternates; the root lists the languages (a plain page, no script). All
    /// languages are built into one staging folder and swapped in together.
    public var otherLanguages: [C] = []
    /// Whether the site gets its flow map: pages under `flow/` that draw the app's screen
    /// kinds and transitions (laid out by Graphviz), linked from the footer.
    public var flowMap: Bool = true
    /// Flow lint settings over the coordinator's own (``RootCoordinator/flowLint``): a
    /// configuration file's, say. Every build runs flow lint; ``BuildReport/flowLint`` has what
    /// it found.
    public var flowLint: FlowLintConfiguration?
    /// The transitions the app's tests take (see ``FlowGraph/Coverage``): the flow map then
    /// draws those no test takes apart and counts them per flow, and flow lint counts them
    /// (its `untested-transition` rule, when turned on, reports each).
    public var flowCoverage: FlowGraph.Coverage?
    /// Whether a flow lint finding at warning level or above fails the build (before the new
    /// site replaces the old).
    public var strictFlowLint: Bool = false
    /// What the build's inputs were (data, templates, options), as the caller fingerprints them;
    /// kept in the site's manifest so ``unchangedSite(at:inputs:logger:)`` can tell a rebuild with
    /// nothing changed.
    package var inputs: String?
    /// Told how the build is going: the phase (`pages` while the walk makes pages, then
    /// `steps`, `links` and `swap`), the pages made so far and the routes discovered so far.
    /// Called concurrently from the walk, once per page, so keep it cheap; `holocron` draws its
    /// progress line with it.
    public var progress: (@Sendable (_ update: (phase: String, made: Int, discovered: Int)) -> Void)?
    /// Whether the build writes down its pages beside the site (`.NAME.spare/journal`, see
    /// `BuildJournal`), so that the next build into the same output, in another process, makes
    /// only the pages that read an input whose fingerprint changed (``inputFingerprints``) and
    /// writes its site as a new generation that shares every other file. Needs routes that can
    /// be stored (``StorableRoute``); in a multilingual site, languages that don't fall back.
    package var journalsEdits = false
    /// The fingerprint of every input pages can read, made by the app from its data for this
    /// build (see ``journalsEdits``).
    package var inputFingerprints: InputFingerprints?
    /// What was read of the output before the data was loaded (``SiteReadAhead``); used only
    /// for a build into the folder it read.
    package var readAhead: SiteReadAhead?
    /// Runs just before the link check (or, for an edit built from the journal, the commit);
    /// tests use it to fail, wait or tamper midway.
    var beforeCommit: @Sendable (SiteStaging) throws -> Void = { _ in }

    /// A builder of `coordinator`'s site; every other setting has a default and a property of its
    /// own.
    ///
    /// ```swift
    /// let report = try await SiteBuilder(coordinator: app, baseURL: "https://example.com/").build(into: output)
    /// ```
    public init(
        coordinator: C,
        templates: TemplateSet = .embedded,
        baseURL: String? = nil,
        force: Bool = false,
        concurrency: Int = max(2, ProcessInfo.processInfo.activeProcessorCount * 2),
        logger: Logger = Logger(label: "flowsite"),
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
        let started = ContinuousClock.now
        let languages = try languagePlans()
        // An edit after a build that kept a journal makes only the pages it reaches.
        if let report = try await buildFromJournal(into: output, languages: languages, started: started) {
            return report
        }
        return try await buildSite(languages, into: output, started: started)
    }

    /// The renderer (every template parsed), the flow lint settings and the build key.
    /// - Throws: ``FlowSiteError`` for a template that does not parse or flow lint settings
    ///   that name no rule.
    func makePlan() throws -> BuildPlan<C.R> {
        let search = coordinator.search
        let renderer = try PageRenderer(
            templates: templates, site: coordinator.siteInfo, baseURL: baseURL, searchIndexPath: search?.indexPath,
            flowMap: flowMap
        )
        var lint = coordinator.flowLint
        if let flowLint { lint = lint.merging(flowLint) }
        try lint.validate()
        let site = coordinator.siteInfo
        // A language ICU has no rules for counts as English does (`one` for 1, else `other`).
        let rules = try? PluralRules(language: site.language)
        if let warning = Wording.fallbackWarning(language: site.language, labels: site.labels, rules: rules) {
            logger.warning("\(warning)")
        }
        return BuildPlan(
            renderer: renderer, lint: lint, pluralRules: rules, buildKey: buildKey(searchIndexPath: search?.indexPath))
    }

    /// The flow of the graph's screen kinds and what flow lint finds in it.
    /// - Throws: ``FlowSiteError`` when ``strictFlowLint`` is on and lint finds a warning.
    func flowAndLint(
        of graph: SiteGraph<C.R>, plan: BuildPlan<C.R>, phases: PhaseClock
    ) throws -> (flow: FlowGraph, lint: FlowLintReport) {
        let declared = coordinator.declaredScreens.map(\.screenKind)
        let (flow, lint) = phases.measure(.flow) {
            (
                graph.flowGraph,
                graph.lint(
                    plan.lint, declared: declared, coverage: flowCoverage, site: coordinator.siteInfo,
                    rules: plan.pluralRules)
            )
        }
        if strictFlowLint && lint.failsStrict {
            throw FlowSiteError(
                .flowLintFailed(summary: lint.summaryLine, findings: lint.active.map { "\($0.rule.id): \($0.message)" })
            )
        }
        return (flow, lint)
    }

    /// Whether this build's pages may show fallback text (see ``StringTable/shownInFallbackLanguage(_:)``).
    var fallsBack: Bool { coordinator.siteInfo.fallbackLanguage != nil }

    /// The most pages an edit may touch for them to be made again without a walk: above it, a
    /// walk costs little more than making them, and making them first would be wasted when one
    /// leads elsewhere.
    static func patchLimit(pages: Int) -> Int { max(64, pages / 16) }

    /// The flow map's pages in the layout, with their files.
    static func renderFlowMap(
        _ map: FlowMapPages, with renderer: PageRenderer<C.R>
    ) throws -> [(path: String, html: [UInt8])] {
        try map.pages().map { page in
            (
                page.path.file,
                try renderer.renderStandalone(
                    at: page.path, title: page.title, summary: page.summary, trail: page.trail, content: page.content)
            )
        }
    }

    /// Whether the page file `a` comes before `b` in the order of their routes' paths (slug by
    /// slug, a folder before what is inside it), without making the paths again.
    static func pathPrecedes(_ a: String, _ b: String) -> Bool {
        // Compare the folders ("characters/luke/"), with "/" lower than any slug character.
        let suffix = "index.html".utf8.count
        var a = a
        var b = b
        return a.withUTF8 { a in
            b.withUTF8 { b in
                let a = a.dropLast(suffix)
                let b = b.dropLast(suffix)
                for (x, y) in zip(a, b) where x != y {
                    if x == UInt8(ascii: "/") { return true }
                    if y == UInt8(ascii: "/") { return false }
                    return x < y
                }
                return a.count < b.count
            }
        }
    }

    /// A folder of the app's own named `name` (such as its decoded data), kept with the spare
    /// generation beside `output` (`.NAME.spare/NAME`) and made when missing. `nil` unless a
    /// build may write there: `output` (through any link) is not the root, the home or the
    /// current folder or above one, and is either not there yet or a site holocron made (a
    /// build refused for a folder it did not make leaves nothing beside it); and `nil` when the
    /// spare folder is something else (a file, a link), which is never written into.
    public static func cacheFolder(named name: String, for output: URL) -> URL? {
        guard let target = try? SiteWriter(output: output).guardedOutput() else { return nil }
        var status = stat()
        if lstat(target.path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR,
                access(target.appendingPathComponent(SiteWriter.markerName).path, F_OK) == 0
            else { return nil }
        } else if errno != ENOENT {
            return nil
        }
        guard SiteWriter.prepareSpareFolder(of: target) else { return nil }
        let folder = SiteWriter.spareFolder(of: target).appendingPathComponent(name)
        mkdir(folder.path, 0o755)
        guard SiteWriter.isOwnFolder(folder) else { return nil }
        return folder
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
    package static func unchangedSite(at output: URL, inputs: String?, logger: Logger? = nil) -> BuildReport? {
        guard let inputs else { return nil }
        let clock = ContinuousClock()
        let started = clock.now
        let folder = open(output.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        defer { close(folder) }
        guard let check = SiteManifest.IntactCheck(in: folder) else { return nil }
        guard check.isMade(from: inputs) else { return nil }
        guard let site = check.result(lanes: ProcessInfo.processInfo.activeProcessorCount) else { return nil }
        let removed = SiteWriter.removeLeftovers(besides: output)
        if !removed.isEmpty {
            logger?.info("Removed what killed builds left beside the output: \(removed.joined(separator: ", "))")
        }
        var report = BuildReport(
            pages: site.pages, rendered: 0, edges: 0, links: 0, files: site.files, bytes: site.bytes,
            unchangedFiles: site.files, warnings: [], duration: clock.now - started, sitemap: site.sitemap
        )
        report.recordedFlowLint = site.lint.map { ($0.findings, $0.summary) }
        return report
    }

    /// What every page's bytes depend on besides its own state: the templates, the site's
    /// information, the base URL, the search index's place and the program itself.
    func buildKey(searchIndexPath: String?) -> StableHash {
        var key = StableHash()
        key.combine(ProgramIdentity.current)
        for (name, source) in templates.templates.sorted(by: { $0.key < $1.key }) {
            key.combine(name)
            key.combine(source)
        }
        let site = coordinator.siteInfo
        for text in [
            site.name, site.language, site.footer, baseURL ?? "-", searchIndexPath ?? "-", site.fallbackLanguage ?? "-"
        ] { key.combine(text) }
        for (name, label) in site.labels.sorted(by: { $0.key < $1.key }) {
            key.combine(name)
            key.combine(label)
        }
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
        hash.combine(visit.path.description)
        hash.combine(visit.page.title)
        hash.combine(visit.page.summary ?? "\u{0}")
        for (name, value) in visit.page.templateValues.sorted(by: { $0.key < $1.key }) {
            hash.combine(name)
            hash.combine(value)
        }
        for crumb in visit.breadcrumbs {
            hash.combine(crumb.title)
            hash.combine(crumb.path.description)
        }
        hash.combine(visit.presentation.rawValue)
        for text in visit.fallbackTexts { hash.combine(text) }
        if let presenter = visit.presenter {
            hash.combine(presenter.title)
            hash.combine(presenter.path.description)
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
    /// In a multilingual site (`languages`), each language's sitemap lists every page's
    /// translations as `xhtml:link` alternates, and robots.txt is the root's alone.
    func builtInSteps(renderer: PageRenderer<C.R>, morePages: [String], languages: SiteLanguages? = nil) -> [BuildStep]
    {
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
                // Without a base URL there is no sitemap, and robots.txt names none: the list of
                // every page (tens of megabytes at 1000x, at the build's peak) isn't made.
                let pages =
                    baseURL == nil
                    ? [] : (context.pages.filter { !$0.isDialog }.map(\.path) + morePages).sorted(by: Self.pathPrecedes)
                var sitemap = Sitemap(baseURL: baseURL, pages: pages)
                sitemap.alternates = languages.map { languages in { languages.sitemapAlternates(of: $0) } }
                if let xml = sitemap.xml { try context.write(Data(xml.utf8), to: "sitemap.xml") }
                if languages == nil { try context.write(Data(sitemap.robots.utf8), to: "robots.txt") }
            }
        ]
    }
}
