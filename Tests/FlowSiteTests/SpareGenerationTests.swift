import Foundation
import Testing

@testable import FlowSite

#if canImport(Glibc)
import Glibc
#endif

/// A rebuild starts from the spare generation (the site before the live one) and writes only
/// what differs from it, then swaps it in whole: the result is always what a build into an
/// empty folder makes.
@Suite struct SpareGenerationTests {
    static let app = SiteBuilderTests.app

    func titled(_ title: String, _ app: GraphCoordinator = app) -> GraphCoordinator {
        var app = app
        app.titles["a"] = title
        return app
    }

    /// What a build of `app` into a folder of its own makes.
    func fresh(_ app: GraphCoordinator, in folder: URL) async throws -> [String: Data] {
        let output = folder.appendingPathComponent("fresh-\(UUID().uuidString)")
        try await SiteBuilder(coordinator: app).build(into: output)
        defer { try? FileManager.default.removeItem(at: output) }
        return try SiteDifference.files(in: output)
    }

    func status(_ url: URL) throws -> stat {
        var status = stat()
        try #require(lstat(url.path, &status) == 0, "\(url.path)")
        return status
    }

    @Test func aRebuildKeepsTheSparesUnchangedFilesWithoutTouchingThem() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let spare = folder.appendingPathComponent(".site.spare")
        try await SiteBuilder(coordinator: titled("One")).build(into: output)
        #expect(!FileManager.default.fileExists(atPath: spare.path), "a first build has nothing to keep")
        try await SiteBuilder(coordinator: titled("Two")).build(into: output)
        let page = output.appendingPathComponent("about/index.html") // no link to a/
        let before = try status(page)
        #expect(before.st_nlink == 2, "the live site and the spare share an unchanged page")

