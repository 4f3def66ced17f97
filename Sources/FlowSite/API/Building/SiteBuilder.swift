import Foundation
import Logging

/// Builds an app's whole site: renders every route's page, runs the build steps (built-in ones, then ``steps``),
/// checks every link, and only then swaps the new site in for the old one.
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
    /// Whether to replace an output folder that a FlowSite build did not make.
    public var force: Bool
    /// How many pages are made at once.
    public var concurrency: Int
    /// Where progress and warnings go.
    public var logger: Logger
    /// Steps of the app's own, run in order after the built-in ones, before the link check.
    public var steps: [BuildStep]
    /// The same app in other languages, each with a different ``SiteInfo/language``. With any, every language,
    /// ``coordinator``'s first, is a tree under its code (`en/…`, `es/…`) with the same pages at the same paths.
    public var otherLanguages: [C] = []
    /// Whether the site gets its flow map: pages under `flow/` that draw the app's screen kinds and transitions.
    public var flowMap: Bool = true
    /// Flow lint settings over the coordinator's own (``RootCoordinator/flowLint``).
    public var flowLint: FlowLintConfiguration?
    /// The transitions the app's tests take (see ``FlowGraph/Coverage``), for the flow map and flow lint.
    public var flowCoverage: FlowGraph.Coverage?
    /// Whether a flow lint finding at warning level or above fails the build.
    public var strictFlowLint: Bool = false
    /// Told how far the build is (see ``BuildProgress``). Called concurrently, once per page, so keep it cheap.
    public var progress: (@Sendable (_ update: BuildProgress) -> Void)?

    // What only the command line sets, through ``setCommandLineInputs(_:readAhead:fingerprints:)``.
    /// The caller's fingerprint of the build's inputs, kept in the manifest for ``unchangedSite(at:inputs:logger:)``.
    var inputs: String?
    /// Whether the build keeps a journal beside the site so that the next build makes only the pages that read a
    /// changed input (``inputFingerprints``). Needs ``StorableRoute`` routes and languages that don't fall back.
    var journalsEdits = false
    /// The fingerprint of every input pages can read (see ``journalsEdits``).
    var inputFingerprints: InputFingerprints?
    /// What was read of the output before the data was loaded; used only for a build into that folder.
    var readAhead: SiteReadAhead?
    /// Runs just before the link check (or the journal commit); tests use it to fail, wait or tamper midway.
    var beforeCommit: @Sendable (SiteStaging) throws -> Void = { _ in }

    /// A builder of `coordinator`'s site; every other setting has a default and a property of its own.
    public init(
        coordinator: C,
        templates: TemplateSet = .embedded,
        baseURL: String? = nil,
        force: Bool = false,
        concurrency: Int = max(2, ProcessInfo.processInfo.activeProcessorCount * 2),
        logger: Logger = Logger(label: "flowsite"),
        steps: [BuildStep] = [],
        progress: (@Sendable (_ update: BuildProgress) -> Void)? = nil
    ) {
        self.coordinator = coordinator
        self.templates = templates
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        self.force = force
        self.concurrency = concurrency
        self.logger = logger
        self.steps = steps
        self.progress = progress
    }

    /// What only the command line gives a build: its fingerprint of the inputs (for the manifest), what was read
    /// of the output ahead of the load, and every input's fingerprint (with them the build keeps a journal).
    package mutating func setCommandLineInputs(
        _ inputs: String?, readAhead: SiteReadAhead?, fingerprints: InputFingerprints?
    ) {
        self.inputs = inputs
        self.readAhead = readAhead
        journalsEdits = fingerprints != nil
        inputFingerprints = fingerprints
    }

    /// Builds the site into `output`, replacing the previous site only on success.
    ///
    /// Pages unchanged since the previous build are linked from it, not rendered (see ``BuildReport/rendered``).
    /// - Throws: ``FlowSiteError`` for failed screens, broken links, an output folder that isn't a FlowSite build's
    ///   or is protected, a concurrent build, a failed step, bad templates or file errors; the old site is untouched.
    @discardableResult
    public func build(into output: URL) async throws -> BuildReport {
        let started = ContinuousClock.now
        let languages = try languagePlans()
        if let report = try await buildFromJournal(into: output, languages: languages, started: started) {
            return report
        }
        return try await buildSite(languages, into: output, started: started)
    }

    /// The renderer (every template parsed), the flow lint settings and the build key.
    /// - Throws: ``FlowSiteError`` for a template that does not parse or a flow lint setting naming no rule.
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
            let lint = graph.lint(
                plan.lint, declared: declared, coverage: flowCoverage, site: coordinator.siteInfo,
                rules: plan.pluralRules)
            return (graph.flowGraph(lint: lint, coverage: flowCoverage), lint)
        }
        // A journey that breaks is a warning of the build itself, not only a line of lint's report.
        for finding in lint.active where finding.rule == .journeyBroken {
            logger.warning("\(finding.location.map { "\($0): " } ?? "")\(finding.message)")
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

    /// The most pages an edit may touch and still be made without a walk; above it a walk costs little more.
    static func patchLimit(pages: Int) -> Int { max(64, pages / 16) }

    /// The flow map's pages in the layout, with their files, and where the whole app's map drew each kind.
    static func renderFlowMap(
        _ map: FlowMapPages, with renderer: PageRenderer<C.R>
    ) throws -> (pages: [(path: String, html: [UInt8])], boxes: [FlowRecord.Box]?) {
        let pages = try map.pages()
        let files = try pages.map { page in
            (
                page.path.file,
                try renderer.renderStandalone(
                    at: page.path, title: page.title, summary: page.summary, trail: page.trail, content: page.content)
            )
        }
        return (files, pages.first?.boxes)
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

    /// A folder of the app's own named `name`, kept beside `output` (`.NAME.spare/NAME`) and made when missing.
    /// `nil` when a build may not write there (a protected or foreign output) or the spare path is not a folder.
    /// Key what it keeps on each input file's ``StableHash/init(identityOfFileAt:)``, so a file that is still the
    /// one read is not read again.
    public static func cacheFolder(named name: String, for output: URL) -> URL? {
        guard let target = try? SiteWriter(output: output).guardedOutput() else { return nil }
        var status = stat()
        if lstat(target.path, &status) == 0 {
            guard status.st_mode & S_IFMT == S_IFDIR, SiteLayout.isMarked(target) else { return nil }
        } else if errno != ENOENT {
            return nil
        }
        guard SiteLayout.prepareSpareFolder(of: target) else { return nil }
        let folder = SiteLayout.spareFolder(of: target).appendingPathComponent(name)
        mkdir(folder.path, 0o755)
        guard SiteLayout.isOwnFolder(folder) else { return nil }
        return folder
    }

    /// The report of the site at `output` when it was built from exactly `inputs` and is intact; `nil` otherwise.
    /// Like a build, it first removes the folders that killed builds left beside the output.
    public static func unchangedSite(at output: URL, inputs: String?, logger: Logger? = nil) -> BuildReport? {
        guard let inputs else { return nil }
        let clock = ContinuousClock()
        let started = clock.now
        let folder = open(output.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { return nil }
        defer { close(folder) }
        guard let check = SiteManifest.FileCheck(mappingManifestIn: folder) else { return nil }
        guard check.isMade(from: inputs) else { return nil }
        guard let site = check.unchangedSite(lanes: ProcessInfo.processInfo.activeProcessorCount) else { return nil }
        let removed = SiteWriter.removeLeftovers(besides: output)
        if !removed.isEmpty {
            logger?.info("Removed what killed builds left beside the output: \(removed.joined(separator: ", "))")
        }
        var report = BuildReport(
            pages: site.pages, rendered: 0, edges: 0, links: 0, files: site.files, bytes: site.bytes,
            unchangedFiles: site.files, warnings: [], duration: clock.now - started, sitemap: site.sitemap
        )
        report.recordedFlowLint = site.lint.map { .init(findings: $0.findings, line: $0.summary) }
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
        if let revision = site.revision { key.combine(revision) }
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

    /// The files every site has: assets, the 404 page, robots.txt and, with a base URL, the sitemap (no dialogs).
    /// `morePages` also go in the sitemap; with `languages`, sitemaps list translations and robots.txt is the root's.
    func builtInSteps(renderer: PageRenderer<C.R>, morePages: [String], languages: SiteLanguages? = nil) -> [BuildStep]
    {
        let assets = templates.assets
        let baseURL = baseURL
        let start = coordinator.startRoute.path
        return [
            BuildStep("assets") { context in
                for (name, data) in assets.sorted(by: { $0.key < $1.key }) {
                    try context.write(data, to: SiteLayout.assetsFolder + "/" + name)
                }
            },
            BuildStep("404 page") { context in
                try context.write(Data(try renderer.renderNotFound()), to: "404.html")
            },
            BuildStep("front page") { context in
                // A start route at a path of its own: the front page leads to it.
                guard !start.slugs.isEmpty else { return }
                let title = context.pages.first { $0.path == start.file }?.title ?? start.description
                try context.write(try renderer.renderFrontPage(leadingTo: start, title: title), to: "index.html")
            },
            BuildStep("sitemap") { context in
                // Without a base URL there is no sitemap, so the list of every page isn't made.
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
