import Foundation
import Logging
import Synchronization

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
    /// Told how the build is going: the phase (`pages` while the walk makes pages, then
    /// `steps`, `links` and `swap`), the pages made so far and the routes discovered so far.
    /// Called concurrently from the walk, once per page, so keep it cheap; `holocron` draws its
    /// progress line with it.
    public var progress: (@Sendable (_ update: (phase: String, made: Int, discovered: Int)) -> Void)?
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
        progress: (@Sendable (_ update: (phase: String, made: Int, discovered: Int)) -> Void)? = nil
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

    /// Builds the site into `output`, replacing the previous site only on success.
    /// - Throws: ``FlowSiteError`` for screens that failed, broken links, an output folder that
    ///   isn't holocron's or must never be replaced, another build of the same output running,
    ///   a failed step, bad templates or file-system errors; the previous site is untouched.
    @discardableResult
    public func build(into output: URL) async throws -> BuildReport {
        let clock = ContinuousClock()
        let started = clock.now
        let search = coordinator.search
        let renderer = try PageRenderer(templates: templates, site: coordinator.siteInfo, baseURL: baseURL, searchIndexPath: search?.indexPath)
        let made = Mutex<[(RoutePath, (path: String, title: String, summary: String?, isDialog: Bool))]>([])
        let searchEntries = Mutex<[SiteSearch<C.R>.Entry]>([])
        // Routes made and routes seen (made, or linked from a made page), for `progress` only.
        let counts = Mutex<(made: Int, seen: Set<C.R>)>((0, [coordinator.startRoute]))
        let progress = progress
        let staging = try SiteWriter(output: output, force: force).beginStaging()
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: output.path)) != nil {
            logger.info("\(output.path) is a symbolic link: building into \(staging.output.path)")
        }
        if !staging.removedLeftovers.isEmpty {
            logger.info("Removed what killed builds left beside the output: \(staging.removedLeftovers.joined(separator: ", "))")
        }
        do {
            let walker = SiteWalker(coordinator: coordinator, concurrency: concurrency)
            let graph = try await walker.walk { visit in
                let html = try renderer.render(visit)
                try staging.write(html, to: visit.route.path.file)
                for (name, contents) in visit.page.files.sorted(by: { $0.key < $1.key }) {
                    try Page<C.R>.checkFileName(name, route: "\(visit.route)")
                    try staging.write(contents, to: visit.route.path.directory + name)
                }
                let page = (path: visit.route.path.file, title: visit.page.title, summary: visit.page.summary, isDialog: visit.presentation == .modal)
                made.withLock { $0.append((visit.route.path, page)) }
                if let entry = search?.entry(for: visit.route, page: visit.page) {
                    searchEntries.withLock { $0.append(entry) }
                }
                if let progress {
                    let linked = visit.page.document.linkedActions.map(\.route)
                    let (made, discovered) = counts.withLock { counts in
                        counts.made += 1
                        counts.seen.insert(visit.route)
                        counts.seen.formUnion(linked)
                        return (counts.made, counts.seen.count)
                    }
                    progress((phase: "pages", made: made, discovered: discovered))
                }
            }
            try graph.requireNoFailures()
            for failure in graph.recovered {
                logger.warning("\(failure.route) (\(failure.route.path)) shows its error screen: \(failure.error)")
            }
            let context = BuildStep.Context(
                pages: made.withLock { $0 }.sorted { $0.0 < $1.0 }.map(\.1),
                siteName: coordinator.siteInfo.name, baseURL: baseURL, staging: staging
            )
            var pipeline = builtInSteps(renderer: renderer)
            if let search {
                pipeline.append(BuildStep("search index") { context in
                    try context.write(try SiteSearch<C.R>.json(searchEntries.withLock { $0 }), to: search.indexPath)
                })
            }
            let pages = graph.routes.count
            progress?((phase: "steps", made: pages, discovered: pages))
            try await BuildStep.run(pipeline + steps, in: context, logger: logger)
            try beforeCommit(staging)
            progress?((phase: "links", made: pages, discovered: pages))

            let files = staging.files
            let links = try LinkChecker().check(files: Set(files.keys)) { page in
                try String(contentsOf: staging.folder.appendingPathComponent(page), encoding: .utf8)
            }
            if !links.broken.isEmpty { throw FlowSiteError(.brokenLinks(links.broken.map { ($0.page, $0.link) })) }
            let unchanged = staging.unchangedCount
            progress?((phase: "swap", made: pages, discovered: pages))
            try staging.commit()
            return BuildReport(
                pages: graph.routes.count,
                edges: graph.edges.count,
                links: links.internalReferences,
                files: files.count,
                bytes: files.values.reduce(0, +),
                unchangedFiles: unchanged,
                warnings: graph.recovered.map { "\($0.route): \($0.error)" },
                duration: clock.now - started
            )
        } catch {
            staging.discard()
            throw error
        }
    }

    /// The files every site has: its assets, the 404 page, and the sitemap with robots.txt
    /// (dialogs are not in the sitemap).
    private func builtInSteps(renderer: PageRenderer<C.R>) -> [BuildStep] {
        let assets = templates.assets
        let baseURL = baseURL
        return [
            BuildStep("assets") { context in
                for (name, data) in assets.sorted(by: { $0.key < $1.key }) {
                    try context.write(data, to: SiteWriter.assetsFolder + "/" + name)
                }
            },
            BuildStep("404 page") { context in
                try context.write(Data(try renderer.renderNotFound().utf8), to: "404.html")
            },
            BuildStep("sitemap") { context in
                let pages = context.pages.filter { !$0.isDialog }.map { String($0.path.dropLast("index.html".count)) }
                let sitemap = Sitemap(baseURL: baseURL, pages: pages)
                try context.write(Data(sitemap.xml.utf8), to: "sitemap.xml")
                try context.write(Data(sitemap.robots.utf8), to: "robots.txt")
            },
        ]
    }
}

/// What a build did, for the one-line summary.
public struct BuildReport: Sendable, CustomStringConvertible {
    /// Pages written, one per reachable route.
    public let pages: Int
    /// Navigation edges the walker followed.
    public let edges: Int
    /// Internal links and asset references checked.
    public let links: Int
    /// Files written, pages included.
    public let files: Int
    /// Bytes written.
    public let bytes: Int
    /// Files whose bytes were the same as in the previous site.
    public let unchangedFiles: Int
    /// Screens that showed their error screen.
    public let warnings: [String]
    /// How long the build took.
    public let duration: Duration

    /// One line: pages, links, bytes and seconds.
    public var description: String {
        let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        let kilobytes = Double(bytes) / 1024
        return "Built \(pages) pages (\(files) files, \(String(format: "%.1f", kilobytes)) KiB, \(unchangedFiles) unchanged), checked \(links) links in \(String(format: "%.2f", seconds)) s"
    }
}

/// The sitemap and robots.txt of a site.
struct Sitemap {
    let baseURL: String?
    /// Each page's folder from the site root (`""` for the front page), sorted.
    let pages: [String]

    /// Without a base URL the locations are relative to the site root; search engines need
    /// `--base-url` for absolute ones.
    var xml: String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#,
        ]
        for page in pages {
            lines.append("  <url><loc>\(escape((baseURL ?? "") + page))</loc></url>")
        }
        lines.append("</urlset>")
        return lines.joined(separator: "\n") + "\n"
    }

    var robots: String {
        var text = "User-agent: *\nAllow: /\n"
        if let baseURL { text += "Sitemap: \(baseURL)sitemap.xml\n" }
        return text
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
