import FlowSite
import FlowSiteCommandLine
import Foundation
import Testing

/// A ship's decks: the bridge links to engineering and the brig; the brig links nowhere.
enum Deck: String, Route, CaseIterable {
    case bridge, engineering, brig

    var path: RoutePath { self == .bridge ? .root : [Slug(rawValue)] }
    static var screenKindExamples: [Deck] { allCases }
}

struct DeckScreen: Screen {
    let deck: Deck
    /// Engineering's crew list, so two builds can differ.
    let engineers: [String]
    /// The brig's links out of the site.
    var linksOut: [String] = []

    func makePage() async throws -> Page<Deck> {
        var document = MarkdownDocument<Deck>()
        switch deck {
        case .bridge:
            document.paragraph(.link("Engineering", to: .engineering))
            document.paragraph(.link("Brig", to: .brig))
        case .engineering:
            document.list(engineers.map { [.text($0)] })
            document.paragraph(.link("Bridge", to: .bridge))
        case .brig:
            document.paragraph("Nobody leaves the brig.")
            for url in linksOut { document.paragraph(.externalLink("Log", to: url)) }
        }
        return Page(title: deck.rawValue.capitalized, document: document)
    }
}

struct ShipCoordinator: RootCoordinator {
    var engineers = ["Scotty"]
    var linksOut: [String] = []
    var startRoute: Deck { .bridge }
    var siteInfo: SiteInfo<Deck> { SiteInfo(name: "Ship", footer: "A test ship.") }
    func makeScreen(for route: Deck) async throws -> any Screen<Deck> {
        DeckScreen(deck: route, engineers: engineers, linksOut: linksOut)
    }
    func presentation(of route: Deck, from source: Deck) -> Presentation { .push }
}

