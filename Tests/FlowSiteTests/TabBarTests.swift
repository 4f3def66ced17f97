import FlowSiteUtilities
import Foundation
import Testing

@testable import FlowSite
@testable import FlowSiteTesting

/// A reader app with a tab bar (Feed, Sign in): an item's page links to sign-in too, which the
/// app presents as a dialog over the item, while the tab is a tab root.
enum ReaderRoute: Route {
    case feed, item(Int), signIn, help

    var path: RoutePath {
        switch self {
        case .feed: .root
        case .item(let id): ["items", Slug("\(id)")]
        case .signIn: ["sign-in"]
        case .help: ["help"]
        }
    }

    static var screenKindExamples: [ReaderRoute] { [.feed, .item(1), .signIn, .help] }
}

struct ReaderApp: RootCoordinator {
    /// Every tab selection the app was asked for, to prove the walker tells tabs from links.
    let selections = Locked([String]())

    var startRoute: ReaderRoute { .feed }
    var siteInfo: SiteInfo<ReaderRoute> {
        SiteInfo(
            name: "Reader", navigation: [NavigationAction("Feed", to: .feed), NavigationAction("Sign in", to: .signIn)])
    }

    func makeScreen(for route: ReaderRoute) async throws -> any Screen<ReaderRoute> {
        var document = MarkdownDocument<ReaderRoute>()
        switch route {
        case .feed: document.list((1...2).map { [.link("Item \($0)", to: .item($0))] })
        case .item:
            document.paragraph(
                .link("Sign in to like", to: .signIn), " ", .link("Help", to: .help), " ", .link("Feed", to: .feed))
        case .signIn, .help: document.paragraph("Enter your name.")
        }
        return ReaderScreen(page: Page(title: "\(route)", document: document))
    }

    func navigate(
        _ action: NavigationAction<ReaderRoute>, from source: ReaderRoute, in navigator: some Navigator<ReaderRoute>
    ) {
        switch action.route {
        case .signIn, .help: navigator.show(action.route, as: .modal) // in-page links: dialogs over the item
        case .feed: navigator.show(.feed, as: .root)
        case .item: navigator.show(action.route, as: .push)
        }
    }

    func selectTab(_ tab: NavigationAction<ReaderRoute>, in navigator: some Navigator<ReaderRoute>) {
        selections.withLock { $0.append(tab.label) }
        navigator.show(tab.route, as: .root)
    }
}

struct ReaderScreen: Screen {
    let page: Page<ReaderRoute>
    func makePage() async throws -> Page<ReaderRoute> { page }
}

@Suite struct TabBarTests {
    /// A tab selection has one name: from the tab bar, on the map, in the graph, in coverage and in lint
    /// (issue 63, item 6); it was from the start page's kind in all but the map.
    @Test func aTabSelectionStartsFromTheTabBarEverywhere() async throws {
        let app = ReaderApp()
        let (graph, _) = try await FlowLinter(coordinator: app).walk()
        let feed = ScreenKind(derivedFrom: ReaderRoute.feed).id
        let signIn = ScreenKind(derivedFrom: ReaderRoute.signIn).id
        let dot = graph.dot()
        #expect(dot.contains(#""tab-bar" -> "\#(signIn)" [label="root ×1"#), "\(dot)")
        #expect(!dot.contains(#""\#(feed)" -> "\#(signIn)" [label="root"#))
        #expect(graph.mermaid().contains(#"tabs["Tab bar"]"#))
        let tab = try #require(graph.transitions.first { $0.to == signIn && $0.presentation == .root })
        #expect(tab.location?.fileID == "FlowSiteTests/TabBarTests.swift", "the app's own selectTab")
        // FlowSite's default selectTab names no line: none of the app's chose the transition.
        var graphApp = GraphCoordinator(links: ["": ["a"], "a": []])
        graphApp.navigation = [NavigationAction("A", to: "a")]
        let (defaulted, _) = try await FlowLinter(coordinator: graphApp).walk()
        #expect(defaulted.transitions.allSatisfy { $0.location?.isFlowSites != true })
        #expect(defaulted.transitions.contains { $0.tabSelections > 0 && $0.location == nil })

        // A test selects the tab with another page on top: coverage records it from the tab bar, and it covers.
        let recorder = FlowCoverageRecorder()
        let navigator = RecordingNavigator<ReaderRoute>(stack: [.feed, .item(1)])
        FlowCoverageRecorder.$current.withValue(recorder) {
            navigator.selectTab(NavigationAction("Sign in", to: .signIn), on: app)
        }
        #expect(recorder.transitions == [.init(from: FlowGraph.Coverage.tabBar, to: signIn, presentation: .root)])
        #expect(navigator.stack == [.signIn])
        let coverage = FlowGraph.Coverage(recorder.transitions)
        #expect(coverage.covers(tab))
        #expect(coverage.stale(in: graph).isEmpty)
        // Lint names an untested tab selection from the tab bar too.
        let lint = try await FlowLinter(
            coordinator: app, configuration: FlowLintConfiguration(enabledRules: ["untested-transition"]),
            coverage: FlowGraph.Coverage([])
        ).run()
        #expect(lint.findings.contains { $0.message.contains("Tab bar → ") }, "\(lint.findings.map(\.message))")
    }

