@testable import FlowSite
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The site writer's guards: no folder that holds home or the current folder, an output that is
/// a symbolic link built where it points.
@Suite struct SiteWriterTests {
    static let app = SiteBuilderTests.app

    // MARK: Never home, the current folder or their parents

    @Test func neverReplacesHomeTheCurrentFolderOrTheirParentsReachedThroughSymlinks() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        let home = folder.appendingPathComponent("home/luke")
        let current = folder.appendingPathComponent("work/project")
        for keep in [home, current] {
            try manager.createDirectory(at: keep, withIntermediateDirectories: true)
            try Data("keep me".utf8).write(to: keep.appendingPathComponent("notes.txt"))
        }
        let links = folder.appendingPathComponent("links")
        try manager.createDirectory(at: links, withIntermediateDirectories: true)
        let linkedHome = links.appendingPathComponent("home")
        let linkedHomes = links.appendingPathComponent("homes")
        let linkedWork = links.appendingPathComponent("work")
        try manager.createSymbolicLink(at: linkedHome, withDestinationURL: home)
        try manager.createSymbolicLink(at: linkedHomes, withDestinationURL: home.deletingLastPathComponent())
        try manager.createSymbolicLink(at: linkedWork, withDestinationURL: current.deletingLastPathComponent())

        let cases: [(output: URL, home: URL)] = [
            (linkedHome, home),  // home through a symbolic link
            (home, linkedHome),  // HOME itself set through a symbolic link
            (home.deletingLastPathComponent(), home),  // the parent of home
            (linkedHomes, home),  // the parent of home through a symbolic link
            (linkedWork.appendingPathComponent("project"), home),  // the current folder through a linked parent
            (linkedWork, home),  // the current folder's parent through a symbolic link
            (folder, home),  // an ancestor of both
            (URL(fileURLWithPath: "/"), home),
        ]
        for (output, home) in cases {
            let writer = SiteWriter(output: output, force: true, home: home.path, currentFolder: current.path)
            let error = #expect(throws: FlowSiteError.self, "\(output.path)") { try writer.beginStaging() }
            if let error, case .outputForbidden = error.reason {} else {
                Issue.record("\(output.path) should be forbidden, got \(String(describing: error))")
            }
        }
        for keep in [home, current] {
            #expect(try Data(contentsOf: keep.appendingPathComponent("notes.txt")) == Data("keep me".utf8))
        }
        let sideEffects = try manager.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(sideEffects == ["home", "links", "work"])
    }

    @Test func aFolderBesideHomeIsStillFine() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let home = folder.appendingPathComponent("home/luke")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        for output in ["home/luke-site", "home/luke/site"] {
            let writer = SiteWriter(output: folder.appendingPathComponent(output), force: false, home: home.path, currentFolder: "/nonexistent")
            try writer.beginStaging().commit()
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(output + "/.holocron").path))
        }
    }

    // MARK: Symbolic links in and at the output

    @Test func anOutputThatIsASymlinkIsBuiltIntoItsTarget() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        let release = folder.appendingPathComponent("releases/x")
        let current = folder.appendingPathComponent("current")
        try manager.createSymbolicLink(atPath: current.path, withDestinationPath: "releases/x")

        let first = try await SiteBuilder(coordinator: Self.app).build(into: current)  // the target is made
        var changed = Self.app
        changed.titles["a"] = "Changed"
        let second = try await SiteBuilder(coordinator: changed).build(into: current)

        #expect(try manager.destinationOfSymbolicLink(atPath: current.path) == "releases/x")
        let page = try String(contentsOf: release.appendingPathComponent("a/index.html"), encoding: .utf8)
        #expect(page.contains("<h1>Changed</h1>"))
        #expect(first.unchangedFiles == 0 && second.unchangedFiles > 0)  // the previous site was found
        #expect(try manager.contentsOfDirectory(atPath: folder.path).sorted() == ["current", "releases"])
        #expect(try manager.contentsOfDirectory(atPath: release.deletingLastPathComponent().path) == ["x"])
    }

    @Test func aSymlinkToAFolderHolocronDidNotMakeIsRefused() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let precious = folder.appendingPathComponent("precious")
        try FileManager.default.createDirectory(at: precious, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: precious.appendingPathComponent("notes.txt"))
        let link = folder.appendingPathComponent("site")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: precious)
        await #expect(throws: FlowSiteError.self) { try await SiteBuilder(coordinator: Self.app).build(into: link) }
        #expect(try SiteDifference.files(in: precious) == ["notes.txt": Data("keep me".utf8)])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == precious.path)
    }

    @Test func realPathsFollowLinksAlsoToFoldersNotMadeYet() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = try SiteWriter.realPath(of: folder.path)
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("up").path, withDestinationPath: "..")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("later").path, withDestinationPath: "not/yet")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("loop").path, withDestinationPath: "loop")
        let parent = try SiteWriter.realPath(of: folder.deletingLastPathComponent().path)
        #expect(try SiteWriter.realPath(of: folder.appendingPathComponent("up/site").path) == parent + "/site")
        #expect(try SiteWriter.realPath(of: folder.appendingPathComponent("later").path) == real + "/not/yet")
        #expect(try SiteWriter.realPath(of: folder.appendingPathComponent("later/site").path) == real + "/not/yet/site")
        #expect(try SiteWriter.realPath(of: folder.appendingPathComponent("new/../site").path) == real + "/site")
        #expect(try SiteWriter.realPath(of: "/") == "/")
        #expect(throws: FlowSiteError.self) { try SiteWriter.realPath(of: folder.appendingPathComponent("loop").path) }
    }
}
