import FlowSiteUtilities
import Foundation
import Logging
import Testing

@testable import FlowSite

/// A shop with a tab bar (Shop, Saved): an item's page offers "Sign in to like it", which the app presents as a
/// dialog; the Saved tab shows its empty state. Its journeys go through both.
enum ShelfRoute: Route {
    case shop, item(Int), signIn, saved, account

    var path: RoutePath {
        switch self {
        case .shop: .root
        case .item(let id): ["items", Slug("\(id)")]
        case .signIn: ["sign-in"]
        case .saved: ["saved"]
        case .account: ["account"]
        }
    }

    static var screenKindExamples: [ShelfRoute] { [.shop, .item(1), .signIn, .saved] }
}

struct ShelfApp: RootCoordinator {
    /// The text of the item page's link to the sign-in dialog.
    var signInLabel = "Sign in to like it"
    /// Whether the shop lists item 2 (a journey goes through it).
    var listsItemTwo = true
    /// Whether signing in moved to the account page, which the item page links to instead: one tap more.
    var signsInFromAccount = false
    var journeys: [Journey<ShelfRoute>]

    var startRoute: ShelfRoute { .shop }
    var siteInfo: SiteInfo<ShelfRoute> {
        SiteInfo(
            name: "Shelf", navigation: [NavigationAction("Shop", to: .shop), NavigationAction("Saved", to: .saved)])
    }

    func makeScreen(for route: ShelfRoute) async throws -> any Screen<ShelfRoute> {
        var document = MarkdownDocument<ShelfRoute>()
        var page: Page<ShelfRoute>
        switch route {
        case .shop:
            document.list((listsItemTwo ? [1, 2] : [1]).map { [.link("Lamp \($0)", to: .item($0))] })
            page = Page(title: "Shop", document: document)
        case .item(let id):
            let signIn: MarkdownDocument<ShelfRoute>.Inline =
                signsInFromAccount ? .link("Your account", to: .account) : .link(signInLabel, to: .signIn)
            document.paragraph(signIn, " ", .link("Back to the shop", to: .shop))
            page = Page(title: "Lamp \(id)", document: document)
        case .account:
            document.paragraph(.link(signInLabel, to: .signIn))
            page = Page(title: "Your account", document: document)
        case .signIn:
            document.paragraph("Enter your name.")
            page = Page(title: "Sign in", document: document)
        case .saved:
            document.emptyState(EmptyState(title: "Nothing saved", message: "Like a lamp to keep it here."))
            page = Page(title: "Saved", document: document)
            page.ending = .emptyState
        }
        return ShelfScreen(page: page)
    }

    func presentation(of route: ShelfRoute, from source: ShelfRoute) -> Presentation {
        switch route {
        case .signIn: .modal
        case .shop: .root
        default: .push
        }
    }
}

struct ShelfScreen: Screen {
    let page: Page<ShelfRoute>
    func makePage() async throws -> Page<ShelfRoute> { page }
}

@Suite struct JourneyTests {
    static let likeALamp = Journey<ShelfRoute>(
        "Sign in to like a lamp", from: .shop,
        steps: [.follow("Lamp 1"), .follow("Sign in to like it", as: .modal, title: "Sign in")])
    static let openSaved = Journey<ShelfRoute>(
        "See what is saved", from: .item(2), steps: [.tab("Saved", ending: .emptyState)])
    static let secondLamp = Journey<ShelfRoute>(
        "Reach the second lamp", from: .shop, steps: [.follow(to: .item(2), title: "Lamp 2")])

    func lint(_ app: ShelfApp) async throws -> FlowLintReport {
        try await FlowLinter(coordinator: app).run()
    }

    func journeyFindings(_ app: ShelfApp) async throws -> [FlowLintReport.Finding] {
        try await lint(app).findings.filter { $0.rule == .journeyBroken }
    }

