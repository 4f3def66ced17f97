import Foundation
import Logging
import Synchronization

/// Builds an app's whole site: walks every route, renders and writes each page as it is made,
/// adds the assets, `404.html`, `sitemap.xml` and `robots.txt`, checks every link, and only then
/// swaps the new site in for the old one.
///
/// ```swift
/// let builder = SiteBuilder(coordinator: AppCoordinator(dependencies: .live))
/// let report = try await builder.build(into: URL(fileURLWithPath: "site"))
/// print(report.summary)
/// ```
public struct SiteBuilder<C: RootCoordinator>: Sendable {
    /// The app's root coordinator.
    public var coordinator: C
    /// The templates and assets.
    public var templates: TemplateSet
    /// The absolute URL the site is served from, for the sitemap, robots.txt and 404 page.
    public var baseURL: String?
    /// Whether to replace an output folder holocron did not make.
    public var force: Bool
    /// How many pages are made at once.
    public var concurrency: Int
    /// Where progress and warnings go.
    public var logger: Logger
    /// Runs after the pages are written and before the link check; tests use it to fail midway.
    public var beforeCommit: @Sendable (SiteStaging) throws -> Void

    public init(
        coordinator: C,
        templates: TemplateSet = .embedded,
        baseURL: String? = nil,
        force: Bool = false,
        concurrency: Int = max(2, ProcessInfo.processInfo.activeProcessorCount * 2),
        logger: Logger = Logger(label: "holocron"),
        beforeCommit: @escaping @Sendable (SiteStaging) throws -> Void = { _ in }
    ) {
        self.coordinator = coordinator
        self.templates = templates
        self.baseURL = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        self.force = force
        self.concurrency = concurrency
        self.logger = logger
        self.beforeCommit = beforeCommit
    }

    /// Builds the site into `output`, replacing the previous site only on success.
    /// - Throws: ``FlowSiteError`` for screens that failed, broken links, an output folder that
    ///   isn't holocron's or must never be replaced, another build of the same output running,
    ///   bad templates or file-system errors; the previous site is untouched.
    @discardableResult
    public func build(into output: URL) async throws -> BuildReport {
        let clock = ContinuousClock()
        let started = clock.now
        let search = coordinator.search
        let renderer = try PageRenderer(templates: templates, site: coordinator.siteInfo, baseURL: baseURL, searchIndexPath: search?.indexPath)
        let searchEntries = Mutex<[SiteSearch<C.R>.Entry]>([])
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
                for resource in visit.page.resources {
                    try staging.write(resource.contents, to: visit.route.path.directory + resource.name)
                }
                if let entry = search?.entry(for: visit.route, page: visit.page) {
                    searchEntries.withLock { $0.append(entry) }
                }
            }
            try graph.requireNoFailures()
            for failure in graph.recovered {
                logger.warning("\(failure.route) (\(failure.route.path)) shows its error screen: \(failure.error)")
            }
            try writeSiteFiles(graph: graph, renderer: renderer, into: staging)
            if let search {
                try staging.write(try SiteSearch<C.R>.json(searchEntries.withLock { $0 }), to: search.indexPath)
            }
            try beforeCommit(staging)

            let files = staging.files
            let links = try LinkChecker().check(files: Set(files.keys)) { page in
                try String(contentsOf: staging.folder.appendingPathComponent(page), encoding: .utf8)
            }
            if !links.broken.isEmpty { throw FlowSiteError(.brokenLinks(links.broken)) }
            let unchanged = staging.unchangedCount
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

    private func writeSiteFiles(graph: SiteGraph<C.R>, renderer: PageRenderer<C.R>, into staging: SiteStaging) throws {
        for (name, data) in templates.assets.sorted(by: { $0.key < $1.key }) {
            try staging.write(data, to: SiteWriter.assetsFolder + "/" + name)
        }
        try staging.write(try renderer.renderNotFound(), to: "404.html")
        let pages = graph.routes
            .filter { graph.records[$0]?.presentation != .modal }
            .map(\.path)
            .sorted()
        try staging.write(Sitemap(baseURL: baseURL, pages: pages).xml, to: "sitemap.xml")
        try staging.write(Sitemap(baseURL: baseURL, pages: pages).robots, to: "robots.txt")
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
    let pages: [RoutePath]

    /// Without a base URL the locations are relative to the site root; search engines need
    /// `--base-url` for absolute ones.
    var xml: String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#,
        ]
        for page in pages {
            lines.append("  <url><loc>\(escape((baseURL ?? "") + page.directory))</loc></url>")
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
