import FlowSite
import Foundation
import HolocronCLI
import HolocronKit
import Logging
import SwapiTestServer
import Testing

@testable import FlowSiteCommandLine

/// `holocron serve --watch` as an author uses it: save a template, and the open page reloads
/// with the change; break it, and the page shows why while the old site stays served.
@Suite struct EditLoopTests {
    let cli = HolocronCLITests()

    /// A `serve --watch` running in-process on a free port, with its events in an inbox.
    struct Serving {
        let task: Task<Void, any Error>
        let events: Inbox<ServeAction.Event>
        let address: ServeAddress
        var base: String { address.local }

        static func start(_ action: ServeAction) async throws -> Serving {
            let events = Inbox<ServeAction.Event>()
            let task = Task { try await action.run { events.put($0) } }
            var address: ServeAddress?
            // The first build comes before it: minutes when the whole suite shares two cores.
            for event in try await events.next(
                until: { if case .listening = $0 { true } else { false } }, within: .seconds(300),
                "the server to listen")
            {
                if case .listening(let found) = event { address = found }
            }
            return Serving(task: task, events: events, address: address!)
        }

        func stop() async {
            task.cancel()
            _ = await task.result
        }
    }

    static func http() -> TestHTTP { TestHTTP() }

    static func get(
        _ url: String, _ client: TestHTTP
    ) async throws -> (status: Int, headers: [String: String], body: String) {
        let response = try await client.get(url)
        return (response.status, response.headers, response.body)
    }

    /// A templates folder whose footer says `footer`.
    func makeTemplates(in folder: URL, footer: String) throws -> URL {
        let templates = folder.appendingPathComponent("mine")
        let file = templates.appendingPathComponent("partials/footer.mustache")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("<footer>\(footer)</footer>".utf8).write(to: file)
        return templates
    }

    func watching(_ templates: URL, site: URL, basePath: String = "/", forcePolling: Bool = false) -> ServeAction {
        ServeAction(
            build: BuildAction(output: site, templates: templates, quiet: true).rebuilds(), root: site, port: 0,
            basePath: basePath,
            watched: [templates], forcePolling: forcePolling,
            describe: { "the build said: \($0)" }
        )
    }

    @Test func aSavedTemplateReloadsOpenPagesAfterTheNewSiteIsServedAndAFailureShowsOnThem() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = try makeTemplates(in: folder, footer: "first footer")
        try FileManager.default.createDirectory(
            at: templates.appendingPathComponent("assets"), withIntermediateDirectories: true)
        let serving = try await Serving.start(watching(templates, site: folder.appendingPathComponent("site")))
        let client = Self.http()
        defer { client.shutdown() }

