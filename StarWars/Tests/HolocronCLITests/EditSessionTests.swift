import FlowSite
import FlowSiteCommandLine
import Foundation
import HolocronCLI
import HolocronKit
import Testing

/// `serve --watch`'s rebuilds build from the journal the last good build kept: each reads only
/// the data files that changed and makes only the pages an edit reaches, and the site is always
/// what a build from nothing makes of the same files, failed rebuilds in between or not.
@Suite struct EditSessionTests {
    let cli = HolocronCLITests()

    func edit(_ file: URL, _ old: String, _ new: String) throws {
        let text = try String(contentsOf: file, encoding: .utf8)
        let range = try #require(text.range(of: old), "\(old) in \(file.lastPathComponent)")
        try Data(text.replacingCharacters(in: range, with: new).utf8).write(to: file)
    }

    @Test func aRebuildAfterAFailedOneStillSeesEveryEditSinceTheLastGoodBuild() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try FileManager.default.copyItem(
            at: HolocronCLITests.appPackage.appendingPathComponent("Sources/SWAPI/Resources/snapshot"), to: data)
        let footer = folder.appendingPathComponent("mine/partials/footer.mustache")
        try FileManager.default.createDirectory(
            at: footer.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("<footer>the footer</footer>".utf8).write(to: footer)
        let site = folder.appendingPathComponent("site")
        let build = BuildAction(
            output: site, source: .directory(data),
            templates: footer.deletingLastPathComponent().deletingLastPathComponent(), quiet: true
        )
        .rebuilds()

        let first = try await build(nil)
        #expect(first.replayed == 0)

        // Luke grows, and the footer breaks in the same save: the rebuild fails after reading people.json.
        try edit(data.appendingPathComponent("people.json"), "\"height\": \"172\"", "\"height\": \"181\"")
        try Data("<footer>{{#unclosed}}</footer>".utf8).write(to: footer)
        await #expect(throws: (any Error).self) { try await build([]) }

        // The footer is mended and Hoth's climate edited: this rebuild reads only planets.json,
        // yet Luke's page must show his new height.
        try Data("<footer>the footer</footer>".utf8).write(to: footer)
        try edit(data.appendingPathComponent("planets.json"), "\"climate\": \"frozen\"", "\"climate\": \"frozen, icy\"")
        let third = try await build([])
        #expect(third.replayed > third.pages / 2, "\(third.replayed) of \(third.pages) replayed")

        let fresh = folder.appendingPathComponent("fresh")
        _ = try await BuildAction(
            output: fresh, source: .directory(data),
            templates: footer.deletingLastPathComponent().deletingLastPathComponent(), quiet: true
        ).run()
        #expect(try SiteDifference.files(in: site) == (try SiteDifference.files(in: fresh)))
        let luke = try String(
            contentsOf: site.appendingPathComponent("characters/luke-skywalker/index.html"), encoding: .utf8)
        #expect(luke.contains("<strong>Height:</strong> 181 cm"))
    }
}
