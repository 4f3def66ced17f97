import Foundation
import Testing

@testable import FlowSite

/// The journeys' pages of the shop of ``JourneyTests`` (a tab bar, a dialog): an index, a story per journey with
/// its link marked, the journey drawn strong on the map, and each kind's journeys on its own page.
@Suite struct JourneyPagesTests {
    /// A coverage file whose one test opens item 1 from the shop and the sign-in dialog from it.
    func coverage(in folder: URL) throws -> FlowGraph.Coverage {
        let file = FlowCoverageFile(
            tests: [
                "likingNeedsSigningIn()": [
                    .init(from: "shop", to: "item", presentation: .push),
                    .init(from: "item", to: "sign-in", presentation: .modal)
                ]
            ],
            journeys: [
                "likingNeedsSigningIn()": [
                    .init(path: "/", kind: "shop"), .init(path: "/items/1/", kind: "item", presentation: .push),
                    .init(path: "/sign-in/", kind: "sign-in", presentation: .modal),
                    .init(path: "/items/2/", kind: "item", presentation: .push, from: "/")
                ]
            ])
        let url = folder.appendingPathComponent("ShelfTests.LikingTests.json")
        try Data(file.json().utf8).write(to: url)
        return try FlowGraph.Coverage.load(from: [url])
    }

    func build(_ app: ShelfApp, coverage: FlowGraph.Coverage? = nil) async throws -> (site: URL, report: BuildReport) {
        let site = try temporaryFolder().appendingPathComponent("site")
        var builder = SiteBuilder(coordinator: app)
        builder.flowCoverage = coverage
        return (site, try await builder.build(into: site))
    }

    func page(_ path: String, in site: URL) throws -> String {
        try String(contentsOf: site.appendingPathComponent(path), encoding: .utf8)
    }

