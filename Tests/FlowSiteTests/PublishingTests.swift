import Foundation
import Testing

@testable import FlowSite

/// What a built site tells browsers, servers and search engines: the sitemap and robots.txt,
/// canonical and social tags, noindex on dialogs, the 404 page, pagination and the outline.
@Suite struct PublishingTests {
    static let app = GraphCoordinator(
        links: ["": ["a", "about"], "a": ["a/b"], "a/b": ["a/b/c"], "a/b/c": ["", "a"]],
        presentations: ["about": .modal],
        titles: ["": "Home"],
        navigation: [NavigationAction("A", to: "a")],
        summaries: ["": "The front page.", "a": "Page a.", "about": "About the graph."]
    )

    /// Builds `app` and returns its text files by path.
    func build(
        _ app: GraphCoordinator = Self.app, baseURL: String? = nil
    ) async throws -> (files: [String: String], report: BuildReport) {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await SiteBuilder(coordinator: app, baseURL: baseURL).build(
            into: folder.appendingPathComponent("site"))
        let files = try SiteDifference.files(in: folder.appendingPathComponent("site"))
            .filter { !$0.key.hasPrefix(".") }
            .mapValues { String(decoding: $0, as: UTF8.self) }
        return (files, report)
    }

    func pages(_ files: [String: String]) -> [String: String] {
        files.filter { $0.key.hasSuffix("index.html") }
    }

    // MARK: Sitemap, canonical and social tags

    @Test func withoutABaseURLThereIsNoSitemapAndNoAbsoluteURL() async throws {
        let (files, report) = try await build()
        #expect(files["sitemap.xml"] == nil, "a sitemap's locations must be absolute")
        #expect(files["robots.txt"] == "User-agent: *\nAllow: /\n")
        #expect(!report.sitemap && report.description.hasSuffix("; no sitemap.xml without a base URL"))
        for (path, html) in pages(files) {
            for tag in [#"rel="canonical""#, "og:", "twitter:"] {
                #expect(!html.contains(tag), "\(path) has \(tag) without a base URL")
            }
        }
    }

