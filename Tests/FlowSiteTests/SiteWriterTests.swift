import Foundation
import TestSupport
import Testing

@testable import FlowSite

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The site writer's guards: one build per output at a time, no folder that holds home or the
/// current folder, no previous file read through a symbolic link, no staging folders left behind.
@Suite struct SiteWriterTests {
    static let app = SiteBuilderTests.app
    static let pages = ["index.html", "a/index.html", "a/b/index.html", "a/b/c/index.html", "about/index.html"]

    // MARK: One build at a time

    @Test func aSecondBuildOfTheSameOutputIsRefusedWhileTheFirstRuns() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: output)

        let first = try SiteWriter(output: output).beginStaging()
        for other in [output, link] {
            let error = #expect(throws: FlowSiteError.self) { try SiteWriter(output: other).beginStaging() }
            #expect(error?.description.contains("Another build of") == true, "\(String(describing: error))")
            #expect(error?.description.contains("is running (pid \(getpid()))") == true, "\(String(describing: error))")
        }
        first.discard()
        let second = try SiteWriter(output: output).beginStaging()
        second.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["link"])
    }

    @Test func aBuildHoldsItsOutputUntilItCommits() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        var builder = SiteBuilder(coordinator: Self.app)
        builder.beforeCommit = { _ in
            #expect(throws: FlowSiteError.self) { try SiteWriter(output: output).beginStaging() }
        }
        try await builder.build(into: output)
        try await builder.build(into: output) // the lock went with the first build
        // The first site stays as the spare generation the next build starts from.
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".site.spare", "site"])
    }

    @Test func concurrentBuildsIntoOneFolderNeverMixTheirPages() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        func app(_ title: String) -> SiteBuilder<GraphCoordinator> {
            var app = Self.app
            for node in ["", "a", "a/b", "a/b/c", "about"] { app.titles[Node(node)] = title }
            return SiteBuilder(coordinator: app, concurrency: 4)
        }
        func outcome(_ builder: SiteBuilder<GraphCoordinator>) async -> String {
            do {
                try await builder.build(into: output)
                return "built"
            } catch let error as FlowSiteError {
                if case .outputBusy = error.reason { return "busy" }
                return "failed: \(error)"
            } catch {
                return "failed: \(error)"
            }
        }
        for _ in 0..<10 {
            async let one = outcome(app("Build One"))
            async let two = outcome(app("Build Two"))
            let outcomes = await [one, two]
            #expect(outcomes.allSatisfy { $0 == "built" || $0 == "busy" }, "\(outcomes)")
            #expect(outcomes.contains("built"), "\(outcomes)")
            let titles = try Set(
                Self.pages.map { page in
                    let html = try String(contentsOf: output.appendingPathComponent(page), encoding: .utf8)
                    return html.contains("Build One") ? "one" : html.contains("Build Two") ? "two" : "neither"
                })
            #expect(titles == ["one"] || titles == ["two"], "pages from \(titles.sorted())")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == [".site.spare", "site"])
    }

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
            (linkedHome, home), // home through a symbolic link
            (home, linkedHome), // HOME itself set through a symbolic link
            (home.deletingLastPathComponent(), home), // the parent of home
            (linkedHomes, home), // the parent of home through a symbolic link
            (linkedWork.appendingPathComponent("project"), home), // the current folder through a linked parent
            (linkedWork, home), // the current folder's parent through a symbolic link
            (folder, home), // an ancestor of both
            (URL(fileURLWithPath: "/"), home)
        ]
        for (output, home) in cases {
            let writer = SiteWriter(output: output, force: true, home: home.path, currentFolder: current.path)
            let error = #expect(throws: FlowSiteError.self, "\(output.path)") { try writer.beginStaging() }
            if let error, case .outputForbidden = error.reason {
            } else {
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
            let writer = SiteWriter(
                output: folder.appendingPathComponent(output), force: false, home: home.path,
                currentFolder: "/nonexistent")
            try writer.beginStaging().commit()
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(output + "/.flowsite").path))
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

        let first = try await SiteBuilder(coordinator: Self.app).build(into: current) // the target is made
        var changed = Self.app
        changed.titles["a"] = "Changed"
        let second = try await SiteBuilder(coordinator: changed).build(into: current)

        #expect(try manager.destinationOfSymbolicLink(atPath: current.path) == "releases/x")
        let page = try String(contentsOf: release.appendingPathComponent("a/index.html"), encoding: .utf8)
        #expect(page.contains("<h1>Changed</h1>"))
        #expect(first.unchangedFiles == 0 && second.unchangedFiles > 0) // the previous site was found
        #expect(try manager.contentsOfDirectory(atPath: folder.path).sorted() == ["current", "releases"])
        #expect(
            try manager.contentsOfDirectory(atPath: release.deletingLastPathComponent().path).sorted() == [
                ".x.spare", "x"
            ])
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
        let real = try SiteLayout.realPath(of: folder.path)
        let manager = FileManager.default
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("up").path, withDestinationPath: "..")
        try manager.createSymbolicLink(
            atPath: folder.appendingPathComponent("later").path, withDestinationPath: "not/yet")
        try manager.createSymbolicLink(atPath: folder.appendingPathComponent("loop").path, withDestinationPath: "loop")
        let parent = try SiteLayout.realPath(of: folder.deletingLastPathComponent().path)
        #expect(try SiteLayout.realPath(of: folder.appendingPathComponent("up/site").path) == parent + "/site")
        #expect(try SiteLayout.realPath(of: folder.appendingPathComponent("later").path) == real + "/not/yet")
        #expect(try SiteLayout.realPath(of: folder.appendingPathComponent("later/site").path) == real + "/not/yet/site")
        #expect(try SiteLayout.realPath(of: folder.appendingPathComponent("new/../site").path) == real + "/site")
        #expect(try SiteLayout.realPath(of: "/") == "/")
        #expect(throws: FlowSiteError.self) { try SiteLayout.realPath(of: folder.appendingPathComponent("loop").path) }
    }

    @Test func previousFilesAreNeverReadThroughASymlinkThatLeavesTheOutput() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        let output = folder.appendingPathComponent("site")
        let outside = folder.appendingPathComponent("outside")
        try await SiteBuilder(coordinator: Self.app).build(into: output)
        // The old site's `a` folder and its `about` page become links to copies outside the
        // output with the very bytes the next build writes.
        try manager.createDirectory(at: outside, withIntermediateDirectories: true)
        try manager.copyItem(at: output.appendingPathComponent("a"), to: outside.appendingPathComponent("a"))
        try manager.copyItem(
            at: output.appendingPathComponent("about/index.html"), to: outside.appendingPathComponent("about.html"))
        try manager.removeItem(at: output.appendingPathComponent("a"))
        try manager.removeItem(at: output.appendingPathComponent("about/index.html"))
        try manager.createSymbolicLink(
            at: output.appendingPathComponent("a"), withDestinationURL: outside.appendingPathComponent("a"))
        try manager.createSymbolicLink(
            at: output.appendingPathComponent("about/index.html"),
            withDestinationURL: outside.appendingPathComponent("about.html"))
        let outsideBefore = try SiteDifference.files(in: outside)

        let report = try await SiteBuilder(coordinator: Self.app).build(into: output)

        for (inside, outsideFile) in [
            ("a/index.html", "a/index.html"), ("a/b/c/index.html", "a/b/c/index.html"),
            ("about/index.html", "about.html")
        ] {
            let new = try status(output.appendingPathComponent(inside))
            let old = try status(outside.appendingPathComponent(outsideFile))
            #expect(new.st_ino != old.st_ino, "\(inside) is hard-linked to a file outside the output")
            #expect(old.st_nlink == 1, "\(outsideFile) gained a link")
            #expect(new.st_mode & S_IFMT == S_IFREG)
        }
        #expect(try status(output.appendingPathComponent("a")).st_mode & S_IFMT == S_IFDIR)
        #expect(try SiteDifference.files(in: outside) == outsideBefore) // removing the old site left them alone
        #expect(report.unchangedFiles == report.files - 4) // a, a/b, a/b/c and about were written anew
    }

    @Test func writingAPathAgainNeverChangesThePreviousSite() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        try await SiteBuilder(coordinator: Self.app).build(into: output)
        let page = output.appendingPathComponent("index.html")
        let before = try Data(contentsOf: page)

        let staging = try SiteWriter(output: output).beginStaging()
        try staging.write(before, to: "index.html") // unchanged: a hard link to the live page
        try staging.write("changed my mind", to: "index.html")
        #expect(
            try Data(contentsOf: staging.folder.appendingPathComponent("index.html")) == Data("changed my mind".utf8))
        staging.discard()
        #expect(try Data(contentsOf: page) == before)
    }

    // MARK: Staging leftovers

    @Test func aBuildRemovesWhatKilledBuildsLeftBehind() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let manager = FileManager.default
        let dead = try deadProcessIdentifier()
        let alive: Int32 = 1
        let left = [
            ".site.staging-\(dead)", ".site.old-\(dead)", ".site.staging-\(alive)", ".other.staging-\(dead)",
            ".site.staging-x"
        ]
        for name in left {
            let leftover = folder.appendingPathComponent(name)
            try manager.createDirectory(at: leftover.appendingPathComponent("a"), withIntermediateDirectories: true)
            try Data("half a site".utf8).write(to: leftover.appendingPathComponent("a/index.html"))
        }
        try await SiteBuilder(coordinator: Self.app).build(into: folder.appendingPathComponent("site"))
        let remaining = try manager.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(remaining == [".other.staging-\(dead)", ".site.staging-\(alive)", ".site.staging-x", "site"])
    }
}

/// The `lstat` of a file.
private func status(_ url: URL) throws -> stat {
    var info = stat()
    guard lstat(url.path, &info) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    return info
}

/// The id of a process that has ended and been reaped, so no process has it (until reused).
private func deadProcessIdentifier(sourceLocation: SourceLocation = #_sourceLocation) throws -> Int32 {
    try #require(Processes.deadIdentifier(), "no process id that is surely free", sourceLocation: sourceLocation)
}
