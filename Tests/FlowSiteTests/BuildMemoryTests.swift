@_spi(Engine) @testable import FlowSite
import Foundation
import Testing

/// A build that replays pages from the last build's memory (``SiteBuilder/memory``) makes the
/// same site a build from nothing does.
@Suite struct BuildMemoryTests {
    static let app = SiteBuilderTests.app

    func build(
        _ app: GraphCoordinator, into output: URL, memory: BuildMemory<Node>? = nil, changed: Set<InputKey>? = nil, inPlace: Bool = false
    ) async throws -> BuildReport {
        var builder = SiteBuilder(coordinator: app)
        builder.memory = memory
        builder.changedInputs = changed
        builder.patchesInPlace = inPlace
        return try await builder.build(into: output)
    }

    func inode(_ url: URL) -> UInt64? {
        var status = stat()
        return lstat(url.path, &status) == 0 ? UInt64(status.st_ino) : nil
    }

    /// A private preview (``SiteBuilder/patchesInPlace``): an edit that moves no page writes just
    /// the files it changes into the live folder, and the site is the one a full build makes;
    /// an edit after it that moves pages is built as a new generation, from that site, and is
    /// right too.
    @Test func aPreviewIsPatchedInPlaceAndAGenerationBuiltAfterItIsRight() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let memory = BuildMemory<Node>()
        var app = Self.app
        app.search = SiteSearch(summaries: true)
        try await build(app, into: output, memory: memory, inPlace: true)
        // A second generation, so the spare shares the untouched files' inodes with the site.
        app.summaries["about"] = "First words"
        try await build(app, into: output, memory: memory, changed: [GraphCoordinator.inputKey("about")])
        let spareAB = folder.appendingPathComponent(".site.spare/site/a/b/index.html")
        let spareBytes = try Data(contentsOf: spareAB)
        let untouched = inode(output.appendingPathComponent("a/index.html"))
        let manifest = try Data(contentsOf: output.appendingPathComponent(SiteWriter.manifestName))

        app.summaries["a/b"] = "A summary written since"
        let edit = try await build(app, into: output, memory: memory, changed: [GraphCoordinator.inputKey("a/b")], inPlace: true)
        #expect(edit.patched && edit.rendered == 1 && edit.replayed == edit.pages - 1 && edit.files - edit.unchangedFiles == 3, "\(edit)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
        #expect(try String(contentsOf: output.appendingPathComponent("search-index.json"), encoding: .utf8).contains("A summary written since"))
        // In place: the other pages and the bookkeeping are as they were, the spare untouched
        // (the page it shared with the site was replaced, never written through).
        #expect(inode(output.appendingPathComponent("a/index.html")) == untouched)
        #expect(try Data(contentsOf: output.appendingPathComponent(SiteWriter.manifestName)) == manifest)
        #expect(try Data(contentsOf: spareAB) == spareBytes)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".site.spare", "site"])
        #expect(!(try FileManager.default.contentsOfDirectory(atPath: output.appendingPathComponent("a/b").path)).contains { $0.contains("holocron-patch") })

        // Patched again, from the patched memory.
        app.summaries["a/b"] = "Written once more"
        let again = try await build(app, into: output, memory: memory, changed: [GraphCoordinator.inputKey("a/b")], inPlace: true)
        #expect(again.patched && again.rendered == 1, "\(again)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))