    @Test func withABaseURLTheSitemapListsExactlyTheURLsThePagesLinkTo() async throws {
        let (files, report) = try await build(baseURL: "https://example.com/docs")
        #expect(report.sitemap && !report.description.contains("sitemap"))
        #expect(files["robots.txt"] == "User-agent: *\nAllow: /\nSitemap: https://example.com/docs/sitemap.xml\n")
        let sitemap = try #require(files["sitemap.xml"])
        let locations = sitemap.components(separatedBy: "<loc>").dropFirst().map {
            $0.components(separatedBy: "</loc>")[0]
        }
        // The app's pages, then the flow map's: the whole map, and its one flow of one kind.
        let pages = [
            "index.html", "a/index.html", "a/b/index.html", "a/b/c/index.html", "flow/index.html",
            "flow/node/index.html"
        ]
        #expect(locations == pages.map { "https://example.com/docs/" + $0 })
        for location in locations {
            let path = String(location.dropFirst("https://example.com/docs/".count))
            let html = try #require(files[path])
            #expect(html.contains(#"<link rel="canonical" href="\#(location)">"#), "\(path)")
            #expect(html.contains(#"<meta property="og:url" content="\#(location)">"#), "\(path)")
            #expect(
                html.contains(#"<meta property="og:site_name" content="Graph">"#)
                    && html.contains(#"<meta name="twitter:card" content="summary">"#))
            // Every link to a page, read from the page's own URL, is a location of the sitemap.
            for link in LinkChecker.references(in: html) where link.hasSuffix("index.html") && !link.hasPrefix("http") {
                let absolute = try #require(URL(string: link, relativeTo: URL(string: location))).absoluteURL
                    .absoluteString
                #expect(
                    absolute.hasSuffix("about/index.html") || locations.contains(absolute),
                    "\(path) links to \(absolute), which the sitemap names otherwise")
            }
        }
        let home = try #require(files["index.html"])
        #expect(home.contains(#"<meta property="og:title" content="Home">"#))
        #expect(home.contains(#"<meta property="og:description" content="The front page.">"#))
        #expect(home.contains(#"<meta name="twitter:description" content="The front page.">"#))
    }

    @Test func dialogsAreNoindexWithoutCanonicalAndOutOfTheSitemap() async throws {
        let (files, _) = try await build(baseURL: "https://example.com/")
        let about = try #require(files["about/index.html"])
        #expect(about.contains(#"<meta name="robots" content="noindex">"#))
        #expect(!about.contains("canonical") && !(files["sitemap.xml"] ?? "").contains("about"))
        #expect(about.contains(#"<meta name="description" content="About the graph.">"#))
        // A static page can't be modal: no dialog role, no aria-modal; the frame is a div.
        #expect(!about.contains("role=\"dialog\"") && !about.contains("aria-modal"))
        #expect(
            about.contains(#"<div class="dialog">"#)
                && about.contains(#"aria-label="Close: back to the page you came from, or else to Home""#))
        for (path, html) in pages(files) where path != "about/index.html" {
            #expect(!html.contains("noindex"), "\(path)")
        }
    }

    @Test func everyPageHasTheSiteIcon() async throws {
        let (files, _) = try await build()
        #expect(files["assets/favicon.svg"]?.hasPrefix("<svg") == true)
        #expect(
            files["a/b/index.html"]?.contains(
                #"<link rel="icon" href="../../assets/favicon.svg" type="image/svg+xml">"#) == true)
        #expect(
            files["404.html"]?.contains(#"<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">"#) == true)
    }

    // MARK: The 404 page

    @Test func theNotFoundPageLinksFromTheRootPathAndCarriesItsStyle() async throws {
        let (files, _) = try await build()
        let page = try #require(files["404.html"])
        let stylesheet = try #require(files["assets/style.css"])
        #expect(page.contains("<style>\n" + stylesheet + "\n</style>"), "styled wherever a server shows it")
        #expect(page.contains(#"<meta name="robots" content="noindex">"#))
        // No link may depend on the depth it is shown at: each starts from the root path.
        let links = LinkChecker.references(in: page)
        #expect(links.contains("/assets/style.css") && links.contains("/index.html") && links.contains("/a/index.html"))
        #expect(links.allSatisfy { $0.hasPrefix("/") || $0.hasPrefix("#") }, "\(links)")
        #expect(page.contains(#"<script data-root="/" data-base-url="">"#))
    }

    @Test func withABaseURLTheNotFoundPageLinksFromItsPath() async throws {
        let (files, _) = try await build(baseURL: "https://example.com/docs")
        let page = try #require(files["404.html"])
        let links = LinkChecker.references(in: page)
        #expect(
            links.contains("/docs/assets/style.css") && links.contains("/docs/index.html")
                && links.contains("/docs/a/index.html"))
        #expect(links.allSatisfy { $0.hasPrefix("/docs/") || $0.hasPrefix("#") }, "\(links)")
        #expect(page.contains(#"<script data-root="/docs/" data-base-url="https://example.com/docs/">"#))
    }

    @Test func theNotFoundPagesLinksAreChecked() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var templates = TemplateSet.embedded
        templates.templates["404"] =
            #"<p><a href="{{root}}a/index.html">a</a> <a href="{{root}}nowhere/index.html">x</a></p>"#
        await #expect {
            try await SiteBuilder(coordinator: Self.app, templates: templates, baseURL: "https://example.com/docs/")
                .build(into: folder.appendingPathComponent("site"))
        } throws: { error in
            let text = (error as? FlowSiteError)?.description ?? ""
            return text.contains("404.html: /docs/nowhere/index.html") && !text.contains("/docs/a/index.html")
        }
    }

    @Test func aStylesheetThatWouldEndTheInlineStyleIsRefused() {
        var templates = TemplateSet.embedded
        templates.assets["style.css"] = Data("body { color: red } </STYLE><script>alert(1)</script>".utf8)
        #expect(throws: FlowSiteError.self) {
            _ = try PageRenderer(templates: templates, site: Self.app.siteInfo)
        }
    }

    // MARK: Pagination

    func numbers(_ links: PaginationLinks<Node>?) -> [String] {
        (links?.items ?? []).map { item in
            switch item {
            case .gap: "…"
            case .page(_, let number, let isCurrent): isCurrent ? "[\(number)]" : "\(number)"
            }
        }
    }

    @Test func paginationShowsTheEndsAndAWindowAroundThePage() {
        let pages = (1...20).map { NavigationAction("\($0)", to: Node("list/\($0)")) }
        func at(_ number: Int) -> PaginationLinks<Node>? {
            PaginationLinks(pages: pages, current: Node("list/\(number)"))
        }
        #expect(numbers(at(1)) == ["[1]", "2", "3", "…", "20"])
        #expect(numbers(at(4)) == ["1", "2", "3", "[4]", "5", "6", "…", "20"])
        #expect(numbers(at(10)) == ["1", "…", "8", "9", "[10]", "11", "12", "…", "20"])
        #expect(numbers(at(20)) == ["1", "…", "18", "19", "[20]"])
        #expect(at(1)?.previous == nil && at(1)?.next?.route == Node("list/2"))
        #expect(at(20)?.next == nil && at(20)?.previous?.route == Node("list/19"))
        #expect(at(10)?.linkedActions.map(\.label) == ["1", "8", "9", "11", "12", "20"])
        // A gap of one page shows the page: an ellipsis would hide it in as much room.
        #expect(
            numbers(PaginationLinks(pages: Array(pages.prefix(9)), current: Node("list/5"))) == [
                "1", "2", "3", "4", "[5]", "6", "7", "8", "9"
            ])
        #expect(PaginationLinks(pages: Array(pages.prefix(1)), current: Node("list/1")) == nil)
        #expect(PaginationLinks(pages: pages, current: Node("elsewhere")) == nil)
    }

