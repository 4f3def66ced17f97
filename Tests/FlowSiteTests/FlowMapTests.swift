import FlowSite
import Foundation
import Testing

/// Flow lint findings that point at the code to change.
@Suite struct FlowMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The text of `location`'s line, read from the test's own sources.
    func line(_ location: CodeLocation?, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let location = try #require(location, sourceLocation: sourceLocation)
        let lines = try String(contentsOfFile: location.filePath, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
        return String(lines[location.line - 1])
    }

    @Test func anUnreachableKindPointsAtItsDeclarationAndAClickDepthFindingAtTheNavigationThatMakesTheChain() async throws {
        let report = try await FlowLinter(coordinator: SpotApp()).run()
        let orphan = try #require(report.findings.first { $0.rule == .unreachableScreen })
        #expect(orphan.location?.fileID == "FlowSiteTests/FlowLintTests.swift")
        #expect(try line(orphan.location).contains(#"ScreenKind("orphan", name: "Orphan")"#))
        // A kind read from its case has no declaration to point at.
        #expect(ScreenKind(derivedFrom: Spot.orphan).location == nil)

        // Home → Step 1 is one click; the five Step → Step clicks make the chain deep.
        let deep = try #require(report.findings.first { $0.rule == .clickDepth })
        let call = try line(deep.location)
        #expect(call.contains("if case .chain = source") && call.contains("navigator.show("), "\(call)")
        #expect(deep.message.contains("the deepest 6 clicks, 5 of them Chain → Chain (push) in a row"), "\(deep.message)")
    }

    @Test func lintTextNamesPathsAnEditorOpens() async throws {
        let report = try await FlowLinter(coordinator: SpotApp()).run()
        let rooted = report.text(sourceRoot: Self.root.path)
        #expect(rooted.contains("    at Tests/FlowSiteTests/FlowLintTests.swift:"), "\(rooted)")
        #expect(!rooted.contains("at FlowSiteTests/"))
        // Without a root, the file's own path on this machine, not its module-relative id.
        #expect(report.text().contains("    at \(Self.root.path)/Tests/FlowSiteTests/FlowLintTests.swift:"))
    }
}
