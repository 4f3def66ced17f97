import FlowSite
import Foundation
import SWAPI
import Testing
@testable import StarWarsApp

/// Whole-site builds of the Star Wars app.
@Suite struct SiteTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func build(_ archive: SwapiArchive) async throws -> (URL, BuildReport) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("starwars-\(UUID().uuidString)")
        let report = try await SiteBuilder(coordinator: AppCoordinator(dependencies: .live(.archive(archive)))).build(into: folder)
        return (folder, report)
    }

    @Test func theGoldenSiteMatchesAFreshBuild() async throws {
        let (folder, _) = try await build(try EmbeddedSnapshot.load())
        defer { try? FileManager.default.removeItem(at: folder) }
        let difference = try SiteDifference(expected: folder, actual: Self.repository.appendingPathComponent("site"))
        #expect(difference.isEmpty, "site/ is not what the embedded snapshot builds: \(difference). Run `make site` and commit site/.")
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
            Fixtures.person(3, "<img src=x onerror=alert(1)> **bold** `code`"),
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
            #expect(!html.contains("<strong>bold</strong>") && !html.contains("<code>code</code>"), "\(path) turned data into markup")
        }
        let page = try String(contentsOf: folder.appendingPathComponent("characters/script-alert-1-script/index.html"), encoding: .utf8)
        #expect(page.contains("<h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>"))
        let link = try String(contentsOf: folder.appendingPathComponent("characters/index.html"), encoding: .utf8)
        #expect(link.contains(#"<a href="x-javascript-alert-1/index.html">[x](javascript:alert(1))</a>"#))
    }

    @Test func aMissingRelationLeadsToTheNotInTheArchiveDialog() async throws {
        let (folder, report) = try await build(Fixtures.archive)
        defer { try? FileManager.default.removeItem(at: folder) }
        let jabba = try String(contentsOf: folder.appendingPathComponent("characters/jabba-desilijic-tiure/index.html"), encoding: .utf8)
        #expect(jabba.contains(#"<a href="../../archive/missing/starships-99/index.html">Starship #99 (not in the archive)</a>"#))
        let dialog = try String(contentsOf: folder.appendingPathComponent("archive/missing/starships-99/index.html"), encoding: .utf8)
        #expect(dialog.contains(#"role="dialog""#))
        #expect(dialog.contains(#"<a class="close" href="../../../characters/jabba-desilijic-tiure/index.html""#))
        #expect(report.warnings.isEmpty)
    }

    @Test func breadcrumbsReadLikeTheHierarchy() async throws {
        let (folder, _) = try await build(try EmbeddedSnapshot.load())
        defer { try? FileManager.default.removeItem(at: folder) }
        for page in ["characters/luke-skywalker/index.html", "characters/greedo/index.html", "characters/padme-amidala/index.html"] {
            let html = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
            let trail = html.components(separatedBy: #"<nav aria-label="Breadcrumb""#)[1].components(separatedBy: "</nav>")[0]
            #expect(trail.contains(">Home</a>") && trail.contains(">Characters</a>"), "\(page): \(trail)")
        }
    }
}