        let third = try await SiteBuilder(coordinator: titled("Three")).build(into: output)
        #expect(try SiteDifference.files(in: output) == (try await fresh(titled("Three"), in: folder)))
        let after = try status(page)
        // Linking or writing a file changes its inode's change time; keeping it does not.
        #expect(
            after.st_ino == before.st_ino && after.st_ctim.tv_sec == before.st_ctim.tv_sec
                && after.st_ctim.tv_nsec == before.st_ctim.tv_nsec)
        // Rendered: the pages whose HTML differs between the second site and the third.
        let (two, three) = (try await fresh(titled("Two"), in: folder), try await fresh(titled("Three"), in: folder))
        let changed = three.keys.filter { $0.hasSuffix(".html") && two[$0] != three[$0] }
        #expect(!changed.isEmpty && third.rendered == changed.count, "\(changed) \(third)")
        // The spare is now the second site, ignored by git.
        let kept = try String(contentsOf: spare.appendingPathComponent("site/a/index.html"), encoding: .utf8)
        #expect(kept.contains("<h1>Two</h1>"))
        #expect(try String(contentsOf: spare.appendingPathComponent(".gitignore"), encoding: .utf8).hasSuffix("*\n"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".site.spare", "site"])
    }

    /// A stale page the spare holds alone is written over in place (its inode reused), while one
    /// that another name links to is replaced, never written through.
    @Test func aStalePageIsWrittenOverOnlyWhenNoOtherNameLinksToIt() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let page = output.appendingPathComponent("a/index.html")
        try await SiteBuilder(coordinator: titled("One")).build(into: output)
        let one = try status(page)
        try await SiteBuilder(coordinator: titled("Two")).build(into: output)
        #expect(try status(page).st_ino != one.st_ino)
        try await SiteBuilder(coordinator: titled("Three")).build(into: output)
        // The first site's page, the spare's alone, became the third's.
        #expect(try status(page).st_ino == one.st_ino)
        #expect(try String(contentsOf: page, encoding: .utf8).contains("<h1>Three</h1>"))
        #expect(try SiteDifference.files(in: output) == (try await fresh(titled("Three"), in: folder)))

        // Someone links the spare's stale page (the second site's) from elsewhere.
        let elsewhere = folder.appendingPathComponent("kept.html")
        try FileManager.default.linkItem(
            at: folder.appendingPathComponent(".site.spare/site/a/index.html"), to: elsewhere)
        let kept = try Data(contentsOf: elsewhere)
        try await SiteBuilder(coordinator: titled("Four")).build(into: output)
        #expect(try Data(contentsOf: elsewhere) == kept, "written through a file another name links to")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("<h1>Four</h1>"))
        #expect(try SiteDifference.files(in: output) == (try await fresh(titled("Four"), in: folder)))
    }

    @Test func pagesTheSpareHadAndTheNewSiteHasNotGoWithTheirFolders() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var wide = Self.app
        wide.links[""] = ["a", "about", "x"]
        wide.links["x"] = ["x/y"]
        try await SiteBuilder(coordinator: wide).build(into: output) // the spare of the third build
        try await SiteBuilder(coordinator: titled("Two")).build(into: output)
        try await SiteBuilder(coordinator: titled("Three")).build(into: output)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("x").path))
        #expect(try SiteDifference.files(in: output) == (try await fresh(titled("Three"), in: folder)))
        // …and the other way: pages the spare lacks are added.
        try await SiteBuilder(coordinator: titled("Four", wide)).build(into: output)
        try await SiteBuilder(coordinator: titled("Five", wide)).build(into: output)
        #expect(try SiteDifference.files(in: output) == (try await fresh(titled("Five", wide), in: folder)))
    }

    @Test func aSpareWithoutItsManifestOrWithFilesChangedByHandIsNotTrusted() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let spare = folder.appendingPathComponent(".site.spare/site")
        try await SiteBuilder(coordinator: titled("One")).build(into: output)
        try await SiteBuilder(coordinator: titled("Two")).build(into: output)
        try FileManager.default.removeItem(at: spare.appendingPathComponent(SiteLayout.manifest))
        try Data("stray".utf8).write(to: spare.appendingPathComponent("stray.txt"))
        try await SiteBuilder(coordinator: titled("Three")).build(into: output)
        #expect(try SiteDifference.files(in: output) == (try await fresh(titled("Three"), in: folder)))

        // A page edited in place in the live site is the same file as the spare's: both are
        // restored, since its size and time no longer match what the build wrote.
        let page = output.appendingPathComponent("a/b/c/index.html")
        let handle = try FileHandle(forWritingTo: page)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("<!-- edited -->".utf8))
        try handle.close()
        try await SiteBuilder(coordinator: titled("Four")).build(into: output)
        try await SiteBuilder(coordinator: titled("Five")).build(into: output)
        #expect(try SiteDifference.files(in: output) == (try await fresh(titled("Five"), in: folder)))
    }

    @Test func aFailedBuildFromTheSpareLeavesTheLiveSiteAndTheNextBuildStartsAfresh() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        try await SiteBuilder(coordinator: titled("One")).build(into: output)
        try await SiteBuilder(coordinator: titled("Two")).build(into: output)
        let live = try SiteDifference.files(in: output)
        var failing = SiteBuilder(coordinator: titled("Three"))
        failing.beforeCommit = { _ in throw GraphError(description: "killed midway") }
        await #expect(throws: GraphError.self) { try await failing.build(into: output) }
        #expect(try SiteDifference.files(in: output) == live)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".site.spare", "site"])
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(".site.spare").path) == [
                ".gitignore"
            ])
        try await SiteBuilder(coordinator: titled("Four")).build(into: output)
        #expect(try SiteDifference.files(in: output) == (try await fresh(titled("Four"), in: folder)))
    }

    /// A `.site.spare` that is a symbolic link (to a folder of someone else's with a `site` in
    /// it) is never read, renamed or emptied; the builds go on without a spare.
    @Test func aSpareFolderThatIsALinkIsLeftAlone() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let elsewhere = folder.appendingPathComponent("elsewhere/site")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let precious = elsewhere.appendingPathComponent("precious.txt")
        try Data("keep me".utf8).write(to: precious)
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent(".site.spare"),
            withDestinationURL: folder.appendingPathComponent("elsewhere")
        )
        let output = folder.appendingPathComponent("site")
        for title in ["One", "Two", "Three"] { try await SiteBuilder(coordinator: titled(title)).build(into: output) }
        #expect(try String(contentsOf: precious, encoding: .utf8) == "keep me")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path) == ["precious.txt"])
        #expect(try SiteDifference.files(in: output) == (try await fresh(titled("Three"), in: folder)))
    }

    /// A folder of the live site replaced by a link to a copy elsewhere comes back as the
    /// spare two builds later: the build that starts from it removes the link and never
    /// removes, links or writes a file through it.
    @Test func aLinkPutInTheLiveSiteIsNeverFollowedWhenItBecomesTheSpare() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        let output = folder.appendingPathComponent("site")
        let outside = folder.appendingPathComponent("outside")
        try await SiteBuilder(coordinator: titled("One")).build(into: output)
        try await SiteBuilder(coordinator: titled("Two")).build(into: output)
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        try manager.copyItem(at: output.appendingPathComponent("a"), to: outside.appendingPathComponent("a"))
        try manager.removeItem(at: output.appendingPathComponent("a"))
        try manager.createSymbolicLink(
            at: output.appendingPathComponent("a"), withDestinationURL: outside.appendingPathComponent("a"))
        let outsideBefore = try SiteDifference.files(in: outside)

        // The third build starts from the first site; the second, with the link, becomes the spare.
        try await SiteBuilder(coordinator: titled("Three")).build(into: output)
        // The fourth starts from it, and changes a/ and the pages below it.
        try await SiteBuilder(coordinator: titled("Four")).build(into: output)
        try await SiteBuilder(coordinator: titled("Five")).build(into: output)
        #expect(try SiteDifference.files(in: outside) == outsideBefore, "the folder the link led to is as it was")
        #expect(try status(output.appendingPathComponent("a")).st_mode & S_IFMT == S_IFDIR)
        #expect(try SiteDifference.files(in: output) == (try await fresh(titled("Five"), in: folder)))
    }
}
