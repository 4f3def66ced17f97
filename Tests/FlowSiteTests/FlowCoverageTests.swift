import FlowSite
import Foundation
import Testing

@testable import FlowSiteTesting

/// Flow coverage: what coordinator tests record under `.flowCoverage()`, the committed file
/// checked like a snapshot, coverage files merged, and what lint and the map make of it. The
/// app is `TidyApp` (Home → List → Item → List, every link a push).
@Suite struct FlowCoverageTests {
    /// Runs `body` in the scope the `.flowCoverage()` trait gives a test, writing into `folder`.
    func underTrait(
        _ folder: URL, recording: FlowCoverageTrait.Recording = .missing, _ body: @escaping @Sendable () -> Void
    ) async throws {
        let trait = FlowCoverageTrait(folder: folder, recording: recording)
        try await trait.provideScope(for: try #require(Test.current), testCase: nil) { body() }
    }

    /// The app's start, then Home → List and List → Item, through the app's own `navigate`.
    static func tour() {
        let app = TidyApp()
        let navigator = RecordingNavigator<Tidy>()
        app.start(in: navigator)
        app.navigate(NavigationAction("Everything", to: .list), from: .home, in: navigator)
        app.navigate(NavigationAction("Item 1", to: .item(1)), from: .list, in: navigator)
    }

    /// The file `.flowCoverage()` writes for this suite.
    func file(in folder: URL) -> URL { folder.appendingPathComponent("FlowSiteTests.FlowCoverageTests.json") }

    func entries(in folder: URL) throws -> [String: [FlowCoverageFile.Transition]] {
        try FlowCoverageFile(json: Data(contentsOf: file(in: folder)), source: "test").tests
    }

    func comment(_ prefix: String) -> KnownIssueMatcher {
        { issue in issue.comments.contains { $0.rawValue.hasPrefix(prefix) } }
    }

    @Test func aCoordinatorTestRecordsTheTransitionsItTakes() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The first run records the test's entry, and fails once asking to commit it.
        try await withKnownIssue {
            try await underTrait(folder) { Self.tour() }
        } matching: {
            comment("Recorded what aCoordinatorTestRecordsTheTransitionsItTakes() takes 2 transitions")($0)
        }
        // The start (on an empty stack) is no transition; each call after it is one, from the
        // kind on top of the stack.
        #expect(
            try entries(in: folder) == [
                "aCoordinatorTestRecordsTheTransitionsItTakes()": [
                    .init(from: "home", to: "list", presentation: .push),
                    .init(from: "list", to: "item", presentation: .push)
                ]
            ])
        // Beside them, the test's journey: the pages it showed in order, each with how.
        let journey = try FlowCoverageFile(json: Data(contentsOf: file(in: folder)), source: "test").journeys?[
            "aCoordinatorTestRecordsTheTransitionsItTakes()"]
        #expect(
            journey == [
                .init(path: "/", kind: "home", presentation: .root),
                .init(path: "/list/", kind: "list", presentation: .push),
                .init(path: "/list/1/", kind: "item", presentation: .push)
            ])
        // The next run takes the same transitions and passes.
        try await underTrait(folder) { Self.tour() }
        // The same transitions through another item's page: the journey changed, and the test says how.
        try await withKnownIssue {
            try await underTrait(folder) {
                let app = TidyApp()
                let navigator = RecordingNavigator<Tidy>()
                app.start(in: navigator)
                app.navigate(NavigationAction("Everything", to: .list), from: .home, in: navigator)
                app.navigate(NavigationAction("Item 2", to: .item(2)), from: .list, in: navigator)
            }
        } matching: {
            comment(
                "The transitions aCoordinatorTestRecordsTheTransitionsItTakes() takes no longer match "
                    + "FlowSiteTests.FlowCoverageTests.json: it shows / (root) → /list/ (push) → /list/2/ (push), "
                    + "where it showed / (root) → /list/ (push) → /list/1/ (push)")($0)
        }
        // A navigator that starts on a screen takes its transitions from there.
        let navigator = RecordingNavigator<Tidy>(stack: [.home, .list])
        TidyApp().navigate(NavigationAction("Item 2", to: .item(2)), from: .list, in: navigator)
        #expect(navigator.stack == [.home, .list, .item(2)] && navigator.shown == [.init(.item(2), .push)])
    }

    @Test func aStaleEntryFailsTheTestUntilItIsReRecorded() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withKnownIssue {
            try await underTrait(folder) { Self.tour() }
        } matching: {
            comment("Recorded")($0)
        }
        let recorded = try Data(contentsOf: file(in: folder))
        let shorter: @Sendable () -> Void = {
            TidyApp().navigate(
                NavigationAction("Everything", to: .list), from: .home, in: RecordingNavigator<Tidy>(stack: [.home]))
        }
        // Fewer transitions: the test fails, says what changed, and the committed file stays.
        try await withKnownIssue {
            try await underTrait(folder, shorter)
        } matching: {
            comment(
                """
                The transitions aStaleEntryFailsTheTestUntilItIsReRecorded() takes no longer match \
                FlowSiteTests.FlowCoverageTests.json: no longer takes list → item (push).
                """
            )($0)
        }
        #expect(try Data(contentsOf: file(in: folder)) == recorded)
        // FLOW_COVERAGE_RECORD=all re-records it (failing once), then it passes.
        try await withKnownIssue {
            try await underTrait(folder, recording: .all, shorter)
        } matching: {
            comment("Re-recorded")($0)
        }
        #expect(try entries(in: folder).first?.value == [.init(from: "home", to: "list", presentation: .push)])
        try await underTrait(folder, shorter)
        // With recording off, a missing entry fails and nothing is written.
        try FileManager.default.removeItem(at: file(in: folder))
        try await withKnownIssue {
            try await underTrait(folder, recording: .never, shorter)
        } matching: {
            comment("aStaleEntryFailsTheTestUntilItIsReRecorded() takes 1 transition that")($0)
        }
        #expect(!FileManager.default.fileExists(atPath: file(in: folder).path))
        // A test that takes no transition and has no entry writes nothing.
        try await underTrait(folder) {}
        #expect(!FileManager.default.fileExists(atPath: file(in: folder).path))
    }

    @Test func coverageFilesMergeFromFoldersAndFiles() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("App.HomeTests.json")
        let second = folder.appendingPathComponent("more/App.ListTests.json")
        try FileManager.default.createDirectory(
            at: second.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FlowCoverageFile(tests: ["a()": [.init(from: "home", to: "list", presentation: .push)]]).json().write(
            to: first, atomically: true, encoding: .utf8)
        try FlowCoverageFile(tests: [
            "b()": [
                .init(from: "home", to: "list", presentation: .push),
                .init(from: "list", to: "item", presentation: .modal)
            ]
        ]).json().write(to: second, atomically: true, encoding: .utf8)
        let expected = FlowGraph.Coverage([
            .init(from: "home", to: "list", presentation: .push), .init(from: "list", to: "item", presentation: .modal)
        ])
        #expect(try FlowGraph.Coverage.load(from: [folder]) == expected)
        #expect(try FlowGraph.Coverage.load(from: [first, second]) == expected)
        #expect(try FlowGraph.Coverage.load(from: [first]).transitions.count == 1)

        #expect { try FlowGraph.Coverage.load(from: [folder.appendingPathComponent("nowhere")]) } throws: { error in
            "\(error)".contains("nowhere: there is no such file or folder")
        }
        try #"{"format": 1, "tests": {"c()": [{"from": "home", "to": "list", "presentation": "sideways"}]}}"#.write(
            to: first, atomically: true, encoding: .utf8)
        #expect { try FlowGraph.Coverage.load(from: [folder]) } throws: { error in
            "\(error)".contains("App.HomeTests.json") && "\(error)".contains("'sideways', which is not a presentation")
        }
    }

    @Test func lintCountsCoveragePerFlowAndReportsUntestedTransitionsOnlyWhenTheRuleIsOn() async throws {
        let coverage = FlowGraph.Coverage([.init(from: "home", to: "list", presentation: .push)])
        let report = try await FlowLinter(coordinator: TidyApp(), coverage: coverage).run()
        #expect(!FlowLintRule.untestedTransition.isOnByDefault)
        #expect(!report.findings.contains { $0.rule == .untestedTransition })
        let counts = try #require(report.coverage)
        #expect(
            counts.map { [$0.flow, "\($0.tested)", "\($0.total)"] } == [
                ["Home", "1", "1"], ["List", "0", "1"], ["Item", "0", "1"]
            ])
        #expect(
            report.text().contains(
                """
                Flow coverage: tests take 1 of 3 transitions\n  Home: 1 of 1\n  List: 0 of 1\n\
                    untested: list → item (push), 3 links\n
                """
            ))
        #expect(report.json().contains(#""flow" : "List""#))

        let on = FlowLintConfiguration(enabledRules: ["untested-transition"])
        let strict = try await FlowLinter(coordinator: TidyApp(), configuration: on, coverage: coverage).run()
        let untested = strict.findings.filter { $0.rule == .untestedTransition }
        #expect(untested.map(\.kind?.id) == ["list", "item"] && untested.map(\.count) == [3, 3])
        #expect(untested[0].message.hasPrefix("No test takes List → Item (push), 3 links: e.g. /list/ → /list/1/"))
        // TidyApp keeps the default navigate: no line of its own chose these, so none is named (FlowSite's is not).
        #expect(untested.allSatisfy { $0.location == nil } && strict.failsStrict)
        let suppressed = FlowLintConfiguration(
            enabledRules: ["untested-transition"],
            suppressions: [.init(rule: "untested-transition", kind: "item", reason: "Back links are trivial.")])
        #expect(
            try await FlowLinter(coordinator: TidyApp(), configuration: suppressed, coverage: coverage).run().active
                .map(\.kind?.id) == ["list"])

        // On without coverage: a note, no finding.
        let blind = try await FlowLinter(coordinator: TidyApp(), configuration: on).run()
        #expect(
            blind.findings.isEmpty && blind.coverage == nil
                && blind.notes.contains { $0.hasPrefix("untested-transition: no flow coverage was given") })
        // Only rules that are off by default can be turned on.
        #expect(throws: FlowSiteError.self) { try FlowLintConfiguration(enabledRules: ["dead-end"]).validate() }
        #expect(throws: FlowSiteError.self) { try FlowLintConfiguration(enabledRules: ["untested"]).validate() }
        let decoded = try JSONDecoder().decode(
            FlowLintConfiguration.self, from: Data(#"{"enabledRules": ["untested-transition"]}"#.utf8))
        #expect(decoded.runs(.untestedTransition) && !FlowLintConfiguration().runs(.untestedTransition))
    }

    /// A coverage file naming a transition TidyApp's flow doesn't have (a test that is gone
    /// presented an item as a dialog): lint notes it with its file, and the trait, given the
    /// flow, fails naming it, its test and the file, and saying to re-record.
    @Test func staleCoverageIsReportedByLintAndByTheTrait() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("App.TidyTests.json")
        try FlowCoverageFile(tests: [
            "enteringTheList()": [.init(from: "home", to: "list", presentation: .push)],
            "itemsWereDialogs()": [
                .init(from: "home", to: "list", presentation: .push),
                .init(from: "list", to: "item", presentation: .modal)
            ]
        ]).json().write(to: file, atomically: true, encoding: .utf8)
        let coverage = try FlowGraph.Coverage.load(from: [folder])
        let (graph, report) = try await FlowLinter(coordinator: TidyApp(), coverage: coverage).walk()
        #expect(coverage.stale(in: graph) == [.init(from: "list", to: "item", presentation: .modal)])
        // The counts are of the flow's own transitions, as before.
        #expect(report.coverage?.map(\.tested) == [1, 0, 0])
        let note =
            "flow coverage: \(file.path) names 1 transition the flow no longer has: list → item (modal); "
            + "re-record it (run its tests with FLOW_COVERAGE_RECORD=all)"
            + " and remove the entries of tests that are gone."
        #expect(report.notes.contains(note), "\(report.notes)")
        #expect(report.text().contains("Note: " + note) && report.json().contains("list → item (modal)"))
        // Coverage the flow still has, or made in code, notes nothing of the kind.
        let current = FlowGraph.Coverage([.init(from: "home", to: "list", presentation: .push)])
        let notes = try await FlowLinter(coordinator: TidyApp(), coverage: current).run().notes
        #expect(!notes.contains { $0.hasPrefix("flow coverage:") })

        let trait = FlowCoverageTrait(folder: folder) { try await FlowLinter(coordinator: TidyApp()).walk().graph }
        try await withKnownIssue {
            try await trait.checkFlow(file: file, at: #_sourceLocation)
        } matching: {
            comment(
                "\(file.path) names 1 transition the app's flow no longer has: "
                    + "list → item (modal) in itemsWereDialogs(). "
                    + "The coverage is stale: re-record it (re-run the suite with FLOW_COVERAGE_RECORD=all)")($0)
        }
        // Without the stale entry the check passes.
        let entering = FlowCoverageFile.Transition(from: "home", to: "list", presentation: .push)
        try FlowCoverageFile(tests: ["enteringTheList()": [entering]]).json()
            .write(to: file, atomically: true, encoding: .utf8)
        try await trait.checkFlow(file: file, at: #_sourceLocation)
    }

    /// The flow map's pages of TidyApp's site, built with `coverage`, by path in `flow/`.
    func mapPages(coverage: FlowGraph.Coverage?) async throws -> [String: String] {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var builder = SiteBuilder(coordinator: TidyApp())
        builder.flowCoverage = coverage
        _ = try await builder.build(into: folder)
        let flow = folder.appendingPathComponent("flow")
        var pages: [String: String] = [:]
        for case let file as URL in FileManager.default.enumerator(at: flow, includingPropertiesForKeys: nil)!
        where file.pathExtension == "html" {
            pages[String(file.path.dropFirst(flow.path.count + 1))] = try String(contentsOf: file, encoding: .utf8)
        }
        return pages
    }

    @Test func theMapDrawsUntestedTransitionsApartAndCountsThemPerFlow() async throws {
        let pages = try await mapPages(
            coverage: FlowGraph.Coverage([.init(from: "home", to: "list", presentation: .push)]))
        let whole = try #require(pages["index.html"])
        let svg = try #require(
            whole.components(separatedBy: "<svg class=\"flow-graph\"").dropFirst().first?.components(
                separatedBy: "</svg>"
            ).first)
        // The arrows in the transitions' order (Home → List, List → Item, Item → List): the two
        // untested ones carry the class the stylesheet draws apart and say so in their title;
        // the tested one neither.
        let arrows = svg.components(separatedBy: "<g class=\"").dropFirst().map {
            $0.components(separatedBy: "<path")[0]
        }
        #expect(
            arrows == [
                #"transition push">"#, #"transition push untested"><title>untested</title>"#,
                #"transition push untested"><title>untested</title>"#
            ])
        // The counts, the legend and the table say it in words.
        #expect(whole.contains("<p>The app’s tests take 1 of its 3 transitions."))
        #expect(
            whole.contains(#"<li class="untested"><svg"#)
                && whole.contains("untested: no test of the app takes it</li>"))
        #expect(whole.contains("(1 kind) · tests take 0 of 1 transitions</li>"))
        #expect(whole.contains(#"<th scope="col">Tests</th>"#))
        #expect(whole.components(separatedBy: #"<td class="untested">untested</td>"#).count - 1 == 2)
        #expect(whole.components(separatedBy: "<td>tested</td>").count - 1 == 1)
        // A kind's view marks its own transitions.
        #expect(
            pages.values.contains {
                $0.contains(#"<g class="transition push untested"><title>untested</title>"#) && $0 != whole
            })

        // Without coverage, nothing on the map speaks of tests.
        for (path, page) in try await mapPages(coverage: nil) {
            #expect(!page.contains("untested") && !page.contains("<th scope=\"col\">Tests</th>"), "\(path)")
        }
    }
}