        // A link added moves pages: a new generation, which must not trust the patched files'
        // old manifest entries.
        app.links["about", default: []].append("a")
        app.summaries["a/b"] = "And a third time"
        let moved = try await build(app, into: output, memory: memory, changed: [GraphCoordinator.inputKey("about"), GraphCoordinator.inputKey("a/b")], inPlace: true)
        #expect(!moved.patched, "\(moved)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
        // And the generation after that starts from a spare that was patched in place.
        app.summaries["a/b"] = nil
        app.summaries["a"] = "The own summary of a"
        let last = try await build(app, into: output, memory: memory, changed: [GraphCoordinator.inputKey("a/b"), GraphCoordinator.inputKey("a")])
        #expect(last.patched, "\(last)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
    }

    /// A page's own files follow it in place too: a new one is written, one it no longer
    /// writes goes, and the preview is the site a full build makes.
    @Test func aPatchedPageWritesAndRemovesItsOwnFiles() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let memory = BuildMemory<Node>()
        var app = Self.app
        app.files["a/b"] = ["data.json": Data("[1]".utf8)]
        let first = try await build(app, into: output, memory: memory, inPlace: true)
        app.files["a/b"] = ["other.json": Data("[2]".utf8)]
        let edit = try await build(app, into: output, memory: memory, changed: [GraphCoordinator.inputKey("a/b")], inPlace: true)
        // One file in place of another: as many files, one written.
        #expect(edit.patched && edit.files == first.files && edit.unchangedFiles == first.files - 1, "\(edit)")
        let full = try await fresh(app, in: folder)
        #expect(try SiteDifference.files(in: output) == full)
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("a/b/data.json").path))
    }

    /// A page made again that fails leaves the preview as it was and the memory forgotten.
    @Test func aFailedPatchLeavesThePreviewAsItWas() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let memory = BuildMemory<Node>()
        var app = Self.app
        try await build(app, into: output, memory: memory, inPlace: true)
        let before = try SiteDifference.files(in: output)
        app.failing = ["a/b"]
        await #expect(throws: (any Error).self) {
            try await build(app, into: output, memory: memory, changed: [GraphCoordinator.inputKey("a/b")], inPlace: true)
        }
        #expect(try SiteDifference.files(in: output) == before)
        #expect(memory.pageCount == 0, "a failed build forgets what it half updated")
    }

    func fresh(_ app: GraphCoordinator, in folder: URL) async throws -> [String: Data] {
        let output = folder.appendingPathComponent("fresh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        try await build(app, into: output)
        return try SiteDifference.files(in: output)
    }

    /// Retitling `a` changes only what `a` read, but every page below `a` shows the title in its
    /// breadcrumbs: those pages stand somewhere else now and are made again.
    @Test func aPageWhoseTrailChangedIsMadeAgainThoughItReadNothingThatChanged() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let memory = BuildMemory<Node>()
        let first = try await build(Self.app, into: output, memory: memory)
        #expect(first.replayed == 0 && memory.pageCount == first.pages)

        var retitled = Self.app
        retitled.titles["a"] = "Retitled"
        let second = try await build(retitled, into: output, memory: memory, changed: [GraphCoordinator.inputKey("a")])
        #expect(try SiteDifference.files(in: output) == (try await fresh(retitled, in: folder)))
        let page = try String(contentsOf: output.appendingPathComponent("a/b/c/index.html"), encoding: .utf8)
        #expect(page.contains("Retitled"), "the breadcrumb of a page below a/")
        // The root and about/ are replayed; a/ read its title, a/b/ and a/b/c/ have it in their trail.
        #expect(second.replayed == 2, "\(second)")
    }

    /// An edit to what one page says (not its title or links) leaves the graph as it was: that
    /// page is made again in its place and the app is not walked.
    @Test func anEditThatMovesNoLinkRemakesItsPageWithoutAWalk() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let memory = BuildMemory<Node>()
        var app = Self.app
        app.search = SiteSearch(summaries: true)
        try await build(app, into: output, memory: memory)
        app.summaries["a/b"] = "A summary written since"
        let edit = try await build(app, into: output, memory: memory, changed: [GraphCoordinator.inputKey("a/b")])
        #expect(edit.patched && edit.rendered == 1 && edit.replayed == edit.pages - 1, "\(edit)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
        let index = try String(contentsOf: output.appendingPathComponent("search-index.json"), encoding: .utf8)
        #expect(index.contains("A summary written since"))
        // The next edit starts from the patched build's memory.
        app.summaries["a/b"] = nil
        app.summaries["a"] = "The own summary of a"
        let next = try await build(app, into: output, memory: memory, changed: [GraphCoordinator.inputKey("a/b"), GraphCoordinator.inputKey("a")])
        // a/b is as the first build wrote it, which the spare generation still holds: only a is
        // rendered.
        #expect(next.patched && next.rendered == 1 && next.replayed == next.pages - 2, "\(next)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
    }

    /// A page made again that links elsewhere moves other pages: the build walks the app after
    /// all, and nothing it made before counts twice.
    @Test func anEditThatAddsALinkWalksTheApp() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let memory = BuildMemory<Node>()
        var app = Self.app
        try await build(app, into: output, memory: memory)
        app.links["about", default: []].append("a")
        let edit = try await build(app, into: output, memory: memory, changed: [GraphCoordinator.inputKey("about")])
        #expect(!edit.patched && edit.rendered == 1 && edit.replayed == edit.pages - 1, "\(edit)")
        #expect(try SiteDifference.files(in: output) == (try await fresh(app, in: folder)))
    }

    /// Nothing changed: every page is replayed and the site is the same.
    @Test func withNothingChangedEveryPageIsReplayed() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let memory = BuildMemory<Node>()
        try await build(Self.app, into: output, memory: memory)
        let again = try await build(Self.app, into: output, memory: memory, changed: [])
        #expect(again.replayed == again.pages && again.rendered == 0)
        #expect(try SiteDifference.files(in: output) == (try await fresh(Self.app, in: folder)))
        // Without the changed inputs nothing is replayed: they are unknown.
        let unknown = try await build(Self.app, into: output, memory: memory)
        #expect(unknown.replayed == 0)
    }

    /// A failed build may have updated the memory halfway: it forgets it, and the next build
    /// makes every page, rightly.
    @Test func aFailedBuildForgetsTheMemory() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let memory = BuildMemory<Node>()
        try await build(Self.app, into: output, memory: memory)
        var failing = SiteBuilder(coordinator: Self.app)
        failing.memory = memory
        failing.changedInputs = []
        failing.beforeCommit = { _ in throw GraphError(description: "killed midway") }
        await #expect(throws: GraphError.self) { try await failing.build(into: output) }
        #expect(memory.pageCount == 0)
        var retitled = Self.app
        retitled.titles["about"] = "Changed"
        let after = try await build(retitled, into: output, memory: memory, changed: [])
        #expect(after.replayed == 0)
        #expect(try SiteDifference.files(in: output) == (try await fresh(retitled, in: folder)))
    }
}
