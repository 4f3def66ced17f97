import Foundation
import TestSupport
import Testing

/// The example a newcomer starts from, used as they would use it: the README's program is the
/// example's `main.swift`, and running it builds a site.
@Suite struct HelloFlowSiteTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func theReadmesFirstProgramIsTheExample() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(
            readme.range(of: "## Use FlowSite in your own app"),
            "the README has no 'Use FlowSite in your own app' section")
        let start = try #require(readme.range(of: "```swift\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let program = String(readme[start.upperBound..<end.lowerBound]) + "\n"
        let example = try String(
            contentsOf: Self.repository.appendingPathComponent("Examples/HelloFlowSite/main.swift"), encoding: .utf8)
        #expect(program == example, "copy Examples/HelloFlowSite/main.swift into the README's first swift block")
        #expect(example.split(separator: "\n").count <= 80)
    }

    /// The README's Journeys block is the Star Wars app's journeys file, whole, so it compiles as shown.
    @Test func theReadmesJourneysAreTheAppsFile() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(readme.range(of: "\n### Journeys\n"), "the README has no 'Journeys' section")
        let start = try #require(readme.range(of: "```swift\n", range: section.upperBound..<readme.endIndex))
        let end = try #require(readme.range(of: "\n```", range: start.upperBound..<readme.endIndex))
        let file = "StarWars/Sources/StarWarsApp/App/AppCoordinator+Journeys.swift"
        let journeys = try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8)
        #expect(String(readme[start.upperBound..<end.lowerBound]) + "\n" == journeys, "copy \(file) into the README")
    }

    /// The generated tests the README and the Testing article show are the start of the files `lint --write-tests`
    /// wrote and the tests compile and run (the Star Wars app's and the forum's), closed after a whole test: a suite
    /// that compiles as pasted.
    @Test(arguments: [
        (
            "README.md", "\n### Tests for the untested transitions\n",
            "StarWars/Tests/StarWarsAppTests/UntestedTransitionTests.swift"
        ),
        (
            "Sources/FlowSite/FlowSite.docc/Testing.md", "\n### Tests for the transitions no test takes\n",
            "Tests/FlowSiteTests/Forum/ForumUntestedTransitionTests.swift"
        )
    ])
    func theWrittenTestsShownAreTheCommittedOnes(document: String, heading: String, file: String) throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent(document), encoding: .utf8)
        let section = try #require(text.range(of: heading), "\(document) has no '\(heading)' section")
        let start = try #require(text.range(of: "```swift\n", range: section.upperBound..<text.endIndex))
        let end = try #require(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        let block = String(text[start.upperBound..<end.lowerBound])
        let tests = try String(contentsOf: Self.repository.appendingPathComponent(file), encoding: .utf8)
        #expect(block.hasSuffix("\n    }\n}"), "the block ends after a whole test, with the suite's brace")
        #expect(
            tests.hasPrefix(String(block.dropLast()) + "\n"),
            "copy the start of \(file) (through a test's closing brace) into \(document), and close the suite")
    }

    @Test func runningTheExampleBuildsItsSite() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hello-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, stdout) = try Executables.run("hello-flowsite", [folder.appendingPathComponent("site").path])
        #expect(status == 0)
        #expect(stdout.hasPrefix("Built 4 pages"), "\(stdout)")
        // The deliberate dead end, found by flow lint and printed with the report.
        #expect(stdout.contains("Flow lint: 1 warning (dead-end 1)"), "\(stdout)")
        #expect(stdout.contains("1 Farewell page has no link of its own"), "\(stdout)")
        let site = folder.appendingPathComponent("site")
        let greeting = try String(contentsOf: site.appendingPathComponent("greeting/index.html"), encoding: .utf8)
        #expect(greeting.contains("Hello from a mocked service!"))
        #expect(greeting.contains(#"<a href="../index.html">Hello FlowSite</a>"#), "Greeting is pushed over Home")
        let about = try String(contentsOf: site.appendingPathComponent("about/index.html"), encoding: .utf8)
        #expect(
            about.contains(#"<div class="dialog">"#) && about.contains(#"href="../greeting/index.html""#),
            "About is a modal over Greeting")
        let map = try String(contentsOf: site.appendingPathComponent("flow/index.html"), encoding: .utf8)
        for kind in ["Home", "Greeting", "About", "Farewell"] {
            #expect(map.contains(">\(kind)</text>"), "no \(kind) on the flow map")
        }
    }
}