/// Coverage a team can act on: from the screen a test says it taps on, and entries of gone tests pruned
/// (issue 63, item 7).
@Suite struct FlowCoverageUpkeepTests {
    @Test func followRecordsFromTheSourceAndWarnsWhenTheStackDisagrees() async throws {
        let recorder = FlowCoverageRecorder()
        // A navigator reused from an earlier step: Item is on top, but the test taps on the list.
        let navigator = RecordingNavigator<Tidy>(stack: [.home, .list, .item(1)])
        withKnownIssue {
            FlowCoverageRecorder.$current.withValue(recorder) {
                navigator.follow(NavigationAction("Item 2", to: .item(2)), from: .list, on: TidyApp())
            }
        } matching: { issue in
            issue.severity == .warning && "\(issue)".contains("has /list/1/ (item) on top")
        }
        let list = ScreenKind(derivedFrom: Tidy.list).id
        let item = ScreenKind(derivedFrom: Tidy.item(1)).id
        #expect(recorder.transitions == [.init(from: list, to: item, presentation: .push)])
        #expect(navigator.shown == [.init(.item(2), .push)])
    }

    @Test func pruneRemovesTheEntriesOfTestsThatDidNotRun() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("prune-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("App.Suite.json")
        let step = FlowCoverageFile.Transition(from: "home", to: "list", presentation: .push)
        var contents = FlowCoverageFile()
        contents.tests = ["kept()": [step], "deleted()": [step]]
        try Data(contents.json().utf8).write(to: file)
        #expect(try FlowCoverageCheck.settle([step], test: "kept()", in: file, recording: .prune) == nil)
        let message = try #require(try FlowCoverageCheck.prune(file))
        #expect(message.contains("1 test that did not run") && message.contains("deleted()"), "\(message)")
        let after = try FlowCoverageFile(json: try Data(contentsOf: file), source: file.path)
        #expect(Array(after.tests.keys) == ["kept()"])
        #expect(try FlowCoverageCheck.prune(file) == nil, "nothing left to prune")
    }
}