        let page = serving.base + "characters/luke-skywalker/"
        let channel = try await EventStreamClient(url: serving.base + "__flowsite/events", client: client)
        defer { channel.stop() }
        let hello = try await channel.next("hello")
        #expect(
            try await channel.retries.next(within: .seconds(30), "the retry field") == 1000,
            "the browser reconnects a second after losing the server")
        #expect(hello.json["error"] == nil)
        let first = try await Self.get(page, client)
        #expect(first.status == 200 && first.body.contains("first footer"))
        #expect(first.headers["cache-control"] == "no-cache")
        #expect(
            first.body.contains(#"data-build="\#(hello.string("build")!)""#), "the page carries the build it belongs to"
        )

        // Save: the reload event comes once the new page is what the server sends.
        try Data("<footer>second footer</footer>".utf8).write(
            to: templates.appendingPathComponent("partials/footer.mustache"))
        let reload = try await channel.next("reload")
        #expect(reload.json["css"] as? Bool == false)
        #expect(reload.string("build") != hello.string("build"))
        let second = try await Self.get(page, client)
        #expect(second.body.contains("second footer"), "the reload came before the new page was served")
        #expect(second.body.contains(#"data-build="\#(reload.string("build")!)""#))

        // Break it: the error event carries the terminal's message, and the old page stays.
        try Data("<footer>{{#unclosed}}</footer>".utf8).write(
            to: templates.appendingPathComponent("partials/footer.mustache"))
        let failure = try await channel.next("build-error")
        let printed = try await serving.events.next(
            until: { if case .rebuildFailed = $0 { true } else { false } }, "the failed rebuild")
        guard case .rebuildFailed(let message) = printed.last else {
            Issue.record("no failure event")
            return
        }
        #expect(failure.string("message") == message)
        #expect(message.hasPrefix("the build said: ") && message.contains("footer"), "\(message)")
        #expect(try await Self.get(page, client).body.contains("second footer"))
        // A page opened now learns of the error as it connects.
        let late = try await EventStreamClient(url: serving.base + "__flowsite/events", client: client)
        defer { late.stop() }
        #expect(try await late.next("hello").string("error") == message)

        // Fix it: the next good build clears the error and reloads.
        try Data("<footer>third footer</footer>".utf8).write(
            to: templates.appendingPathComponent("partials/footer.mustache"))
        _ = try await channel.next("reload")
        #expect(try await Self.get(page, client).body.contains("third footer"))
        let fresh = try await EventStreamClient(url: serving.base + "__flowsite/events", client: client)
        defer { fresh.stop() }
        #expect(try await fresh.next("hello").json["error"] == nil)

        // A stylesheet alone: pages are told to fetch their stylesheets again, not to reload.
        let css = templates.appendingPathComponent("assets/style.css")
        try Data("body { color: rebeccapurple; }\n".utf8).write(to: css)
        #expect(try await channel.next("reload").json["css"] as? Bool == true)
        #expect(try await Self.get(serving.base + "assets/style.css", client).body.contains("rebeccapurple"))

        // Stopping the server ends the channel cleanly, so browsers reconnect to the next one.
        await serving.stop()
        _ = try? await channel.events.next(until: { _ in false }, within: .seconds(30), "the end of the stream")
        await #expect(throws: Inbox<ServerSentEvent>.Closed.self) {
            try await channel.events.next(within: .seconds(1), "nothing")
        }
    }

    @Test func theFilesOnDiskAreThoseOfAPlainBuildAndOnlyResponsesCarryTheScript() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = try makeTemplates(in: folder, footer: "a footer")
        let plain = folder.appendingPathComponent("plain")
        _ = try await BuildAction(output: plain, templates: templates, quiet: true).run()
        let site = folder.appendingPathComponent("served")
        let serving = try await Serving.start(watching(templates, site: site))
        defer { Task { await serving.stop() } }
        let client = Self.http()
        defer { client.shutdown() }

        let index = try await Self.get(serving.base, client)
        #expect(try SiteDifference(expected: plain, actual: site).lines() == [])
        let start = try #require(index.body.range(of: #"<script src="/__flowsite/live-reload.js" data-build=""#))
        let end = try #require(
            index.body.range(of: #"" defer></script>"#, range: start.upperBound..<index.body.endIndex))
        #expect(!index.body[start.upperBound..<end.lowerBound].isEmpty)
        var withoutScript = index.body
        withoutScript.removeSubrange(start.lowerBound..<end.upperBound)
        #expect(withoutScript == (try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)))
        #expect(index.headers["content-length"] == String(index.body.utf8.count))
        #expect(index.headers["etag"] == nil, "a page changes with every build, whatever its file's date")
        let missing = try await Self.get(serving.base + "no/such/page/", client)
        #expect(
            missing.status == 404 && missing.body.contains("live-reload.js"),
            "the 404 page reloads too, when the page appears")
        let js = try await Self.get(serving.base + "__flowsite/live-reload.js", client)
        #expect(js.status == 200 && js.headers["content-type"]?.hasPrefix("text/javascript") == true)
        #expect(js.body.contains("textContent") && !js.body.contains("innerHTML"))
        let css = try await Self.get(serving.base + "assets/style.css", client)
        #expect(css.status == 200 && !css.body.contains("live-reload"))
    }

    @Test func aSubpathServesTheSiteAndItsScriptAndRedirectsUnderIt() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = try makeTemplates(in: folder, footer: "deep footer")
        let site = folder.appendingPathComponent("site")
        let serving = try await Serving.start(watching(templates, site: site, basePath: "deep/sub"))
        defer { Task { await serving.stop() } }
        #expect(serving.base.hasSuffix("/deep/sub/"))
        let client = Self.http()
        defer { client.shutdown() }
        let root = "http://127.0.0.1:\(serving.address.port)"

        let home = try await Self.get(root + "/deep/sub/", client)
        #expect(home.status == 200 && home.body.contains(#"<script src="/deep/sub/__flowsite/live-reload.js""#))
        let folderWithoutSlash = try await Self.get(root + "/deep/sub/characters", client)
        #expect(folderWithoutSlash.status == 301 && folderWithoutSlash.headers["location"] == "/deep/sub/characters/")
        let baseWithoutSlash = try await Self.get(root + "/deep/sub", client)
        #expect(baseWithoutSlash.status == 302 && baseWithoutSlash.headers["location"] == "/deep/sub/")
        let serverRoot = try await Self.get(root + "/", client)
        #expect(serverRoot.status == 302 && serverRoot.headers["location"] == "/deep/sub/")
        let outside = try await Self.get(root + "/characters/", client)
        #expect(
            outside.status == 404 && outside.body.contains("live-reload.js"),
            "outside the subpath is the site's 404 page")

        // The page's relative links resolve under the subpath.
        let luke = try await Self.get(root + "/deep/sub/characters/luke-skywalker/", client)
        #expect(luke.status == 200 && luke.body.contains("deep footer"))
        let hrefs = luke.body.components(separatedBy: #"href=""#).dropFirst().compactMap {
            $0.split(separator: "\"").first.map(String.init)
        }
        let relative = hrefs.filter { !$0.contains(":") && !$0.hasPrefix("#") }
        #expect(relative.count > 5)
        for href in relative.prefix(40) {
            let target = URL(string: href, relativeTo: URL(string: root + "/deep/sub/characters/luke-skywalker/")!)!
                .absoluteString
            #expect(target.hasPrefix(root + "/deep/sub/"), "\(href)")
            #expect(try await Self.get(target, client).status == 200, "\(target)")
        }
        let channel = try await EventStreamClient(url: root + "/deep/sub/__flowsite/events", client: client)
        defer { channel.stop() }
        _ = try await channel.next("hello")
        try Data("<footer>deeper footer</footer>".utf8).write(
            to: templates.appendingPathComponent("partials/footer.mustache"))
        _ = try await channel.next("reload")
        #expect(
            try await Self.get(root + "/deep/sub/characters/luke-skywalker/", client).body.contains("deeper footer"))
    }

    @Test func aTakenPortMovesToTheNextFreeOne() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        _ = try await BuildAction(output: site, quiet: true).run()
        let first = try await Serving.start(ServeAction(build: nil, root: site, port: 0))
        defer { Task { await first.stop() } }
        let taken = first.address.port
        let second = try await Serving.start(ServeAction(build: nil, root: site, port: taken))
        defer { Task { await second.stop() } }
        #expect(second.address.port > taken && second.address.port <= taken + 20)
        #expect(second.address.requestedPort == taken)
        #expect(second.address.local == "http://127.0.0.1:\(second.address.port)/")
        let client = Self.http()
        defer { client.shutdown() }
        #expect(try await Self.get(second.base, client).status == 200)
        #expect(first.address.requestedPort == nil)
    }

    @Test func pollingIsTheFallbackAndDrivesTheSameLoop() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = try makeTemplates(in: folder, footer: "polled footer")
        let events = Inbox<ServeAction.Event>()
        let action = watching(templates, site: folder.appendingPathComponent("site"), forcePolling: true)
        let task = Task { try await action.run { events.put($0) } }
        defer { task.cancel() }
        let early = try await events.next(
            until: { if case .listening = $0 { true } else { false } }, within: .seconds(300), "the server to listen")
        #expect(early.contains { if case .watching(.polling) = $0 { true } else { false } })
        try Data("<footer>polled again</footer>".utf8).write(
            to: templates.appendingPathComponent("partials/footer.mustache"))
        let rebuilt = try await events.next(until: { if case .built = $0 { true } else { false } }, "the rebuild")
        #expect(!rebuilt.isEmpty)
        let page = try String(contentsOf: folder.appendingPathComponent("site/index.html"), encoding: .utf8)
        #expect(page.contains("polled again"))
    }

    @Test func theServeCommandOpensTheBrowserAndNamesTheNetworkAddress() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A stand-in for xdg-open (and macOS's open) that notes the URL it was given.
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        for name in ["xdg-open", "open"] {
            let opener = bin.appendingPathComponent(name)
            try Data(
                """
                #!/bin/sh\nprintf '%s' "$1" > "\(folder.path)/opened.tmp" && mv "\(folder.path)/opened.tmp" \
                "\(folder.path)/opened"\n
                """
                .utf8
            ).write(to: opener)
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: opener.path)
        }
        let path = bin.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let serve = try PreviewAndCheckTests.Running(
            ["serve", "--port", "0", "--output", "preview", "--host", "0.0.0.0", "--open"], in: folder,
            environment: ["PATH": path], mergingErrors: true
        )
        let lines = try await serve.lines(until: { $0.hasPrefix("On your network") })
        let address = try #require(
            lines.first { $0.hasPrefix("Serving ") }?.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") })
        let opened = folder.appendingPathComponent("opened")
        let deadline = ContinuousClock.now + .seconds(30)
        while !FileManager.default.fileExists(atPath: opened.path) && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(try String(contentsOf: opened, encoding: .utf8) == String(address))
        #expect(await serve.interrupt() == 0)
    }

    @Test func anOfflineAPIBuildWatchesTheCache() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await SwapiTestServer.start(archive: LiveBuildTests.fixture)
        let fetched = try await cli.holocron(
            "build", "--api", server.baseURL, "--cache", "cache", "--output", "site", "--quiet", in: folder)
        #expect(fetched.status == 0, "\(fetched.stderr)")
        await server.stop()
        let serve = try PreviewAndCheckTests.Running(
            [
                "serve", "--watch", "--api", server.baseURL, "--offline", "--cache", "cache", "--output", "site",
                "--port", "0"
            ], in: folder
        )
        let lines = try await serve.lines(until: { $0.hasPrefix("Serving ") })
        #expect(lines.contains("Watching cache for changes; open pages reload after each rebuild."), "\(lines)")
        #expect(await serve.interrupt() == 0)
    }

    @Test func networkAddressesAreNamedForEveryInterfaceOnlyWhenListeningEverywhere() {
        let everywhere = ServeAddress(
            host: "0.0.0.0", port: 8001, requestedPort: 8000, basePath: "/deep/sub/",
            interfaces: ["192.168.1.20", "10.0.0.7"])
        #expect(everywhere.local == "http://127.0.0.1:8001/deep/sub/")
        #expect(everywhere.network == ["http://192.168.1.20:8001/deep/sub/", "http://10.0.0.7:8001/deep/sub/"])
        #expect(everywhere.requestedPort == 8000)
        let here = ServeAddress(
            host: "127.0.0.1", port: 8000, requestedPort: 8000, basePath: "/", interfaces: ["192.168.1.20"])
        #expect(here.network.isEmpty && here.requestedPort == nil)
        #expect(
            ServeAddress(host: "::1", port: 9000, requestedPort: 0, basePath: "/", interfaces: []).local
                == "http://[::1]:9000/")
        #expect(SiteServer.normalizedBasePath("deep/sub") == "/deep/sub/")
        #expect(SiteServer.normalizedBasePath("//deep//sub//") == "/deep/sub/")
        #expect(SiteServer.normalizedBasePath("") == "/")
    }

    @Test func aBadBasePathIsRefusedWithTheUsage() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await cli.holocron("serve", "--base-path", "/a/../b", in: folder)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--base-path"), "\(run.stderr)")
    }
}
