@testable import FlowSite
import Foundation
import Testing

/// Home and `leaves` pages of one kind that lead nowhere: one `dead-end` finding, on as many
/// pages as asked.
enum Leaf: Route {
    case home, leaf(Int)
    var path: RoutePath {
        switch self {
        case .home: .root
        case .leaf(let number): ["leaves", Slug("\(number)")]
        }
    }
    static var screenKindExamples: [Leaf] { [.home, .leaf(1)] }
}

struct LeafApp: RootCoordinator {
    var leaves = 1
    var siteInfo = SiteInfo<Leaf>(name: "Leaves")
    var startRoute: Leaf { .home }

    func makeScreen(for route: Leaf) async throws -> any Screen<Leaf> {
        LeafScreen(links: route == .home ? (1...leaves).map { ("Leaf \($0)", .leaf($0)) } : [])
    }
}

struct LeafScreen: Screen {
    let links: [(String, Leaf)]
    func makePage() async throws -> Page<Leaf> {
        var document = MarkdownDocument<Leaf>()
        document.paragraph(.text("Leaves"))
        document.list(links.map { [.link($0.0, to: $0.1)] })
        return Page(title: "Leaves", document: document)
    }
}

/// Every word FlowSite writes comes from one table with real plural forms: flow lint's in the
/// site's language, the engine's own (errors, `diff`) in English.
@Suite struct WordingTests {
    /// Spanish for the dead end, as an app's labels table would give it (`one`, `many`, `other`).
    static let spanishDeadEnd = [
        "lintDeadEnd.one": "{count} página de tipo {kind} no tiene ningún enlace propio: p. ej. {path}",
        "lintDeadEnd.many": "{count} páginas de tipo {kind} no tienen ningún enlace propio: p. ej. {path}",
        "lintDeadEnd.other": "{count} páginas de tipo {kind} no tienen ningún enlace propio: p. ej. {path}",
    ]

    func deadEnd(_ app: LeafApp) async throws -> String {
        let report = try await FlowLinter(coordinator: app).run()
        return try #require(report.findings.first { $0.rule == .deadEnd }).message
    }

    @Test func aFindingOnOnePageSaysPageHasAndOnTwoPagesHave() async throws {
        #expect(try await deadEnd(LeafApp(leaves: 1)) == "1 Leaf page has no link of its own, only the site-wide navigation: e.g. /leaves/1/ (leaf(1))")
        #expect(try await deadEnd(LeafApp(leaves: 2)) == "2 Leaf pages have no link of their own, only the site-wide navigation: e.g. /leaves/1/ (leaf(1))")
        // Click depth counts its clicks too: one page at 6 clicks, over a limit of 5.
        let report = try await FlowLinter(coordinator: SpotApp(), configuration: FlowLintConfiguration(maximumClickDepth: 5)).run()
        let deep = try #require(report.findings.first { $0.rule == .clickDepth }).message
        #expect(deep.hasPrefix("1 Chain page is more than 5 clicks from the start page, at 6 clicks, 5 of them Chain → Chain (push) in a row"), "\(deep)")
        // Once, not "1 time(s)".
        let stacked = try #require(report.findings.first { $0.rule == .modalOverModal }).message
        #expect(stacked.hasPrefix("Legal is presented as a dialog over a dialog once: e.g. /legal/"), "\(stacked)")
    }

    @Test func aSpanishSiteLintsInSpanishWithItsNumbers() async throws {
        var app = LeafApp(leaves: 2)
        app.siteInfo = SiteInfo(name: "Hojas", language: "es", labels: Self.spanishDeadEnd)
        app.siteInfo.formatsCount = { "«\($0)»" }
        #expect(try await deadEnd(app) == "«2» páginas de tipo Leaf no tienen ningún enlace propio: p. ej. /leaves/1/")
        app.leaves = 1
        #expect(try await deadEnd(app) == "«1» página de tipo Leaf no tiene ningún enlace propio: p. ej. /leaves/1/")

        // A build's flow map says it in the page's language, with no English marked on it.
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SiteBuilder(coordinator: app).build(into: folder.appendingPathComponent("site"))
        let map = try String(contentsOf: folder.appendingPathComponent("site/flow/index.html"), encoding: .utf8)
        #expect(map.contains("«1» página de tipo Leaf no tiene ningún enlace propio"))
        #expect(!map.contains("lang=\"en\""))
    }

    @Test func errorsCountInEnglishPlurals() {
        #expect(FlowSiteError(.brokenLinks([("a/index.html", "b/")])).description.hasPrefix("1 broken link; the previous site was left as it was:\n"))
        #expect(FlowSiteError(.brokenLinks([("a/index.html", "b/"), ("a/index.html", "c/")])).description.hasPrefix("2 broken links; "))
        #expect(FlowSiteError(.screensFailed([("home", "no data")])).description.hasPrefix("1 screen failed to build and the app has no error screen for it:\n"))
        #expect(FlowSiteError(.screensFailed([("a", "x"), ("b", "y")])).description.hasPrefix("2 screens failed to build and the app has no error screen for them:\n"))
    }

    @Test func theFlowsDifferenceCountsPagesAndLinks() {
        let old = FlowRecord(
            kinds: [.init(id: "home", name: "Home", flow: "Home", pages: 1), .init(id: "old", name: "Old", flow: "Old", pages: 1)],
            transitions: [.init(from: "home", to: "old", presentation: "push", links: 1)], findings: []
        )
        let new = FlowRecord(
            kinds: [.init(id: "home", name: "Home", flow: "Home", pages: 1), .init(id: "new", name: "New", flow: "New", pages: 2)],
            transitions: [.init(from: "home", to: "new", presentation: "push", links: 2)], findings: []
        )
        let lines = FlowDiff(old: old, new: new).lines()
        #expect(lines.contains("+ screen kind New (new): 2 pages") && lines.contains("- screen kind Old (old): had 1 page"), "\(lines)")
        #expect(lines.contains("+ transition Home → New (push, 2 links)") && lines.contains("- transition Home → Old (push, had 1 link)"), "\(lines)")
    }
}
