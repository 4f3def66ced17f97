import FlowSite
import Foundation
import Testing

/// Flow lint on the flow map, and findings that point at the code to change.
@Suite struct FlowMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The text of `location`'s line, read from the test's own sources.
    func line(_ location: CodeLocation?, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let location = try #require(location, sourceLocation: sourceLocation)
        let lines = try String(contentsOfFile: location.filePath, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        return String(lines[location.line - 1])
    }

    /// The flow map pages of `app`'s site, by their paths in `flow/`.
    func mapPages(_ app: some RootCoordinator) async throws -> [String: String] {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await SiteBuilder(coordinator: app).build(into: folder)
        let flow = folder.appendingPathComponent("flow")
        var pages: [String: String] = [:]
        for case let file as URL in FileManager.default.enumerator(at: flow, includingPropertiesForKeys: nil)!
        where file.pathExtension == "html" {
            pages[String(file.path.dropFirst(flow.path.count + 1))] = try String(contentsOf: file, encoding: .utf8)
        }
        return pages
    }

    @Test func anUnreachableKindPointsAtItsDeclarationAndAClickDepthFindingAtTheNavigationThatMakesTheChain()
        async throws
    {
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
        #expect(
            deep.message.contains("the deepest 6 clicks, 5 of them Chain → Chain (push) in a row"), "\(deep.message)")
    }

    @Test func lintTextNamesPathsAnEditorOpens() async throws {
        let report = try await FlowLinter(coordinator: SpotApp()).run()
        let rooted = report.text(sourceRoot: Self.root.path)
        #expect(rooted.contains("    at Tests/FlowSiteTests/FlowLintTests.swift:"), "\(rooted)")
        #expect(!rooted.contains("at FlowSiteTests/"))
        // Without a root too: one form, from the package's root, the same on every machine.
        #expect(report.text().contains("    at Tests/FlowSiteTests/FlowLintTests.swift:"))
    }

    @Test func theMapBadgesKindsWithFindingsAndDrawsAnUnreachableKindApart() async throws {
        let report = try await FlowLinter(coordinator: SpotApp(offersUnhandledLink: false)).run()
        let pages = try await mapPages(SpotApp(offersUnhandledLink: false))
        let whole = try #require(pages["index.html"])
        let svg = try #require(
            whole.components(separatedBy: "<svg class=\"flow-graph\"").dropFirst().first?.components(
                separatedBy: "</svg>"
            ).first)

        // One badge per kind and rule, linked to its finding's place in the list.
        let badges = svg.components(separatedBy: "<a class=\"badge\" href=\"").dropFirst().map {
            $0.components(separatedBy: "\"")[0]
        }
        let broken = report.active.filter { $0.kind != nil && $0.rule != .unreachableScreen }
        #expect(badges.count == Set(broken.map { [$0.rule.id, $0.kind!.id] }).count)
        for badge in badges {
            let anchor = try #require(badge.split(separator: "#").last)
            #expect(badge.hasPrefix("index.html#") && whole.contains("<li id=\"\(anchor)\">"), "\(badge) leads nowhere")
        }
        #expect(
            svg.contains(#"<a class="badge" href="index.html#finding-dead-end-dead" aria-label="Dead: dead-end 1">"#))
        #expect(svg.contains(">click-depth 2</text>"))

        // The orphan: a box of its own, saying so, leading to its finding.
        #expect(
            svg.contains(
                ##"""
                <a class="kind unreachable" href="#finding-unreachable-screen-orphan" \##
                aria-label="Orphan · no way in"><title>Tests/FlowSiteTests/FlowLintTests.swift:
                """##
            ))
        #expect(whole.contains(#"<li id="finding-unreachable-screen-orphan"><code>unreachable-screen</code> Orphan: "#))
        #expect(
            whole.contains(
                ##"""
                <tr class="unreachable"><th scope="row"><a href="#finding-unreachable-screen-orphan">Orphan</a></th>
                """##
            ))

        // Every box and every kind's row names its source line from the package's root, as lint does, never
        // by this machine's path.
        #expect(
            svg.components(separatedBy: "<title>").count - 1 == report.findings.count { $0.rule == .unreachableScreen }
                + 8)
        #expect(
            whole.components(separatedBy: "<td><code>Tests/<wbr>FlowSiteTests/<wbr>FlowLintTests.swift:").count - 1 == 9
        )
        for (path, page) in pages { #expect(!page.contains(Self.root.path), "\(path) names a path of this machine") }

        // A flow's map and a kind's view link their badges to the whole map's list.
        let about = try #require(pages["about/index.html"])
        #expect(about.contains(#"<a class="badge" href="../index.html#finding-modal-over-modal-legal""#))
    }

    @Test func aMapWithoutFindingsSaysSo() async throws {
        let whole = try #require(try await mapPages(TidyApp())["index.html"])
        #expect(whole.contains("<p>Flow lint found nothing to report.</p>"))
        #expect(!whole.contains("class=\"badge\""))
    }
}
