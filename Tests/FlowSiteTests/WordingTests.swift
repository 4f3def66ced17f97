import FlowSiteUtilities
import Foundation
import Logging
import Testing

@testable import FlowSite

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
        LeafScreen(links: route == .home ? (0..<leaves).map { ("Leaf \($0 + 1)", .leaf($0 + 1)) } : [])
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
        "lintDeadEnd.other": "{count} páginas de tipo {kind} no tienen ningún enlace propio: p. ej. {path}"
    ]

    func deadEnd(_ app: LeafApp) async throws -> String {
        let report = try await FlowLinter(coordinator: app).run()
        return try #require(report.findings.first { $0.rule == .deadEnd }).message
    }

    @Test func aFindingOnOnePageSaysPageHasAndOnTwoPagesHave() async throws {
        #expect(
            try await deadEnd(LeafApp(leaves: 1))
                == "1 Leaf page has no link of its own; only its trail leads back: e.g. /leaves/1/ (leaf(1))")
        #expect(
            try await deadEnd(LeafApp(leaves: 2))
                == "2 Leaf pages have no link of their own; only their trail leads back: e.g. /leaves/1/ (leaf(1))")
        // Click depth counts its clicks too: one page at 6 clicks, over a limit of 5.
        let report = try await FlowLinter(
            coordinator: SpotApp(), configuration: FlowLintConfiguration(maximumClickDepth: 5)
        ).run()
        let deep = try #require(report.findings.first { $0.rule == .clickDepth }).message
        #expect(
            deep.hasPrefix(
                """
                1 Chain page is more than 5 clicks from the start page, at 6 clicks, \
                5 of them Chain → Chain (push) in a row
                """
            ), "\(deep)")
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
        // Its labels are a few: the build's warning of the others is the next test's.
        let quiet = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        try await SiteBuilder(coordinator: app, logger: quiet).build(into: folder.appendingPathComponent("site"))
        let map = try String(contentsOf: folder.appendingPathComponent("site/flow/index.html"), encoding: .utf8)
        #expect(map.contains("«1» página de tipo Leaf no tiene ningún enlace propio"))
        #expect(!map.contains("lang=\"en\""))
    }

    /// A Spanish table that gives some words and not others: the build names, once, every key
    /// it shows in English, each plural form Spanish needs included; an English site's own few
    /// labels, or a complete table, are no warning.
    @Test func aBuildNamesTheLabelsThatFellBackToEnglishOnce() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func warnings(_ site: SiteInfo<Leaf>) async throws -> [String] {
            let lines = Locked<[String]>([])
            let logger = Logger(label: "test") { _ in LineLog(lines: lines) }
            var app = LeafApp()
            app.siteInfo = site
            try await SiteBuilder(coordinator: app, logger: logger).build(into: folder.appendingPathComponent("site"))
            return lines.withLock { $0 }.filter { $0.contains("labels lack") }
        }

        var partial = Self.spanishDeadEnd
        partial["close"] = "Cerrar"
        partial["lintEmptyState.other"] =
            "{count} páginas de tipo {kind} muestran su estado vacío: p. ej. {path} ({route})"
        let spanish = try await warnings(SiteInfo(name: "Hojas", language: "es", labels: partial))
        #expect(spanish.count == 1)
        let warning = try #require(spanish.first)
        #expect(warning.hasPrefix("warning: es: the site's labels lack "))
        #expect(warning.contains(" keys, shown in the built-in English; add them to SiteInfo.labels: "))
        let keys = Set(warning.components(separatedBy: "SiteInfo.labels: ").last?.components(separatedBy: ", ") ?? [])
        #expect(
            keys.isSuperset(of: [
                "previous", "flowMap", "lintModalOnly.one", "lintModalOnly.other", "lintEmptyState.one", "kindPages.one"
            ]))
        // Given: never named. Spanish's `many`, which English lacks, reads the table's `other`.
        #expect(
            keys.isDisjoint(with: [
                "close", "lintDeadEnd.one", "lintDeadEnd.other", "lintEmptyState.other", "lintEmptyState.many"
            ]))

        #expect(try await warnings(SiteInfo(name: "Leaves", labels: ["close": "Done"])).isEmpty)
        #expect(try await warnings(SiteInfo(name: "Leaves", language: "en-GB", labels: ["close": "Done"])).isEmpty)
        var complete: [String: String] = [:]
        for (key, text) in SiteInfo<Leaf>.defaultLabels { complete[key] = "ES " + text }
        for key in SiteInfo<Leaf>.countedLabels { complete["\(key).many"] = "ES {count}" }
        #expect(try await warnings(SiteInfo(name: "Hojas", language: "es", labels: complete)).isEmpty)
    }

    @Test func errorsCountInEnglishPlurals() {
        #expect(
            FlowSiteError(.brokenLinks([("a/index.html", "b/")])).description.hasPrefix(
                "1 broken link; the previous site was left as it was:\n"))
        #expect(
            FlowSiteError(.brokenLinks([("a/index.html", "b/"), ("a/index.html", "c/")])).description.hasPrefix(
                "2 broken links; "))
        #expect(
            FlowSiteError(.screensFailed([("home", "no data")])).description.hasPrefix(
                "1 screen failed to build and the app has no error screen for it:\n"))
        #expect(
            FlowSiteError(.screensFailed([("a", "x"), ("b", "y")])).description.hasPrefix(
                "2 screens failed to build and the app has no error screen for them:\n"))
    }

    @Test func theFlowsDifferenceCountsPagesAndLinks() {
        let old = FlowRecord(
            kinds: [
                .init(id: "home", name: "Home", flow: "Home", pages: 1),
                .init(id: "old", name: "Old", flow: "Old", pages: 1)
            ],
            transitions: [.init(from: "home", to: "old", presentation: "push", links: 1)], findings: []
        )
        let new = FlowRecord(
            kinds: [
                .init(id: "home", name: "Home", flow: "Home", pages: 1),
                .init(id: "new", name: "New", flow: "New", pages: 2)
            ],
            transitions: [.init(from: "home", to: "new", presentation: "push", links: 2)], findings: []
        )
        let lines = FlowDiff(old: old, new: new).lines()
        #expect(
            lines.contains("+ screen kind New (new): 2 pages") && lines.contains("- screen kind Old (old): had 1 page"),
            "\(lines)")
        #expect(
            lines.contains("+ transition Home → New (push, 2 links)")
                && lines.contains("- transition Home → Old (push, had 1 link)"), "\(lines)")
    }
    /// The engine's own reports count in English plurals too: a build's line, the graph's
    /// labels, lint's summary.
    @Test func theEnginesReportsSayOnePageAndTwoPages() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await SiteBuilder(coordinator: LeafApp(leaves: 0)).build(
            into: folder.appendingPathComponent("site"))
        #expect(report.description.hasPrefix("Built 1 page (1 rendered, "), "\(report.description)")
        // The leaf is declared and no link reaches it; the lone home page leads nowhere.
        #expect(report.flowLint?.summaryLine == "Flow lint: 2 warnings (unreachable-screen 1, dead-end 1)")
        #expect(
            try await FlowLinter(coordinator: LeafApp(leaves: 1)).run().summaryLine
                == "Flow lint: 1 warning (dead-end 1)")
        let (graph, _) = try await FlowLinter(coordinator: LeafApp(leaves: 2)).walk()
        #expect(
            graph.dot().contains("Home\\n1 page, 0–0 clicks") && graph.dot().contains("Leaf\\n2 pages, 1–1 clicks"),
            "\(graph.dot())")
        #expect(graph.mermaid().contains("<br/>1 page\"]") && graph.mermaid().contains("<br/>2 pages\"]"))
    }
}

/// A log handler that keeps each line as "level: message".
struct LineLog: LogHandler {
    let lines: Locked<[String]>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.withLock { $0.append("\(event.level): \(event.message)") }
    }
}