    @Test func aTabSelectionGoesThroughSelectTabOnceEach() async throws {
        let app = ReaderApp()
        let (graph, _) = try await FlowLinter(coordinator: app).walk()
        #expect(app.selections.withLock { $0 } == ["Feed", "Sign in"])
        let signIn = ScreenKind(derivedFrom: ReaderRoute.signIn).id
        let toSignIn = graph.transitions.filter { $0.to == signIn }
        // The tab's root selection and the item's dialog are two transitions, told apart.
        let presentations: [Presentation] = toSignIn.map(\.presentation).sorted { $0.rawValue < $1.rawValue }
        #expect(presentations == [.modal, .root])
        #expect(toSignIn.first { $0.presentation == .root }?.tabSelections == 1)
        #expect(toSignIn.first { $0.presentation == .modal }?.tabSelections == 0)
    }

    @Test func theMapDrawsTheTabsOnceFromATabBar() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tab-bar-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await SiteBuilder(coordinator: ReaderApp()).build(into: folder)
        let map = try String(contentsOf: folder.appendingPathComponent("flow/index.html"), encoding: .utf8)
        #expect(map.components(separatedBy: ">Tab bar<").count - 1 >= 2, "a box on the map and a row of the table")
        // The tabs' transitions start at the tab bar, not at the feed they are recorded from.
        let rows = map.components(separatedBy: "<tr>").filter { $0.hasPrefix("<td>Tab bar</td>") }
        #expect(rows.count == 2)
        #expect(rows.allSatisfy { $0.contains("root: starts a new trail") })
    }

    @Test func aDialogShowsItsCloseLinkInsteadOfTheTabBar() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tab-bar-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await SiteBuilder(coordinator: ReaderApp()).build(into: folder)
        let item = try String(contentsOf: folder.appendingPathComponent("items/1/index.html"), encoding: .utf8)
        #expect(item.contains("<nav aria-label=\"Main\">"))
        // The item was pushed in the Feed tab's stack: Feed is the selected tab there.
        #expect(item.contains("class=\"active\">Feed</a>"))
        #expect(!item.contains("class=\"active\">Sign in</a>"))
        let help = try String(contentsOf: folder.appendingPathComponent("help/index.html"), encoding: .utf8)
        #expect(help.contains("class=\"close\""))
        #expect(!help.contains("<nav aria-label=\"Main\">"))
        // Sign-in is a tab root (the tab is followed on the start page's turn): the tab bar, no Close.
        let signIn = try String(contentsOf: folder.appendingPathComponent("sign-in/index.html"), encoding: .utf8)
        #expect(signIn.contains("<nav aria-label=\"Main\">"))
        #expect(!signIn.contains("class=\"close\""))
        // The items' links open sign-in's dialog, a page of its own with Close and no tab bar.
        #expect(item.contains("href=\"../../sign-in/dialog/index.html\""))
        let dialog = try String(contentsOf: folder.appendingPathComponent("sign-in/dialog/index.html"), encoding: .utf8)
        #expect(dialog.contains("class=\"close\"") && !dialog.contains("<nav aria-label=\"Main\">"))
    }

    /// The map counts in the language's plural forms: one page is "1 page", never "1 pages".
    @Test func theMapsCountsTakeTheirPluralForms() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("one-page-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await SiteBuilder(coordinator: GraphCoordinator(links: ["": []])).build(into: folder)
        let map = try String(contentsOf: folder.appendingPathComponent("flow/index.html"), encoding: .utf8)
        #expect(map.contains("The site has 1 kind of screen in 1 flow, 1 page in all."))
        let reader = FileManager.default.temporaryDirectory.appendingPathComponent("reader-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: reader) }
        _ = try await SiteBuilder(coordinator: ReaderApp()).build(into: reader)
        let readerMap = try String(contentsOf: reader.appendingPathComponent("flow/index.html"), encoding: .utf8)
        // Sign-in has two pages: the tab's, and the dialog the items open.
        #expect(readerMap.contains("The site has 4 kinds of screen in 4 flows, 6 pages in all."))
        #expect(readerMap.contains(">2 tabs<"))
    }

    /// A sheet that closes and opens another sheet (a player's head-to-head) is `.replace` from a
    /// dialog: the new page is a dialog over the same page, with its Close link, not a dead end.
    @Test func aDialogThatReplacesADialogIsADialogOverTheSamePage() async throws {
        let app = GraphCoordinator(
            links: ["": ["player"], "player": ["versus"]], presentations: ["player": .modal, "versus": .replace])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("replace-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await SiteBuilder(coordinator: app).build(into: folder)
        let versus = try String(contentsOf: folder.appendingPathComponent("versus/index.html"), encoding: .utf8)
        #expect(versus.contains("<div class=\"dialog\">") && versus.contains("class=\"close\" href=\"../index.html\""))
        #expect(!(report.flowLint?.findings.contains { $0.rule == .deadEnd } ?? true))
    }
}
