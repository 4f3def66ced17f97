import Foundation
import Testing

@testable import FlowSite

/// The front page is the start route's, wherever the start route lives (issue 63, item 1).
@Suite struct StartPageTests {
    static func folder(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
    }

    @Test func aStartRouteAtAPathOfItsOwnGetsAFrontPageThatLeadsToIt() async throws {
        let folder = Self.folder("start-elsewhere")
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = GraphCoordinator(
            links: ["feed": ["feed/first", "about"], "feed/first": ["about"], "about": []],
            titles: ["feed": "Your feed"], startRoute: "feed")
        let report = try await SiteBuilder(coordinator: app).build(into: folder)
        #expect(report.pages == 3, "the front page is not one of the app's pages")
        let front = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(front.contains(#"<meta http-equiv="refresh" content="0; url=feed/index.html">"#))
        #expect(front.contains(#"This site starts at <a href="feed/index.html">Your feed</a>."#), "\(front)")
        #expect(front.contains(#"<meta name="robots" content="noindex">"#))
        // The feed's own page keeps its path, and its trail starts at it, not at a setup screen.
        let feed = try String(contentsOf: folder.appendingPathComponent("feed/index.html"), encoding: .utf8)
        #expect(feed.contains("<h1>Your feed</h1>"))
        let first = try String(contentsOf: folder.appendingPathComponent("feed/first/index.html"), encoding: .utf8)
        #expect(first.contains(#"<a href="../index.html">Your feed</a>"#))
    }

    @Test func aStartRouteAtTheRootIsTheFrontPageItself() async throws {
        let folder = Self.folder("start-root")
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try await SiteBuilder(coordinator: GraphCoordinator(links: ["": ["a"], "a": []])).build(into: folder)
        let front = try String(contentsOf: folder.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(!front.contains("http-equiv=\"refresh\""))
        #expect(front.contains(#"href="a/index.html""#))
    }

    @Test func anotherRouteAtTheRootIsAnErrorNamingTheStartRoute() async throws {
        let folder = Self.folder("root-taken")
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = GraphCoordinator(links: ["feed": ["", "about"], "": [], "about": []], startRoute: "feed")
        let error = await #expect(throws: FlowSiteError.self) {
            _ = try await SiteBuilder(coordinator: app).build(into: folder)
        }
        guard case .rootTaken(let route, let start, let path) = error?.reason else {
            Issue.record("expected rootTaken, got \(String(describing: error))")
            return
        }
        #expect(route == "root" && start == "feed" && path == "/feed/")
        let text = error?.description ?? ""
        #expect(text.contains("the start route is feed (/feed/)"), "\(text)")
        #expect(!FileManager.default.fileExists(atPath: folder.path), "nothing is written")
    }
}