/// The site executable's command line, run in process as `main.swift` runs it.
@Suite struct SiteCommandLineTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "site-command-line-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func run(_ arguments: String..., app: ShipCoordinator = ShipCoordinator()) async -> Int32 {
        await SiteBuilder.runCommandLine(arguments, coordinator: app)
    }

    @Test func buildWritesTheSiteAndStrictLintFailsIt() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        #expect(await run("build", "--output", site.path, "--quiet") == 0)
        for page in ["index.html", "engineering/index.html", "brig/index.html", "flow/index.html"] {
            #expect(FileManager.default.fileExists(atPath: site.appendingPathComponent(page).path), "no \(page)")
        }
        // The brig is a dead end, a warning: --strict fails the build and keeps the old site.
        let strict = folder.appendingPathComponent("strict")
        #expect(await run("build", "--output", strict.path, "--strict", "--quiet") == 1)
        #expect(!FileManager.default.fileExists(atPath: strict.appendingPathComponent("index.html").path))
    }

    @Test func lintWritesSARIFWithPathsFromTheSourceRootAndExitsOneUnderStrict() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sarif = folder.appendingPathComponent("lint.sarif")
        #expect(
            await run("lint", "--format", "sarif", "--output", sarif.path, "--source-root", Self.repository.path) == 0)
        let log = try String(contentsOf: sarif, encoding: .utf8)
        #expect(log.contains(#""ruleId" : "dead-end""#), "\(log)")
        #expect(log.contains(#""uri" : "Tests/FlowSiteCommandLineTests/SiteCommandLineTests.swift""#), "\(log)")
        // JSON names the place as text and SARIF do: from the source root.
        let json = folder.appendingPathComponent("lint-report.json")
        let root = Self.repository.path
        #expect(await run("lint", "--format", "json", "--output", json.path, "--source-root", root) == 0)
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any]
        let locations = try #require(document?["findings"] as? [[String: Any]]).compactMap { $0["location"] as? String }
        let file = "Tests/FlowSiteCommandLineTests/SiteCommandLineTests.swift:"
        #expect(!locations.isEmpty && locations.allSatisfy { $0.hasPrefix(file) }, "\(locations)")
        #expect(
            await run(
                "lint", "--strict", "--output", folder.appendingPathComponent("lint.txt").path, "--source-root",
                folder.path) == 1)
        let text = try String(contentsOf: folder.appendingPathComponent("lint.txt"), encoding: .utf8)
        // Outside the source root too, the location is from the package's root, as on the map.
        #expect(text.contains("at Tests/FlowSiteCommandLineTests/SiteCommandLineTests.swift:"), "\(text)")
        let config = folder.appendingPathComponent("lint.json")
        try Data(#"{"disabledRules": {"dead-end": "The brig is meant to hold."}}"#.utf8).write(to: config)
        #expect(
            await run(
                "lint", "--strict", "--config", config.path, "--output", folder.appendingPathComponent("quiet.txt").path
            ) == 0)
        #expect(await run("lint", "--max-depth", "0") == 2, "a bad option is a usage error")
    }

    /// `--write-tests FILE` writes a suite named after the file with a test per untested transition, making the
    /// coordinator with its type's `init()` or `--test-coordinator`; a bad option is a usage error, and a file that
    /// can't be written is left as it was.
    @Test func lintWritesTheTestsOfTheUntestedTransitions() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let coverage = folder.appendingPathComponent("DeckTests.json")
        try Data(
            #"{"format": 1, "tests": {"t()": [{"from": "bridge", "to": "engineering", "presentation": "push"}]}}"#
                .utf8
        ).write(to: coverage)
        let file = folder.appendingPathComponent("ShipTransitionTests.swift")
        #expect(await run("lint", "--quiet", "--coverage", coverage.path, "--write-tests", file.path) == 0)
        let tests = try String(contentsOf: file, encoding: .utf8)
        #expect(tests.contains("@Suite struct ShipTransitionTests {\n"), "\(tests)")
        #expect(tests.contains("@testable import FlowSiteCommandLineTests\n"), "\(tests)")
        // Bridge → Brig and Engineering → Bridge; Bridge → Engineering is tested.
        #expect(tests.components(separatedBy: "    @Test func ").count == 3, "\(tests)")
        #expect(
            tests.contains(
                """
                    @Test func fromBridgeToBrig() {
                        let app = ShipCoordinator()
                        let source: Deck = .bridge
                        let target: Deck = .brig
                        let navigator = RecordingNavigator<Deck>(stack: [source])
                        navigator.follow(NavigationAction("Brig", to: target), from: source, on: app)
                        #expect(navigator.shown == [.init(target, .push)])
                    }
                """), "\(tests)")
        let named = folder.appendingPathComponent("ship-tests.swift")
        let expression = "ShipCoordinator(engineers: [])"
        #expect(
            await run(
                "lint", "--quiet", "--coverage", coverage.path, "--write-tests", named.path, "--test-coordinator",
                expression) == 0)
        let renamed = try String(contentsOf: named, encoding: .utf8)
        #expect(
            renamed.contains("@Suite struct UntestedTransitionTests {\n")
                && renamed.contains("let app = \(expression)\n"))

        // Usage errors, and nothing written.
        let other = folder.appendingPathComponent("Other.swift")
        #expect(await run("lint", "--write-tests", other.path) == 2, "no --coverage")
        #expect(await run("lint", "--coverage", coverage.path, "--write-tests", folder.path + "/Tests.txt") == 2)
        #expect(await run("lint", "--coverage", coverage.path, "--test-coordinator", expression) == 2)
        #expect(
            await run("lint", "--coverage", coverage.path, "--write-tests", other.path, "--test-coordinator", " ") == 2)
        #expect(!FileManager.default.fileExists(atPath: other.path))
        let nowhere = folder.appendingPathComponent("no/such/folder/Tests.swift")
        #expect(await run("lint", "--quiet", "--coverage", coverage.path, "--write-tests", nowhere.path) == 2)
        // A failed run leaves the file it would have written as it was.
        let before = try Data(contentsOf: file)
        #expect(
            await run(
                "lint", "--coverage", folder.appendingPathComponent("missing").path, "--write-tests", file.path) == 2)
        #expect(try Data(contentsOf: file) == before)
    }

    /// `--coverage` (a folder of the files `.flowCoverage()` tests write): lint counts it and,
    /// with `--enable untested-transition`, reports what no test takes; build marks it on the map.
    @Test func lintAndBuildReadFlowCoverage() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let coverage = folder.appendingPathComponent("flow-coverage")
        try FileManager.default.createDirectory(at: coverage, withIntermediateDirectories: true)
        // The brig is pushed now; an older test presented it as a dialog.
        try Data(
            #"""
            {"format": 1, "tests": {
              "engineeringIsPushed()": [{"from": "bridge", "to": "engineering", "presentation": "push"}],
              "brigIsADialog()": [{"from": "bridge", "to": "brig", "presentation": "modal"}]}}
            """#.utf8
        ).write(to: coverage.appendingPathComponent("ShipTests.DeckTests.json"))
        let report = folder.appendingPathComponent("lint.txt")
        #expect(
            await run("lint", "--coverage", coverage.path, "--enable", "untested-transition", "--output", report.path)
                == 0)
        let text = try String(contentsOf: report, encoding: .utf8)
        #expect(text.contains("Flow coverage: tests take 1 of 3 transitions"), "\(text)")
        #expect(
            text.contains("warning: untested-transition (2): ")
                && text.contains("untested: bridge → brig (push), 1 link\n"), "\(text)")
        // The stale transition is named, with its file, in a note.
        let file = coverage.appendingPathComponent("ShipTests.DeckTests.json").path
        let note =
            "Note: flow coverage: \(file) names 1 transition the flow no longer has: bridge → brig (modal); "
            + "re-record it"
        #expect(text.contains(note), "\(text)")
        // Every finding unless --limit cuts them, and then the report says how to see the rest.
        let limited = folder.appendingPathComponent("limited.txt")
        let arguments = ["lint", "--coverage", coverage.path, "--enable", "untested-transition", "--limit", "1"]
        let ship = ShipCoordinator()
        let status = await SiteBuilder.runCommandLine(arguments + ["--output", limited.path], coordinator: ship)
        #expect(status == 0)
        let cut = try String(contentsOf: limited, encoding: .utf8)
        #expect(cut.contains("warning: untested-transition (2): "), "\(cut)")
        #expect(cut.contains("\n  … and 1 more (run without --limit to see all)\n"), "\(cut)")
        #expect(!text.contains("… and"), "\(text)")
        #expect(await run("lint", "--limit", "0") == 2, "a limit below 1 is a usage error")
        #expect(await run("lint", "--enable", "dead-end") == 2, "only a rule that is off by default can be turned on")
        #expect(
            await run("lint", "--coverage", folder.appendingPathComponent("nowhere").path) == 2,
            "a missing coverage folder is an error")

        let site = folder.appendingPathComponent("site")
        #expect(await run("build", "--output", site.path, "--coverage", coverage.path, "--quiet") == 0)
        let map = try String(contentsOf: site.appendingPathComponent("flow/index.html"), encoding: .utf8)
        // Bridge → Engineering, Bridge → Brig, Engineering → Bridge: the last two untested.
        #expect(
            map.components(separatedBy: "<g class=\"transition push").dropFirst().map { $0.hasPrefix(" untested") } == [
                false, true, true
            ])
    }

    @Test func diffExitsZeroForTheSameSiteOneForAChangeTwoForNoSite() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (old, same, new) = (
            folder.appendingPathComponent("old"), folder.appendingPathComponent("same"),
            folder.appendingPathComponent("new")
        )
        #expect(await run("build", "--output", old.path, "--quiet") == 0)
        #expect(await run("build", "--output", same.path, "--quiet") == 0)
        #expect(
            await run("build", "--output", new.path, "--quiet", app: ShipCoordinator(engineers: ["Scotty", "Keenser"]))
                == 0)
        #expect(await run("diff", old.path, same.path) == 0)
        let report = folder.appendingPathComponent("diff.md")
        #expect(await run("diff", old.path, new.path, "--format", "markdown", "--output", report.path) == 1)
        let markdown = try String(contentsOf: report, encoding: .utf8)
        #expect(markdown.contains("Keenser"), "\(markdown)")
        // The review page beside the Markdown report, which links to it by its name there.
        let page = folder.appendingPathComponent("diff.html")
        #expect(
            await run(
                "diff", old.path, new.path, "--format", "markdown", "--output", report.path, "--html-report", page.path)
                == 1)
        #expect(try String(contentsOf: report, encoding: .utf8).contains("**[The review page](diff.html)**"))
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.hasPrefix("<!doctype html>") && html.contains("Keenser"), "\(html)")
        #expect(await run("diff", old.path, folder.appendingPathComponent("nowhere").path) == 2)
    }

    @Test func graphWritesTheFlowByKindOrEveryPage() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let mermaid = folder.appendingPathComponent("flow.mmd")
        #expect(await run("graph", "--format", "mermaid", "--output", mermaid.path) == 0)
        let flow = try String(contentsOf: mermaid, encoding: .utf8)
        #expect(flow.contains("flowchart") && flow.contains("Brig"), "\(flow)")
        let json = folder.appendingPathComponent("pages.json")
        #expect(await run("graph", "--level", "pages", "--format", "json", "--output", json.path) == 0)
        let pages = try JSONSerialization.jsonObject(with: Data(contentsOf: json))
        #expect(pages is [String: Any])
        #expect(await run("graph", "--format", "svg") == 2, "an unknown format is a usage error")
    }
}
