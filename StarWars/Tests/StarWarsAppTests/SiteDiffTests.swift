import FlowSiteTesting
import Foundation
import SWAPI
import SnapshotTesting
import Testing

@testable import FlowSite
@testable import StarWarsApp

/// `holocron diff`'s comparison of two built Star Wars sites: what a reviewer reads about a
/// change to the data or the templates.
@Suite struct SiteDiffTests {
    static let lukeURL = "https://swapi.dev/api/people/1/"
    static let aNewHope = "https://swapi.dev/api/films/1/"

    func build(_ archive: SwapiArchive, templates: TemplateSet = .embedded, concurrency: Int = 4) async throws -> URL {
        try await buildWithReport(archive, templates: templates, concurrency: concurrency).folder
    }

    func buildWithReport(
        _ archive: SwapiArchive, templates: TemplateSet = .embedded, concurrency: Int = 4
    ) async throws -> (folder: URL, report: BuildReport) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("starwars-diff-\(UUID().uuidString)")
        let report = try await SiteBuilder(
            coordinator: AppCoordinator(dependencies: .live(.archive(archive))), templates: templates,
            concurrency: concurrency
        )
        .build(into: folder)
        return (folder, report)
    }

    func embedded() throws -> SwapiArchive { try EmbeddedSnapshot.load() }

    /// The archive with `edit` applied to its resources.
    func edited(
        _ edit: (inout [Person], inout [Film], inout [Planet], inout [Species], inout [Starship], inout [Vehicle]) ->
            Void
    ) throws -> SwapiArchive {
        let archive = try embedded()
        var (people, films, planets, species, starships, vehicles) = (
            archive.people, archive.films, archive.planets, archive.species, archive.starships, archive.vehicles
        )
        edit(&people, &films, &planets, &species, &starships, &vehicles)
        return try SwapiArchive(
            people: people, films: films, planets: planets, species: species, starships: starships, vehicles: vehicles)
    }

    /// Two builds of the same data diff as equal, whatever order their pages were made in.
    @Test func equalSitesAreEqual() async throws {
        let old = try await build(try embedded(), concurrency: 1)
        let new = try await build(try embedded(), concurrency: 8)
        defer { for folder in [old, new] { try? FileManager.default.removeItem(at: folder) } }
        let comparison = try SiteComparison(old: old, new: new)
        #expect(comparison.isEqual)
        #expect(comparison.pagesChanged == 0 && comparison.layout == nil && comparison.flow.isEmpty)
        let pages = try embedded().sitePageCount
        #expect(comparison.markdown().contains("No change: the two sites are the same (\(pages) pages)."))
        #expect(comparison.json().contains(#""equal" : true"#))
    }

    /// One character's height: one page changed, and the report names the row with both values.
    @Test func oneHeightChangedIsOneRowOfOnePage() async throws {
        let changed = try edited { people, _, _, _, _, _ in
            let luke = people.firstIndex { $0.url.url == Self.lukeURL }!
            people[luke].height = "180"
        }
        let old = try await build(try embedded())
        let new = try await build(changed)
        defer { for folder in [old, new] { try? FileManager.default.removeItem(at: folder) } }
        let comparison = try SiteComparison(old: old, new: new)
        #expect(!comparison.isEqual)
        #expect(comparison.pagesChanged == 1 && comparison.pagesAdded == 0 && comparison.pagesRemoved == 0)
        let character = try #require(comparison.kinds.first { $0.id == "characters-detail" })
        #expect(character.changed.map(\.page.path) == ["characters/luke-skywalker/index.html"])
        #expect(
            character.changed.first?.changes == [.init(section: nil, before: "Height: 172 cm", after: "Height: 180 cm")]
        )
        #expect(
            comparison.linksAdded.isEmpty && comparison.linksRemoved.isEmpty && comparison.flow.isEmpty
                && comparison.layout == nil)

        let markdown = comparison.markdown(
            .init(oldURL: "https://example.com/base/", newURL: "https://example.com/head/"))
        #expect(markdown.contains("| Character | 82 | 82 | 0 | 0 | 1 |"))
        #expect(markdown.contains("| Height | **172** cm | **180** cm |"))
        #expect(markdown.contains("[before](https://example.com/base/characters/luke-skywalker/)"))
        #expect(markdown.contains("[after](https://example.com/head/characters/luke-skywalker/)"))
        #expect(comparison.text().contains("Height: [172 → 180] cm"))
    }

    /// Luke's height edited with Tatooine renamed: the one distinct change comes first, before and
    /// after on one row near the top, and the rename on every page that names Tatooine is one row
    /// with its count.
    @Test func aDistinctChangeComesBeforeARippleGroupedOnce() async throws {
        let changed = try edited { people, _, planets, _, _, _ in
            people[people.firstIndex { $0.url.url == Self.lukeURL }!].height = "999"
            planets[planets.firstIndex { $0.name == "Tatooine" }!].name = "Tatooine Prime"
        }
        let old = try await build(try embedded())
        let new = try await build(changed)
        defer { for folder in [old, new] { try? FileManager.default.removeItem(at: folder) } }
        let comparison = try SiteComparison(old: old, new: new)
        #expect(comparison.pagesChanged == 22)
        let groups = comparison.groups
        #expect(groups.first?.pages.map(\.page.path) == ["characters/luke-skywalker/index.html"])
        #expect(groups.first?.before == "172" && groups.first?.after == "999")
        let rename = try #require(groups.first { $0.before == "Tatooine" && $0.after == "Tatooine Prime" })
        #expect(groups.count { $0.what == .text } == 2, "the height and the rename, nothing else")
        #expect(rename.pages.count == 22 && rename.kinds == 6)
        #expect(rename.pages.contains { $0.page.path == "characters/luke-skywalker/index.html" })

        let markdown = comparison.markdown(
            .init(oldURL: "https://example.com/base/", newURL: "https://example.com/head/"))
        let lines = markdown.split(separator: "\n")
        let height = try #require(lines.firstIndex { $0.contains("| Height | **172** cm | **999** cm |") })
        #expect(height < 10, "Luke's height is near the top:\n\(markdown)")
        let renamed = lines.filter { $0.contains("| **Tatooine** | **Tatooine Prime** |") }
        #expect(renamed.count == 1 && renamed.first?.hasPrefix("| 22 pages of 6 kinds: ") == true, "\(markdown)")
        #expect(comparison.text().contains("~ [Tatooine → Tatooine Prime] on 22 pages of 6 kinds:"))
    }

    /// One film gone: its page removed, every page that listed it changed, its links cut, the
    /// transitions into and out of films counted down by the right numbers.
    @Test func oneFilmRemovedIsCountedEverywhere() async throws {
        let original = try embedded()
        let changed = try edited { people, films, planets, species, starships, vehicles in
            films.removeAll { $0.url.url == Self.aNewHope }
            for index in people.indices { people[index].films.removeAll { $0.url == Self.aNewHope } }
            for index in planets.indices { planets[index].films.removeAll { $0.url == Self.aNewHope } }
            for index in species.indices { species[index].films.removeAll { $0.url == Self.aNewHope } }
            for index in starships.indices { starships[index].films.removeAll { $0.url == Self.aNewHope } }
            for index in vehicles.indices { vehicles[index].films.removeAll { $0.url == Self.aNewHope } }
        }
        let old = try await build(original)
        let new = try await build(changed)
        defer { for folder in [old, new] { try? FileManager.default.removeItem(at: folder) } }
        let comparison = try SiteComparison(old: old, new: new)

        let film = try #require(original.films.first { $0.url.url == Self.aNewHope })
        let inFilm = (
            people: original.people.count { $0.films.contains { $0.url == Self.aNewHope } },
            planets: original.planets.count { $0.films.contains { $0.url == Self.aNewHope } },
            species: original.species.count { $0.films.contains { $0.url == Self.aNewHope } },
            starships: original.starships.count { $0.films.contains { $0.url == Self.aNewHope } },
            vehicles: original.vehicles.count { $0.films.contains { $0.url == Self.aNewHope } }
        )
        func kind(_ id: String) throws -> SiteComparison.KindPages {
            try #require(comparison.kinds.first { $0.id == id })
        }
        #expect(try kind("films-detail").removed.map(\.path) == ["films/a-new-hope/index.html"])
        #expect(try kind("films-detail").pagesBefore == 6 && kind("films-detail").pagesAfter == 5)
        #expect(try kind("characters-detail").changed.count == inFilm.people)
        #expect(try kind("planets-detail").changed.count == inFilm.planets)
        #expect(try kind("species-detail").changed.count == inFilm.species)
        #expect(try kind("starships-detail").changed.count == inFilm.starships)
        #expect(try kind("vehicles-detail").changed.count == inFilm.vehicles)
        // The film list, the home page's count and the search page's list change too.
        #expect(
            try kind("films-list").changed.count == 1 && kind("home").changed.count == 1
                && kind("search").changed.count == 1)
        #expect(comparison.pagesAdded == 0 && comparison.pagesRemoved == 1)
        let changedDetails = inFilm.people + inFilm.planets + inFilm.species + inFilm.starships + inFilm.vehicles
        #expect(comparison.pagesChanged == changedDetails + 3)

        // Every character lost the film from its Films list, and nothing else.
        let character = try kind("characters-detail").changed.first {
            $0.page.path == "characters/luke-skywalker/index.html"
        }
        #expect(character?.changes == [.init(section: "Films", before: "Episode IV · A New Hope", after: nil)])

        // Links cut: the film's own to each resource, and each resource's to the film.
        let fromFilm =
            film.characters.count + film.planets.count + film.species.count + film.starships.count + film.vehicles.count
        #expect(comparison.linksRemoved.count { $0.from.path == "films/a-new-hope/index.html" } == fromFilm)
        #expect(comparison.linksRemoved.count { $0.to == "films/a-new-hope/index.html" } == changedDetails + 2)
        #expect(comparison.linksAdded.isEmpty)

        // The flow: one film fewer, and each transition to or from films down by its links.
        #expect(comparison.flow.kinds == [.init(id: "films-detail", name: "Film", pagesBefore: 6, pagesAfter: 5)])
        let toCharacters = try #require(
            comparison.flow.transitions.first { $0.from == "films-detail" && $0.to == "characters-detail" })
        #expect(toCharacters.linksBefore - toCharacters.linksAfter == film.characters.count)
        #expect(!comparison.flow.transitions.contains { $0.isAdded || $0.isRemoved })
        #expect(comparison.files.changed.contains("search-index.json"))
        #expect(comparison.layout == nil)
    }

    /// No character drives a vehicle any more: the review page draws Character → Vehicle cut,
    /// with Character and Vehicle where the old site's whole map drew them.
    @Test func aTransitionCutIsDrawnWhereTheOldMapDrewIt() async throws {
        let changed = try edited { people, _, _, _, _, _ in
            for index in people.indices { people[index].vehicles = [] }
        }
        let old = try await build(try embedded())
        let new = try await build(changed)
        defer { for folder in [old, new] { try? FileManager.default.removeItem(at: folder) } }
        let comparison = try SiteComparison(old: old, new: new)
        #expect(
            comparison.flow.transitions.contains {
                $0.from == "characters-detail" && $0.to == "vehicles-detail" && $0.isRemoved
            })

        let page = try comparison.reviewPage()
        #expect(page.contains("<title>Cut: Character → Vehicle, "), "\(page)")
        let map = try String(contentsOf: old.appendingPathComponent("flow/index.html"), encoding: .utf8)
        let before = try #require(FlowMapSVG.drawnBoxes(inPage: map))
        let after = try #require(FlowMapSVG.drawnBoxes(inPage: page))
        for name in ["Character", "Vehicle"] {
            let was = try #require(before.first { $0.escapedName == name }).centre
            let now = try #require(after.first { $0.escapedName == name }).centre
            // Each read back to within 0.05 pt of the centre it was drawn at.
            #expect(abs(was.x - now.x) <= 0.11 && abs(was.y - now.y) <= 0.11, "\(name) moved from \(was) to \(now)")
        }
    }

    /// A template edit changes every page's bytes and none's content: one layout change, with
    /// the text it added, one row of the changes, and no page listed as changed.
    @Test func aTemplateChangeIsOneLayoutChange() async throws {
        var templates = TemplateSet.embedded
        let footer = try #require(templates.templates["footer"])
        templates.templates["footer"] = footer.replacingOccurrences(
            of: "<footer class=\"site-footer\">",
            with: "<footer class=\"site-footer\">\n<p>Reviewed by the flow team.</p>")
        let old = try await build(try embedded())
        let new = try await build(try embedded(), templates: templates)
        defer { for folder in [old, new] { try? FileManager.default.removeItem(at: folder) } }
        let comparison = try SiteComparison(old: old, new: new)
        #expect(comparison.pagesChanged == 0)
        let layout = try #require(comparison.layout)
        let pages = try embedded().sitePageCount
        #expect(layout.pages == pages)
        #expect(layout.changes == [.init(section: nil, before: nil, after: "Reviewed by the flow team.")])
        let markdown = comparison.markdown()
        #expect(markdown.components(separatedBy: "\(pages) pages whose layout alone changed").count == 2)
        #expect(markdown.contains("Reviewed by the flow team\\."))
        #expect(comparison.flow.isEmpty)
    }

    /// Names from the data can't break the Markdown comment: no HTML, no way out of a table
    /// cell, no mention, no link.
    @Test func hostileNamesAreEscapedInTheMarkdownReport() async throws {
        let hostile =
            """
            Luke | </summary><script>alert(1)</script> @octocat #1 [x](javascript:alert(1)) `code` \u{202E}evil\n\
            | forged | row |
            """
        let changed = try edited { people, _, _, _, _, _ in
            let luke = people.firstIndex { $0.url.url == Self.lukeURL }!
            people[luke].name = hostile
            people[luke].hairColor = hostile
        }
        let old = try await build(try embedded())
        let new = try await build(changed)
        defer { for folder in [old, new] { try? FileManager.default.removeItem(at: folder) } }
        let comparison = try SiteComparison(old: old, new: new)
        #expect(comparison.pagesAdded == 1 && comparison.pagesRemoved == 1, "the slug follows the name")
        let markdown = comparison.markdown(
            .init(limit: 50, oldURL: "https://example.com/a/", newURL: "https://example.com/b/"))
        #expect(!markdown.contains("<script"))
        #expect(!markdown.contains("</summary><"))
        #expect(!markdown.contains("](javascript"))
        #expect(!markdown.contains("@octocat"))
        #expect(!markdown.contains("\u{202E}"))
        #expect(markdown.contains("alert"), "the name is shown, escaped")
        // Every table row has exactly as many cell separators as its table's header.
        var columns: Int?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            guard line.hasPrefix("|") else {
                columns = nil
                continue
            }
            let separators = Self.unescapedPipes(line)
            if columns == nil { columns = separators }
            #expect(separators == columns, "a row left its table: \(line)")
        }
    }

    /// The Star Wars flow as a snapshot: the committed reference is the flow a reviewer
    /// approved; a test that builds another flow fails with the flow's difference as its message.
    @Test func theFlowSnapshotFailsWithTheFlowsDifference() async throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("starwars-flow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: site) }
        let report = try await SiteBuilder(coordinator: AppCoordinator(dependencies: .live(.archive(try embedded()))))
            .build(into: site)
        assertSnapshot(of: report, as: .flow, named: "starwars")

        let references = FileManager.default.temporaryDirectory.appendingPathComponent(
            "flow-snapshots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: references) }
        _ = verifySnapshot(of: report, as: .flow, named: "flow", record: .all, snapshotDirectory: references.path)
        #expect(
            verifySnapshot(of: report, as: .flow, named: "flow", record: .never, snapshotDirectory: references.path)
                == nil)

        let changed = try edited { _, films, _, _, _, _ in films.removeAll { $0.url.url == Self.aNewHope } }
        let other = FileManager.default.temporaryDirectory.appendingPathComponent("starwars-flow-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: other) }
        let changedReport = try await SiteBuilder(coordinator: AppCoordinator(dependencies: .live(.archive(changed))))
            .build(into: other)
        let message = try #require(
            verifySnapshot(
                of: changedReport, as: .flow, named: "flow", record: .never, snapshotDirectory: references.path))
        #expect(message.contains("The flow changed:"))
        #expect(message.contains("~ screen kind Film (films-detail): 6 → 5 pages"))
        #expect(message.contains("~ transition Film → Character:"))
        #expect(!message.contains("@@"), "a flow difference, not a line diff: \(message)")
    }

    /// A change that cuts A New Hope's link to Tatooine reads, first, as the journey it breaks; the journey's
    /// snapshot holds its story and fails with the new one.
    @Test func cuttingAFilmsPlanetBreaksItsJourneyInTheDiffAndTheSnapshot() async throws {
        let tatooine = "https://swapi.dev/api/planets/1/"
        let changed = try edited { _, films, _, _, _, _ in
            let film = films.firstIndex { $0.url.url == Self.aNewHope }!
            films[film].planets.removeAll { $0.url == tatooine }
        }
        // Two builds, each read twice: by `diff` from its folder and by the snapshot from its report.
        let (old, report) = try await buildWithReport(try embedded())
        let (new, broken) = try await buildWithReport(changed)
        defer { for folder in [old, new] { try? FileManager.default.removeItem(at: folder) } }
        let text = try SiteComparison(old: old, new: new).text()
        let journeys = try #require(text.components(separatedBy: "\n\n").dropFirst().first)
        #expect(journeys.hasPrefix("Journeys ("), "journeys first: \(text)")
        #expect(journeys.contains("! Journey 'Read a film's planets' breaks at step 3: no link"))
        #expect(journeys.contains("'From the home page to Luke's homeworld'") == false, "\(journeys)")

        assertSnapshot(of: report, as: .journey("Read a film's planets"), named: "starwars")
        let message = try #require(
            verifySnapshot(
                of: broken, as: .journey("Read a film's planets"), named: "starwars", record: .never))
        #expect(message.contains("+breaks at step 3: Journey 'Read a film's planets' breaks at step 3"))
    }

    static func unescapedPipes(_ line: Substring) -> Int {
        var count = 0
        var escaped = false
        for character in line {
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "|" {
                count += 1
            }
        }
        return count
    }
}
