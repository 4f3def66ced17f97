@testable import FlowSite
import Foundation
import Testing

/// A build that replays pages from the last build's memory (``SiteBuilder/memory``) makes the
/// same site a build from nothing does.
@Suite struct BuildMemoryTests {
    static let app = SiteBuilderTests.app

    func build(_ app: GraphCoordinator, into output: URL, memory: BuildMemory<Node>? = nil, changed: Set<InputKey>? = nil) async throws -> BuildReport {
        var builder = SiteBuilder(coordinator: app)
        builder.memory = memory
        builder.changedInputs = changed
        return try await builder.build(into: output)
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