    /// Through a link, a dialog and a tab, by label and by route: every step is a link on the page the step
    /// before reached, presented as stated, reaching what it expects.
    @Test func journeysThroughALinkADialogAndATabAreTaken() async throws {
        let app = ShelfApp(journeys: [Self.likeALamp, Self.openSaved, Self.secondLamp])
        var walker = SiteWalker(coordinator: app, keepsEdges: false)
        walker.recordsUnhandledLinks = true
        let graph = try await walker.walk { _ in }
        let taken = graph.journeys.journeys
        #expect(taken.map(\.broken) == [nil, nil, nil])
        #expect(taken[0].pages.map { graph.table.path(of: $0).description } == ["/", "/items/1/", "/sign-in/"])
        #expect(taken[0].presentations == [.push, .modal])
        #expect(taken[0].labels == ["Lamp 1", "Sign in to like it"])
        #expect(taken[1].pages.map { graph.table.path(of: $0).description } == ["/items/2/", "/saved/"])
        #expect(taken[2].labels == ["Lamp 2"])
        #expect(try await journeyFindings(app).isEmpty)
        // Tools read them in the flow graph's JSON: name, source, and each page.
        let json = try #require(
            try JSONSerialization.jsonObject(with: Data(graph.flowGraph(lint: nil, coverage: nil).json().utf8))
                as? [String: Any])
        let journeys = try #require(json["journeys"] as? [[String: Any]])
        #expect(journeys.map { $0["name"] as? String } == taken.map(\.name))
        #expect(journeys.first?["pages"] as? [String] == ["/", "/items/1/", "/sign-in/"])
        #expect(journeys.first?["source"] as? String == "declared" && journeys.first?["brokenAtStep"] == nil)
    }

    /// The label a step follows renamed: the finding names the journey, the step, the page and the labels it
    /// has, at the journey's line; and the build warns.
    @Test func aRenamedLabelBreaksTheJourneyNamingWhatThePageOffers() async throws {
        let app = ShelfApp(signInLabel: "Log in to like it", journeys: [Self.likeALamp])
        let findings = try await journeyFindings(app)
        #expect(
            findings.map(\.message) == [
                "Journey 'Sign in to like a lamp' breaks at step 2: no link 'Sign in to like it' on Lamp 1 "
                    + "(/items/1/); it has 'Log in to like it', 'Back to the shop'"
            ])
        #expect(findings.first?.location == Self.likeALamp.location)
        #expect(findings.first?.location?.packagePath == "Tests/FlowSiteTests/JourneyTests.swift")
        #expect(findings.first?.examples.map(\.path.description) == ["/items/1/"])

        let lines = Locked([String]())
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var builder = SiteBuilder(coordinator: app)
        builder.logger = Logger(label: "test") { _ in LineLog(lines: lines) }
        _ = try await builder.build(into: folder.appendingPathComponent("site"))
        let warnings = lines.withLock { $0 }.filter { $0.contains("Journey 'Sign in to like a lamp'") }
        #expect(warnings.count == 1, "\(lines.withLock { $0 })")
        #expect(warnings.first?.hasPrefix("warning: Tests/FlowSiteTests/JourneyTests.swift:") == true)
    }

    /// Each other way a journey breaks says what it met instead.
    @Test func eachWayAJourneyBreaksIsNamed() async throws {
        let journeys = [
            Journey<ShelfRoute>("As a push", from: .item(1), steps: [.follow("Sign in to like it", as: .push)]),
            Journey("Wrong title", from: .item(1), steps: [.follow("Sign in to like it", title: "Log in")]),
            Journey("No such tab", from: .shop, steps: [.tab("Basket")]),
            Journey("Gone lamp", from: .shop, steps: [.follow(to: .item(2))]),
            Journey("Not empty", from: .shop, steps: [.follow("Lamp 1", ending: .emptyState)]),
            Journey("Nowhere", from: .item(9), steps: [.follow("Lamp 1")]),
            Journey("Tab from a dialog", from: .item(1), steps: [.follow("Sign in to like it"), .tab("Saved")])
        ]
        let messages = try await journeyFindings(ShelfApp(listsItemTwo: false, journeys: journeys)).map(\.message)
        #expect(
            messages == [
                "Journey 'As a push' breaks at step 1: 'Sign in to like it' on Lamp 1 (/items/1/) is presented as "
                    + "modal, not push",
                "Journey 'Wrong title' breaks at step 1: Sign in (/sign-in/) does not show the title 'Log in'",
                "Journey 'No such tab' breaks at step 1: no tab 'Basket'; the tab bar has 'Shop', 'Saved'",
                "Journey 'Gone lamp' breaks at step 1: no link '/items/2/ (item(2))' on Shop (/); it has 'Lamp 1'",
                "Journey 'Not empty' breaks at step 1: Lamp 1 (/items/1/) does not show the empty state",
                "Journey 'Nowhere' starts at /items/9/ (item(9)), which is not a page of the site",
                "Journey 'Tab from a dialog' breaks at step 2: Sign in (/sign-in/) is a dialog, with no tab bar for "
                    + "'Saved'"
            ], "\(messages)")
    }
}