    @Test func paginatedPagesShowANavigationThatTheWalkerFollows() async throws {
        var app = GraphCoordinator(links: ["": ["list"]], titles: ["": "Home"])
        app.paginated = ["list"] + (2...12).map { Node("list/page/\($0)") }
        app.presentations = Dictionary(
            uniqueKeysWithValues: app.paginated.dropFirst().map { ($0, Presentation.replace) })
        let (files, report) = try await build(app)
        // Only the pagination links the later pages: the walker reached all twelve through it.
        #expect(report.pages == 13)
        let page5 = try #require(files["list/page/5/index.html"])
        let nav = page5.components(separatedBy: #"<nav class="pagination" aria-label="Pagination">"#)[1].components(
            separatedBy: "</nav>")[0]
        #expect(nav.contains(#"<li class="pagination-step"><a href="../4/index.html" rel="prev">Previous</a></li>"#))
        #expect(nav.contains(#"<li class="pagination-step"><a href="../6/index.html" rel="next">Next</a></li>"#))
        #expect(nav.contains(#"<li><a href="../../index.html" aria-label="Page 1">1</a></li>"#))
        #expect(nav.contains(#"<li><span aria-current="page">5</span></li>"#))
        #expect(nav.contains(#"<li><a href="../12/index.html" aria-label="Page 12">12</a></li>"#))
        #expect(nav.components(separatedBy: #"<li class="pagination-gap">…</li>"#).count == 2, "one gap, before 12")
        #expect(!nav.contains("../10/index.html"), "pages outside the window are left out")
        let first = try #require(files["list/index.html"])
        #expect(!first.contains(#"rel="prev""#) && first.contains(#"<a href="page/2/index.html" rel="next">"#))
        #expect(!(files["index.html"] ?? "").contains("pagination"), "a page that isn't in a list has none")
    }

    @Test func theLayoutsWordsComeFromTheSite() async throws {
        var app = GraphCoordinator(links: ["": ["list"]], titles: ["": "Home"])
        app.paginated = ["list", "list/2"]
        app.labels = ["pagination": "Seiten", "next": "Weiter", "page": "Seite {number}", "skipToContent": "Zum Inhalt"]
        let (files, _) = try await build(app)
        let list = try #require(files["list/index.html"])
        #expect(list.contains(#"<nav class="pagination" aria-label="Seiten">"#) && list.contains(">Weiter</a>"))
        #expect(list.contains(#"aria-label="Seite 2">2</a>"#) && list.contains(">Zum Inhalt</a>"))
        #expect(list.contains(#"<nav aria-label="Main">"#), "a label the app leaves out reads as the default")
        #expect(files["404.html"]?.contains("<h1>Page not found</h1>") == true)
    }

    // MARK: Outline

    @Test func aStyledGroupIsASectionOnlyWhenItHasAHeading() throws {
        var document = MarkdownDocument<Node>()
        document.section(.related) { section in
            section.heading("Films")
            section.list([[.link("a", to: "a")]])
        }
        document.section(.results) { $0.list([[.text("no heading")]]) }
        let renderer = try PageRenderer(templates: .embedded, site: Self.app.siteInfo)
        let html = try renderer.contentHTML(document, at: .root)
        #expect(html.hasPrefix("<section class=\"related\">\n<h2>Films</h2>"))
        #expect(html.contains("<div class=\"results\">\n<ul>") && html.hasSuffix("</div>\n"))
    }
}
