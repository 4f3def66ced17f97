import FlowSiteTesting
import Foundation
import Testing

@testable import FlowSite
@testable import SWAPI
@testable import StarWarsApp

/// Whole-site builds of the Star Wars app.
@Suite struct SiteTests {
    /// The repository, around the Star Wars app's package (`StarWars/`).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func build(
        _ archive: SwapiArchive, baseURL: String? = nil, coverage: FlowGraph.Coverage? = nil
    ) async throws -> (URL, BuildReport) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("starwars-\(UUID().uuidString)")
        var builder = SiteBuilder(coordinator: AppCoordinator(dependencies: .live(.archive(archive))), baseURL: baseURL)
        builder.flowCoverage = coverage
        let report = try await builder.build(into: folder)
        return (folder, report)
    }

    /// The coverage the app's coordinator tests record (`make site` builds with it).
    static var flowCoverage: FlowGraph.Coverage {
        get throws { try FlowGraph.Coverage.load(from: [repository.appendingPathComponent("StarWars/flow-coverage")]) }
    }

    /// The pages of a built site by path, as text.
    func pages(in folder: URL) throws -> [String: String] {
        try SiteDifference.files(in: folder).filter { $0.key.hasSuffix("index.html") }.mapValues {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Every page has a title of its own and a description, on SWAPI's data and on the
    /// fixtures, whose missing relation makes an alert dialog.
    @Test func everyPageHasItsOwnTitleAndADescription() async throws {
        for archive in [try EmbeddedSnapshot.load(), Fixtures.archive] {
            let (folder, _) = try await build(archive)
            defer { try? FileManager.default.removeItem(at: folder) }
            var titled: [String: String] = [:]
            for (path, html) in try pages(in: folder).sorted(by: { $0.key < $1.key }) {
                let title = try #require(
                    html.components(separatedBy: "<title>").dropFirst().first?.components(separatedBy: "</title>").first
                )
                #expect(titled[title] == nil, "\(path) and \(titled[title] ?? "") are both titled \(title)")
                titled[title] = path
                #expect(html.contains(#"<meta name="description" content=""#), "\(path) has no description")
            }
            #expect(titled.count > 5)
        }
    }

    /// With a base URL: a sitemap of exactly the indexable pages at the URLs they are linked
    /// by, each page's canonical URL the same, and dialogs marked noindex and left out.
    @Test func searchEnginesGetOneURLPerPageAndNoDialogs() async throws {
        let base = "https://holocron.example/sw/"
        let (folder, report) = try await build(Fixtures.archive, baseURL: base)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(report.sitemap)
        let sitemap = try String(contentsOf: folder.appendingPathComponent("sitemap.xml"), encoding: .utf8)
        let locations = Set(
            sitemap.components(separatedBy: "<loc>").dropFirst().map { $0.components(separatedBy: "</loc>")[0] })
        var dialogs = 0
        for (path, html) in try pages(in: folder) {
            if html.contains(#"<div class="dialog">"#) {
                dialogs += 1
                #expect(html.contains(#"<meta name="robots" content="noindex">"#), "\(path)")
                #expect(!locations.contains(base + path) && !html.contains("rel=\"canonical\""), "\(path)")
            } else {
                #expect(locations.contains(base + path), "\(path) is not in the sitemap")
                #expect(html.contains(#"<link rel="canonical" href="\#(base + path)">"#), "\(path)")
                #expect(html.contains(#"<meta property="og:url" content="\#(base + path)">"#), "\(path)")
            }
        }
        #expect(dialogs == 2, "About and the missing starship")
        #expect(locations.count == (try pages(in: folder)).count - dialogs)
        #expect(locations.contains(base + "characters/index.html") && !locations.contains(base + "characters/"))
    }

    /// Without a base URL there is no sitemap at all, rather than one with relative locations.
    @Test func withoutABaseURLThereIsNoSitemap() async throws {
        let (folder, report) = try await build(Fixtures.archive)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(
            !report.sitemap
                && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("sitemap.xml").path))
        #expect(
            try String(contentsOf: folder.appendingPathComponent("robots.txt"), encoding: .utf8)
                == "User-agent: *\nAllow: /\n")
    }

    @Test func theGoldenSiteMatchesAFreshBuild() async throws {
        let (folder, _) = try await build(try EmbeddedSnapshot.load(), coverage: try Self.flowCoverage)
        defer { try? FileManager.default.removeItem(at: folder) }
        let difference = try SiteDifference(expected: folder, actual: Self.repository.appendingPathComponent("site"))
        #expect(
            difference.isEmpty,
            "site/ is not what the embedded snapshot builds: \(difference). Run `make site` and commit site/.")
    }

    /// Every link to a place in a page (`#content`, `../index.html#finding-…`) finds an element with that id there:
    /// the link check reads files, not fragments. Over the golden site, which is a fresh build's.
    @Test func everyFragmentLinkOfTheGoldenSiteFindsItsTarget() throws {
        let site = Self.repository.appendingPathComponent("site")
        let pages = try SiteDifference.files(in: site).filter { $0.key.hasSuffix(".html") }
        let link = /href="([^"#]*)#([^"]+)"/
        var checked = 0
        for (path, data) in pages {
            let html = String(decoding: data, as: UTF8.self)
            for match in html.matches(of: link) {
                let file = String(match.output.1)
                let target =
                    file.isEmpty
                    ? path
                    : URL(fileURLWithPath: "/" + path).deletingLastPathComponent().appendingPathComponent(file)
                        .standardizedFileURL.path.dropFirst().description
                let text = pages[target].map { String(decoding: $0, as: UTF8.self) }
                #expect(
                    text?.contains("id=\"\(match.output.2)\"") == true,
                    "\(path) links to \(file)#\(match.output.2), which has no such id")
                checked += 1
            }
        }
        #expect(checked > 100)
    }

    @Test func aFullSWAPIDatasetGivesAPageForEveryResource() async throws {
        let archive = SyntheticArchive.make()
        let (folder, report) = try await build(archive)
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = try SiteDifference.files(in: folder)
        let catalog = Catalog(archive: archive)
        for kind in ResourceKind.allCases {
            for resource in archive.resources(of: kind) {
                let page = catalog.route(kind, id: resource.id).path.file
                #expect(site[page] != nil, "no page for \(kind) \(resource.id) at \(page)")
            }
        }
        let characterLists = site.keys.filter { $0 == "characters/index.html" || $0.hasPrefix("characters/page/") }
        #expect(characterLists.count == 9)
        #expect(site["characters/page/9/index.html"] != nil && site["characters/page/10/index.html"] == nil)
        // 260 resources, 6 kinds' list pages (9+1+6+4+4+4), home, search, about.
        #expect(report.pages == 260 + 28 + 3)
    }

    @Test func hostileNamesStayText() async throws {
        let people = [
            Fixtures.person(1, "<script>alert(1)</script>"),
            Fixtures.person(2, "[x](javascript:alert(1))"),
            Fixtures.person(3, "<img src=x onerror=alert(1)> **bold** `code`")
        ]
        let planet = Planet(name: "Tatooine", residents: people.map(\.url), films: [], url: Fixtures.link(.planets, 1))
        let film = Film(title: "A New Hope", episodeID: 4, characters: people.map(\.url), url: Fixtures.link(.films, 1))
        let (folder, _) = try await build(try SwapiArchive(people: people, films: [film], planets: [planet]))
        defer { try? FileManager.default.removeItem(at: folder) }
        for (path, data) in try SiteDifference.files(in: folder) where path.hasSuffix(".html") {
            let html = String(decoding: data, as: UTF8.self)
            #expect(!html.contains("<script>alert"), "\(path) runs data as a script")
            #expect(!html.contains("<img src=x"), "\(path) has a tag from data")
            #expect(!html.lowercased().contains("javascript:alert(1)\""), "\(path) links to javascript:")
            #expect(!html.contains("href=\"javascript"), "\(path) links to javascript:")
            #expect(
                !html.contains("<strong>bold</strong>") && !html.contains("<code>code</code>"),
                "\(path) turned data into markup")
        }
        let page = try String(
            contentsOf: folder.appendingPathComponent("characters/script-alert-1-script/index.html"), encoding: .utf8)
        #expect(page.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
        let link = try String(contentsOf: folder.appendingPathComponent("characters/index.html"), encoding: .utf8)
        #expect(link.contains(#"<a href="x-javascript-alert-1/index.html">[x](javascript:alert(1))</a>"#))
    }

    /// Names whose `<`, `"` or `&` share a grapheme cluster with a Prepend scalar or a combining
    /// mark, through every page that shows them (title, description, breadcrumbs, heading,
    /// lists, relations, dialogs) and the search index.
    @Test func namesThatFuseWithMarkupStayText() async throws {
        let names = [
            "Luke \u{605}<img src=x onerror=alert(1)// \u{605}>",
            "\"\u{301} autofocus onfocus=alert(1) x=\"",
            "Leia \u{6DD}'\u{6DD}&\u{6DD}<script\u{301}>alert(1)</script\u{301}>",
            "Nul\u{0}Esc\u{1B}[2JBell\u{7}"
        ]
        func archive(_ names: [String]) throws -> SwapiArchive {
            let people = names.enumerated().map {
                Fixtures.person($0.offset + 1, $0.element, films: [1], starships: [1])
            }
            let planet = Planet(
                name: names[0], residents: people.map(\.url), films: [], url: Fixtures.link(.planets, 1))
            let film = Film(title: names[1], episodeID: 4, characters: people.map(\.url), url: Fixtures.link(.films, 1))
            let ship = Starship(name: names[2], pilots: people.map(\.url), url: Fixtures.link(.starships, 1))
            return try SwapiArchive(people: people, films: [film], planets: [planet], starships: [ship])
        }
        let (folder, _) = try await build(try archive(names))
        defer { try? FileManager.default.removeItem(at: folder) }
        let shadowNames = names.map { String(repeating: "x", count: $0.unicodeScalars.count) }
        let (shadowFolder, _) = try await build(try archive(shadowNames))
        defer { try? FileManager.default.removeItem(at: shadowFolder) }

        let shadowPages = try SiteDifference.files(in: shadowFolder).filter { $0.key.hasSuffix(".html") }
        let allowed = Set(
            shadowPages.values.flatMap { HTMLTags.scan(String(decoding: $0, as: UTF8.self)).map(\.attributes) })
        let pages = try SiteDifference.files(in: folder).filter { $0.key.hasSuffix(".html") }
        #expect(pages.count == shadowPages.count)
        for (path, data) in pages {
            let html = String(decoding: data, as: UTF8.self)
            let tags = HTMLTags.scan(html)
            #expect(
                Set(tags.map(\.name)).isSubset(of: [
                    "!", "html", "/html", "head", "/head", "meta", "title", "/title", "link", "body", "/body", "a",
                    "/a", "header", "/header", "nav", "/nav", "ul", "/ul", "ol", "/ol", "li", "/li", "main", "/main",
                    "h1", "/h1", "h2", "/h2", "p", "/p", "section", "/section", "strong", "/strong", "em", "/em",
                    "mark", "/mark", "h3", "/h3",
                    "span", "/span", "footer", "/footer", "div", "/div", "form", "/form", "label", "/label", "input",
                    "script", "/script", "style", "/style", "br",
                    // The flow map's figure, SVG and tables, and its findings' and kinds' source lines.
                    "figure", "/figure", "figcaption", "/figcaption", "svg", "/svg", "g", "/g", "path", "/path", "rect",
                    "/rect", "text", "/text",
                    "code", "/code", "wbr",
                    "table", "/table", "thead", "/thead", "tbody", "/tbody", "tr", "/tr", "th", "/th", "td", "/td"
                ]), "\(path) has a tag from data: \(tags.map(\.name))")
            for tag in tags {
                #expect(
                    allowed.contains(tag.attributes),
                    "\(path): <\(tag.name)> has attributes \(tag.attributes) that only data could have added")
                for url in tag.urls {
                    #expect(
                        !url.contains(":") && !url.contains("<") && !url.contains("\""),
                        "\(path): a URL from data: \(url)")
                }
            }
            #expect(
                !html.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) },
                "\(path) holds a control character")
        }
        let luke = try #require(pages.first { $0.key.hasPrefix("characters/luke-") && $0.key.hasSuffix("/index.html") })
        #expect(HTMLTags.text(of: "h1", in: String(decoding: luke.value, as: UTF8.self)) == names[0])
        // The search index is JSON read by a script that sets textContent: it keeps the names as
        // they are, and JSON escapes their control characters.
        let index = try Data(contentsOf: folder.appendingPathComponent("search-index.json"))
        #expect(!index.contains(0x1B) && !index.contains(0))
        let entries = try #require(try JSONSerialization.jsonObject(with: index) as? [[String: Any]])
        #expect(entries.contains { $0["title"] as? String == names[3] })
    }

    @Test func aMissingRelationLeadsToTheNotInTheArchiveDialog() async throws {
        let (folder, report) = try await build(Fixtures.archive)
        defer { try? FileManager.default.removeItem(at: folder) }
        let jabba = try String(
            contentsOf: folder.appendingPathComponent("characters/jabba-desilijic-tiure/index.html"), encoding: .utf8)
        #expect(
            jabba.contains(
                #"<a href="../../archive/missing/starships-99/index.html" class="opens-dialog">"#
                    + #"Starship #99 (not in the archive)<span class="link-note"> (opens a dialog)</span></a>"#))
        let dialog = try String(
            contentsOf: folder.appendingPathComponent("archive/missing/starships-99/index.html"), encoding: .utf8)
        #expect(dialog.contains(#"<div class="dialog">"#) && !dialog.contains("aria-modal"))
        #expect(dialog.contains("<h1>Starship #99 is not in the archive</h1>"))
        #expect(dialog.contains(#"<a class="close" href="../../../characters/jabba-desilijic-tiure/index.html""#))
        #expect(report.warnings.isEmpty)
    }

    @Test func breadcrumbsReadLikeTheHierarchy() async throws {
        let (folder, _) = try await build(try EmbeddedSnapshot.load())
        defer { try? FileManager.default.removeItem(at: folder) }
        for page in [
            "characters/luke-skywalker/index.html", "characters/greedo/index.html",
            "characters/padme-amidala/index.html"
        ] {
            let html = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
            let trail = html.components(separatedBy: #"<nav aria-label="Breadcrumb""#)[1].components(
                separatedBy: "</nav>")[0]
            #expect(trail.contains(">Home</a>") && trail.contains(">Characters</a>"), "\(page): \(trail)")
        }
        // A later list page leads back to the first: Home › Characters › Page 2.
        let second = try String(
            contentsOf: folder.appendingPathComponent("characters/page/2/index.html"), encoding: .utf8)
        let trail = second.components(separatedBy: #"<nav aria-label="Breadcrumb""#)[1].components(
            separatedBy: "</nav>")[0]
        #expect(
            trail.contains(#"<a href="../../index.html">Characters</a>"#)
                && trail.contains(#"<span aria-current="page">Page 2</span>"#), "\(trail)")
        // A character found on a later page still reads Home › Characters › name.
        let anakin = try String(
            contentsOf: folder.appendingPathComponent("characters/anakin-skywalker/index.html"), encoding: .utf8)
        #expect(!anakin.contains(">Page 2</a>"))
    }
}
