import FlowSiteUtilities
import Foundation
import Testing

@testable import FlowSite

@Suite struct SiteBuilderTests {
    static let app = GraphCoordinator(
        links: ["": ["a", "about"], "a": ["a/b"], "a/b": ["a/b/c"], "a/b/c": ["", "a"]],
        presentations: ["about": .modal],
        titles: ["": "Home"],
        navigation: [NavigationAction("A", to: "a")]
    )

    @Test func anAppThatOptsInGetsASearchIndexOfItsChosenPagesAndFields() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var app = Self.app
        app.titles["a/b"] = "Ünder B"
        app.search = SiteSearch(
            includes: { $0.name == "a" || $0.name.hasPrefix("a/") }, section: { $0.name.count > 1 ? "Deep" : nil })
        try await SiteBuilder(coordinator: app).build(into: folder.appendingPathComponent("site"))
        let data = try Data(contentsOf: folder.appendingPathComponent("site/search-index.json"))
        let entries = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: String]])
        // By folded title: "a", "a/b/c", then "Ünder B" reads as "under b".
        #expect(entries.map { $0["url"] } == ["a/index.html", "a/b/c/index.html", "a/b/index.html"])
        #expect(entries[2] == ["url": "a/b/index.html", "title": "Ünder B", "section": "Deep"])
        #expect(entries.allSatisfy { $0["summary"] == nil })
        let page = try String(contentsOf: folder.appendingPathComponent("site/a/b/index.html"), encoding: .utf8)
        #expect(!page.contains("search-index.json"), "only pages that ask for the form carry it")
        // Without opting in there is no index.
        try await SiteBuilder(coordinator: Self.app).build(into: folder.appendingPathComponent("plain"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("plain/search-index.json").path))
    }

    @Test func writesOnePagePerRouteAndTheSiteFiles() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let report = try await SiteBuilder(coordinator: Self.app).build(into: output)
        let files = try SiteDifference.files(in: output)
        for page in ["index.html", "a/index.html", "a/b/index.html", "a/b/c/index.html", "about/index.html"] {
            #expect(files[page] != nil, "missing \(page)")
        }
        for file in ["404.html", "robots.txt", "assets/style.css", "assets/favicon.svg", ".flowsite"] {
            #expect(files[file] != nil, "missing \(file)")
        }
        #expect(report.pages == 5)
        #expect(report.files == files.count - 1) // the .flowsite marker isn't part of the site
        #expect(report.description.hasPrefix("Built 5 pages"))
    }

    @Test func progressCountsEveryPageThenNamesThePhasesToTheSwap() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let updates = Locked<[BuildProgress]>([])
        var builder = SiteBuilder(coordinator: Self.app, concurrency: 1)
        builder.progress = { update in updates.withLock { $0.append(update) } }
        let report = try await builder.build(into: folder.appendingPathComponent("site"))
        let seen = updates.withLock { $0 }
        let pages = seen.filter { $0.phase == "pages" }
        #expect(pages.map(\.made) == Array(1...report.pages))
        #expect(pages.allSatisfy { $0.discovered >= $0.made && $0.discovered <= report.pages })
        #expect(pages.last?.discovered == report.pages)
        #expect(seen.drop { $0.phase == "pages" }.map(\.phase) == ["steps", "links", "swap"])
    }

    @Test func aPageThreeFoldersDeepLinksToTheRoot() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        try await SiteBuilder(coordinator: Self.app).build(into: output)
        let html = try String(contentsOf: output.appendingPathComponent("a/b/c/index.html"), encoding: .utf8)
        #expect(html.contains(#"<a href="../../../index.html">to root</a>"#))
        #expect(html.contains(#"href="../../../assets/style.css""#))
        #expect(html.contains(#"<a href="../../index.html">to a</a>"#))
    }

    @Test func twoBuildsGiveTheSameBytes() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("one")
        let second = folder.appendingPathComponent("two")
        try await SiteBuilder(coordinator: Self.app, concurrency: 1).build(into: first)
        try await SiteBuilder(coordinator: Self.app, concurrency: 8).build(into: second)
        #expect(try SiteDifference.files(in: first) == SiteDifference.files(in: second))
    }

    @Test func aRebuildKeepsUnchangedFiles() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        let first = try await SiteBuilder(coordinator: Self.app).build(into: output)
        let second = try await SiteBuilder(coordinator: Self.app).build(into: output)
        #expect(first.unchangedFiles == 0)
        #expect(second.unchangedFiles == second.files)
        #expect(second.files == first.files)
    }

    @Test func aBuildThatThrowsMidwayLeavesThePreviousSiteUntouched() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        try await SiteBuilder(coordinator: Self.app).build(into: output)
        let before = try SiteDifference.files(in: output)

        var changed = Self.app
        changed.titles["a"] = "Changed"
        var failing = SiteBuilder(coordinator: changed)
        failing.beforeCommit = { staging in
            #expect(staging.files["a/index.html"] != nil) // the new pages were written…
            throw GraphError(description: "killed midway")
        }
        await #expect(throws: GraphError.self) { try await failing.build(into: output) }
        #expect(try SiteDifference.files(in: output) == before) // …but never reached the output
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(leftovers == ["site"])
    }

    @Test func failedScreensFailTheBuildAndKeepTheOldSite() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("site")
        try await SiteBuilder(coordinator: Self.app).build(into: output)
        let before = try SiteDifference.files(in: output)
        var broken = Self.app
        broken.failing = ["a/b"]
        do {
            try await SiteBuilder(coordinator: broken).build(into: output)
            Issue.record("the build should fail")
        } catch let error as FlowSiteError {
            #expect(error.description.contains("/a/b/ (a/b): no data for a/b"))
        }
        #expect(try SiteDifference.files(in: output) == before)
    }

    @Test func refusesAFolderItDidNotMake() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("precious")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: output.appendingPathComponent("notes.txt"))
        do {
            try await SiteBuilder(coordinator: Self.app).build(into: output)
            Issue.record("the build should refuse the folder")
        } catch let error as FlowSiteError {
            // The engine speaks of its API, never of a command line's flags.
            #expect(error.description.contains("set force") && !error.description.contains("--"))
        }
        #expect(try SiteDifference.files(in: output) == ["notes.txt": Data("keep me".utf8)])

        try await SiteBuilder(coordinator: Self.app, force: true).build(into: output)
        #expect(FileManager.default.fileExists(atPath: output.appendingPathComponent("index.html").path))
        #expect(!FileManager.default.fileExists(atPath: output.appendingPathComponent("notes.txt").path))
    }

    /// A site an earlier version built, marked `.holocron`, is still FlowSite's: a build replaces it without
    /// `force`, and the new site has the new marker only.
    @Test func aFolderAnEarlierVersionMarkedIsStillItsOwn() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("old-site")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data("Made by holocron.\n".utf8).write(to: output.appendingPathComponent(".holocron"))
        try Data("<p>old</p>".utf8).write(to: output.appendingPathComponent("index.html"))
        try await SiteBuilder(coordinator: Self.app).build(into: output)
        let names = try FileManager.default.contentsOfDirectory(atPath: output.path)
        #expect(names.contains(SiteLayout.marker) && !names.contains(".holocron"), "\(names.sorted())")
        #expect(try String(contentsOf: output.appendingPathComponent("index.html"), encoding: .utf8) != "<p>old</p>")
        #expect(SiteBuilder<GraphCoordinator>.cacheFolder(named: "data", for: output) != nil)
    }

    @Test func anEmptyFolderIsFineWithoutForce() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SiteBuilder(coordinator: Self.app).build(into: folder)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".flowsite").path))
    }

    @Test func neverReplacesTheCurrentFolderOrTheRoot() async throws {
        let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for output in [current, current.deletingLastPathComponent(), URL(fileURLWithPath: "/")] {
            await #expect(throws: FlowSiteError.self) {
                try await SiteBuilder(coordinator: Self.app, force: true).build(into: output)
            }
        }
    }

    @Test func aBrokenLinkFailsTheBuildAndIsListed() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var templates = TemplateSet.embedded
        templates.templates["footer"] =
            #"""
            <footer><a href="{{root}}missing/index.html">gone</a> <img src="{{root}}assets/logo.png" alt=""></footer>
            """#
        do {
            try await SiteBuilder(coordinator: Self.app, templates: templates).build(
                into: folder.appendingPathComponent("site"))
            Issue.record("the build should fail")
        } catch let error as FlowSiteError {
            guard case .brokenLinks(let links) = error.reason else { throw error }
            #expect(links.contains { $0 == ("a/b/c/index.html", "../../../missing/index.html") })
            #expect(links.contains { $0 == ("index.html", "./assets/logo.png") })
            #expect(links.count == 14) // two per page: five pages, 404.html and the flow map's first
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("site").path))
    }

    @Test func pagesPublishResourcesBesideThem() async throws {
        struct IndexScreen: Screen {
            func makePage() async throws -> Page<Node> {
                var document = MarkdownDocument<Node>()
                document.paragraph(.siteFile(["The index"], "search/index.json"))
                return Page(title: "Search", document: document, files: ["index.json": Data("[]".utf8)])
            }
        }
        struct SearchApp: RootCoordinator {
            var startRoute: Node { "" }
            var siteInfo: SiteInfo<Node> { SiteInfo(name: "S") }
            func makeScreen(for route: Node) async throws -> any Screen<Node> {
                route == "" ? GraphScreen(node: "", title: "Home", targets: ["search"]) : IndexScreen()
            }
        }
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SiteBuilder(coordinator: SearchApp()).build(into: folder.appendingPathComponent("site"))
        let files = try SiteDifference.files(in: folder.appendingPathComponent("site"))
        #expect(files["search/index.json"] == Data("[]".utf8))
        #expect(
            String(decoding: files["search/index.html"]!, as: UTF8.self).contains(
                #"<a href="../search/index.json">The index</a>"#))
    }

    @Test func fileNamesCannotLeaveTheirFolder() async throws {
        struct FileScreen: Screen {
            let name: String
            func makePage() async throws -> Page<Node> {
                Page(title: "Files", document: MarkdownDocument(), files: [name: Data("x".utf8)])
            }
        }
        struct FileApp: RootCoordinator {
            let name: String
            var startRoute: Node { "" }
            var siteInfo: SiteInfo<Node> { SiteInfo(name: "F") }
            func makeScreen(for route: Node) async throws -> any Screen<Node> { FileScreen(name: name) }
        }
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["../x", "a/b", ".hidden", "", "index.html"] {
            await #expect {
                try await SiteBuilder(coordinator: FileApp(name: name)).build(
                    into: folder.appendingPathComponent("site"))
            } throws: { error in
                guard case .invalidResourceName(let named, let route)? = (error as? FlowSiteError)?.reason else {
                    return false
                }
                return named == name && route == "root"
            }
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("site").path))
    }

    @Test func anAppsOwnStepWritesAFileThatIsLinkCheckedAndCommitted() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let feed = BuildStep("feed") { context in
            let titles = context.pages.filter { !$0.isDialog }.map(\.title)
            try context.write(Data(("<feed>" + titles.joined(separator: ",") + "</feed>").utf8), to: "feed.xml")
        }
        try await SiteBuilder(coordinator: Self.app, steps: [feed]).build(into: folder.appendingPathComponent("site"))
        let written = try String(contentsOf: folder.appendingPathComponent("site/feed.xml"), encoding: .utf8)
        #expect(written == "<feed>Home,a,a/b,a/b/c</feed>")

        let broken = BuildStep("broken page") { context in
            try context.write(Data(#"<a href="nowhere.html">x</a>"#.utf8), to: "extra.html")
        }
        await #expect {
            try await SiteBuilder(coordinator: Self.app, steps: [broken]).build(
                into: folder.appendingPathComponent("site"))
        } throws: { error in
            (error as? FlowSiteError)?.description.contains("extra.html: nowhere.html") == true
        }
        let failing = BuildStep("upload") { _ in throw GraphError(description: "no network") }
        await #expect {
            try await SiteBuilder(coordinator: Self.app, steps: [failing]).build(
                into: folder.appendingPathComponent("site"))
        } throws: { error in
            let text = (error as? FlowSiteError)?.description ?? ""
            return text.contains("'upload'") && text.contains("no network")
        }
        #expect(
            try String(contentsOf: folder.appendingPathComponent("site/feed.xml"), encoding: .utf8) == written,
            "failed builds keep the site")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.contains("staging")
        }
        #expect(leftovers.isEmpty, "a failed build leaves nothing half-written beside the site: \(leftovers)")

        // The search index is written by a task of its own: once a failed build has thrown its
        // staging folder away, that task writes nothing more into it.
        let staging = try SiteWriter(output: folder.appendingPathComponent("site")).beginStaging()
        staging.discard()
        #expect {
            try staging.write(to: "search-index.json") { emit in
                try [UInt8](repeating: 1, count: 10).withUnsafeBytes(emit)
            }
        } throws: { error in
            (error as? FlowSiteError)?.description.contains("given up") == true
        }
        #expect(!FileManager.default.fileExists(atPath: staging.folder.path))
    }

}

/// FlowSite's public surface stays small: what an app needs, nothing of the machinery.
@Suite struct PublicAPITests {
    /// Every public type counts, nested ones too (moving a type inside another does not make the
    /// surface smaller): what an app sets and implements, and what its tests read. What only the
    /// command line drives has package access. An `@_spi` type counts too: a user can reach it. The cap leaves
    /// room for what a user reaches and must be able to read (the lock apps share, the flow graph's parts,
    /// named results in place of tuples, a journey and its step), not for machinery.
    @Test func flowSiteDeclaresAtMost65PublicTypes() throws {
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/FlowSite")
        let declared = try Self.publicTypes(in: sources, nested: true)
        #expect(declared.count <= 65, "FlowSite declares \(declared.count) public types: \(declared.sorted())")
        #expect(
            !declared.contains("SiteWalker") && !declared.contains("SiteStaging") && !declared.contains("PageRenderer"))
    }

    /// Every public type is listed under a topic of the catalog's landing page, so a user finds
    /// it where it belongs rather than in an "Other" heap.
    @Test func everyPublicTypeHasATopic() throws {
        let repository = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let declared = try Self.publicTypes(in: repository.appendingPathComponent("Sources/FlowSite"))
        let landing = try String(
            contentsOf: repository.appendingPathComponent("Sources/FlowSite/FlowSite.docc/FlowSite.md"), encoding: .utf8
        )
        let topics = try #require(landing.range(of: "## Topics"), "FlowSite.md has no Topics section")
        let listed = Set(landing[topics.upperBound...].matches(of: /- ``(\w+)``/).map { String($0.output.1) })
        #expect(
            Set(declared).subtracting(listed).isEmpty,
            "not under a topic of FlowSite.md: \(Set(declared).subtracting(listed).sorted())")
        #expect(
            listed.subtracting(declared).isEmpty,
            "listed in FlowSite.md but not a public type: \(listed.subtracting(declared).sorted())")
    }

    /// Every public (or `@_spi` public) type, protocol and type alias declared in the `.swift`
    /// files below `folder`: the top-level ones (declared at the start of a line), or with
    /// `nested` the indented ones too. Code only, not the samples of doc comments (`///` lines
    /// and `/** … */` blocks).
    static func publicTypes(in folder: URL, nested: Bool = false) throws -> [String] {
        var declared: [String] = []
        let pattern = try Regex(
            (nested ? #"^\s*"# : "^")
                + #"(?:@_spi\(\w+\)\s+)?public\s+(?:final\s+)?(?:struct|enum|class|protocol|typealias|actor)\s+(\w+)"#)
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) where path.hasSuffix(".swift") {
            let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
            var inBlockComment = false
            for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                let trimmed = line.drop { $0 == " " || $0 == "\t" }
                if inBlockComment {
                    if trimmed.contains("*/") { inBlockComment = false }
                    continue
                }
                if trimmed.hasPrefix("/*") {
                    inBlockComment = !trimmed.contains("*/")
                    continue
                }
                if trimmed.hasPrefix("//") { continue }
                if let match = line.firstMatch(of: pattern) {
                    declared.append(String(line[match.output[1].range!]))
                }
            }
        }
        return declared
    }

    /// The count sees through doc-comment samples and `@_spi`, and counts nested types only when
    /// asked.
    @Test func theCountReadsCodeNotComments() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("public-api-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(
            """
            /// ```swift
            /// public struct InASample: RootCoordinator {}
            /// ```
            /**
             public enum InABlock {}
             */
            public struct Counted {
                public enum Nested {}
            }
            @_spi(Engine) public final class Reachable {}
            struct NotPublic {}
            """.utf8
        ).write(to: folder.appendingPathComponent("Sample.swift"))
        #expect(try Self.publicTypes(in: folder).sorted() == ["Counted", "Reachable"])
        #expect(try Self.publicTypes(in: folder, nested: true).sorted() == ["Counted", "Nested", "Reachable"])
    }
}