    @Test func theIndexListsEachJourneyWithItsPagesTapsSourceAndState() async throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let app = ShelfApp(journeys: [JourneyTests.likeALamp, JourneyTests.openSaved])
        let (site, report) = try await build(app, coverage: try coverage(in: scratch))
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let index = try page("flow/journeys/index.html", in: site)
        #expect(
            index.contains("The app declares 2, and every build takes them over the site’s pages; its tests take 1."))
        #expect(
            index.contains(
                """
                <tr><th scope="row"><a href="sign-in-to-like-a-lamp/index.html">Sign in to like a lamp</a></th>\
                <td>Shop › Lamp 1 › Sign in</td><td class="number">2</td><td>declared by the app</td><td>holds</td></tr>
                """))
        // A test's journey reads as a sentence; the pages it opened from one page follow it after a comma.
        #expect(
            index.contains(
                """
                <a href="liking-needs-signing-in/index.html">Liking needs signing in</a></th>\
                <td>Shop › Lamp 1 › Sign in, Lamp 2</td><td class="number">3</td><td>a test</td>
                """))
        // The whole map leads to them; the build's flow carries them for tools.
        #expect(try page("flow/index.html", in: site).contains("<a href=\"journeys/index.html\">All journeys</a>"))
        #expect(report.flow?.journeys.map(\.source) == ["declared", "declared", "test"])
    }

    @Test func aStoryShowsEachPageAsACardWithTheLinkTakenMarked() async throws {
        let (site, _) = try await build(ShelfApp(journeys: [JourneyTests.likeALamp, JourneyTests.openSaved]))
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let story = try page("flow/journeys/sign-in-to-like-a-lamp/index.html", in: site)
        let cards = story.components(separatedBy: "<li class=\"journey-card\">").dropFirst()
        #expect(cards.count == 3)
        #expect(cards.map { $0.contains("<h2><a href=\"../../../") } == [true, true, true])
        #expect(cards.first?.contains("<a href=\"../../../index.html\">Shop</a>") == true)
        #expect(cards.first?.contains("Follows <mark>Lamp 1</mark> · push: opens over the page") == true)
        let second = Array(cards)[1]
        #expect(second.contains("<a href=\"../../../items/1/index.html\">Lamp 1</a>"))
        #expect(second.contains("Follows <mark>Sign in to like it</mark> · modal: a dialog over the page"))
        #expect(cards.last?.contains("The journey ends here.") == true)
        // Drawn on the whole map: its three kinds strong, the others (Saved, the tab bar) faded.
        let svg = try #require(story.components(separatedBy: "<svg class=\"flow-graph\"").last)
        #expect(svg.components(separatedBy: "class=\"kind focus\"").count - 1 == 3)
        #expect(svg.contains("class=\"kind context\""))
        #expect(svg.components(separatedBy: "<g class=\"transition ").count - 1 > 2)
        #expect(svg.components(separatedBy: "<g class=\"transition push\">").count - 1 == 1)
        #expect(svg.components(separatedBy: "<g class=\"transition modal\">").count - 1 == 1)
        // A tab step says so.
        let tab = try page("flow/journeys/see-what-is-saved/index.html", in: site)
        #expect(tab.contains("Selects <mark>Saved</mark> in the tab bar"))
        // A kind's page lists the journeys through it.
        let item = try page("flow/item/index.html", in: site)
        #expect(item.contains("<h2>Journeys through here</h2>"))
        #expect(
            item.contains(
                "<a href=\"../journeys/sign-in-to-like-a-lamp/index.html\">Sign in to like a lamp</a> "
                    + "at Lamp 1, page 2 of 3"))
        #expect(!(try page("flow/index.html", in: site).contains("Journeys through here")))
    }

    @Test func aBrokenJourneysStoryStopsWhereItBreaksAndSaysWhy() async throws {
        let (site, report) = try await build(
            ShelfApp(signInLabel: "Log in to like it", journeys: [JourneyTests.likeALamp]))
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let story = try page("flow/journeys/sign-in-to-like-a-lamp/index.html", in: site)
        #expect(
            story.contains(
                "<p class=\"journey-break\"><strong>Breaks at step 2:</strong> "
                    + "Journey &#39;Sign in to like a lamp&#39; breaks at step 2: "
                    + "no link &#39;Sign in to like it&#39; on Lamp 1"
            ))
        #expect(story.components(separatedBy: "<li class=\"journey-card\">").count - 1 == 2)
        #expect(story.contains("The journey stops here."))
        #expect(
            try page("flow/journeys/index.html", in: site).contains("<td class=\"untested\">Breaks at step 2:</td>"))
        #expect(report.flow?.journeys.first?.brokenAtStep == 2)
    }

    /// Every kind's map page but the start page's shows the shortest way in to its first page, whether or not the
    /// app declares journeys: the walk's first links, each page a card naming how it opens.
    @Test func eachKindsPageShowsItsShortestWayIn() async throws {
        let (site, _) = try await build(ShelfApp(journeys: []))
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let signIn = try page("flow/sign-in/index.html", in: site)
        #expect(signIn.contains("<h2>The shortest way in</h2>"))
        #expect(signIn.contains("<p>2 taps from Shop to Sign in, the nearest page of this kind:</p>"))
        let cards = signIn.components(separatedBy: "<li class=\"journey-card\">").dropFirst()
        #expect(cards.count == 3)
        #expect(cards.map { $0.contains("<h3><a href=\"../../") } == [true, true, true])
        #expect(cards.first?.contains("Opens <mark>Lamp 1</mark> · push: opens over the page") == true)
        #expect(Array(cards)[1].contains("Opens <mark>Sign in</mark> · modal: a dialog over the page"))
        #expect(!signIn.contains("The journey ends here."))
        // A tab root is reached from the tab bar.
        #expect(try page("flow/saved/index.html", in: site).contains("Selects <mark>Saved</mark> in the tab bar"))
        // The start page needs no way in.
        let shop = try page("flow/shop/index.html", in: site)
        #expect(shop.contains("<h2>") && !shop.contains("The shortest way in"))
    }

    /// A test that shows a page from one it never showed: the step is written on the card of the page it shows,
    /// from the page off the way, not from the card before.
    @Test func aTestsStepFromAPageOffTheWayNamesThatPage() async throws {
        let scratch = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let file = FlowCoverageFile(
            tests: ["signingInFromALamp()": [.init(from: "item", to: "sign-in", presentation: .modal)]],
            journeys: [
                "signingInFromALamp()": [
                    .init(path: "/", kind: "shop"),
                    .init(path: "/sign-in/", kind: "sign-in", presentation: .modal, from: "/items/1/")
                ]
            ])
        let url = scratch.appendingPathComponent("ShelfTests.SignInTests.json")
        try Data(file.json().utf8).write(to: url)
        let (site, report) = try await build(ShelfApp(journeys: []), coverage: try FlowGraph.Coverage.load(from: [url]))
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        let journey = try #require(report.flow?.journeys.first)
        #expect(journey.steps.first?.from == nil)
        #expect(journey.steps.first?.elsewhere == .init(path: "/items/1/", title: "Lamp 1", kind: "item"))
        #expect(journey.text.contains("→ from Lamp 1 (/items/1/, off the way) (modal) → Sign in (/sign-in/)"))
        let story = try page("flow/journeys/signing-in-from-a-lamp/index.html", in: site)
        let cards = Array(story.components(separatedBy: "<li class=\"journey-card\">").dropFirst())
        #expect(cards.count == 2)
        #expect(!cards[0].contains("journey-tap"))
        #expect(
            cards[1].contains(
                "Shown from <a href=\"../../../items/1/index.html\">Lamp 1</a>, a page this journey does not reach · "
                    + "modal"))
        #expect(
            try page("flow/journeys/index.html", in: site).contains("<td>Shop … Sign in</td>"))
    }

    /// An app without journeys has no journeys' pages and no link to them.
    @Test func noJourneysNoPages() async throws {
        let (site, _) = try await build(ShelfApp(journeys: []))
        defer { try? FileManager.default.removeItem(at: site.deletingLastPathComponent()) }
        #expect(!FileManager.default.fileExists(atPath: site.appendingPathComponent("flow/journeys").path))
        #expect(!(try page("flow/index.html", in: site).contains("journeys/")))
    }

    @Test(arguments: [
        ("aFilmOpensItsPlanets()", "A film opens its planets"),
        ("aCharacterFromALaterListPageOpensAsADeepLink()", "A character from a later list page opens as a deep link"),
        ("theURLOpensPage2()", "The URL opens page2"),
        ("test_with_underscores()", "test_with_underscores"),
        ("Ünïcode()", "Ünïcode"),
        ("x", "X")
    ])
    func testNamesReadAsSentences(name: String, sentence: String) {
        #expect(SiteGraph<ShelfRoute>.sentence(fromTestName: name) == sentence)
    }
}
