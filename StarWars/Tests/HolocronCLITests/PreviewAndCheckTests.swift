import FlowSite
import Foundation
import HolocronCLI
import HolocronKit
import Logging
import SWAPILive
import Testing

@testable import FlowSiteCommandLine
@testable import cmark_floor

/// `holocron graph`, `holocron check` and `holocron serve`.
@Suite struct PreviewAndCheckTests {
    let cli = HolocronCLITests()

    @Test func graphPrintsEveryPageAndEveryLink() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await cli.holocron("graph", "--level", "pages", "--format", "json", in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let graph = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as! [String: Any]
        let pages = (graph["pages"] as! [[String: Any]]).map { $0["path"] as! String }
        let edges = graph["edges"] as! [[String: String]]
        #expect(pages.count == SitePages.embedded)
        #expect(pages.first == "/" && pages.contains("/characters/luke-skywalker/"))
        let known = Set(pages)
        #expect(edges.allSatisfy { known.contains($0["from"]!) && known.contains($0["to"]!) })
        #expect(edges.contains { $0["from"] == "/" && $0["to"] == "/about/" && $0["presentation"] == "modal" })

        let dot = try await cli.holocron("graph", "--level", "pages", "--output", "flow.dot", in: folder)
        #expect(dot.status == 0, "\(dot.stderr)")
        #expect(
            dot.stdout.hasPrefix("Wrote the graph of \(SitePages.embedded) pages and \(edges.count) links to flow.dot"),
            "\(dot.stdout)")
        let text = try String(contentsOf: folder.appendingPathComponent("flow.dot"), encoding: .utf8)
        #expect(text.hasPrefix("digraph site {") && text.contains(#""/characters/" -> "/characters/luke-skywalker/""#))
    }

    @Test func checkPassesOnAFreshSiteAndNamesEveryDifference() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await cli.holocron("build", "--output", "out", "--quiet", in: folder).status == 0)
        let fresh = try await cli.holocron("check", "--site", "out", in: folder)
        #expect(fresh.status == 0, "\(fresh.stderr)")
        #expect(fresh.stdout.hasPrefix("out is up to date: \(SitePages.embedded) pages, "), "\(fresh.stdout)")

        let site = folder.appendingPathComponent("out")
        try Data("edited by hand".utf8).write(to: site.appendingPathComponent("index.html"))
        try FileManager.default.removeItem(at: site.appendingPathComponent("robots.txt"))
        try Data("stray".utf8).write(to: site.appendingPathComponent("notes.txt"))
        let stale = try await cli.holocron("check", "--site", "out", in: folder)
        #expect(stale.status == 1)
        for line in [
            "1 changed: index.html", "1 missing: robots.txt", "1 extra: notes.txt", "Run `holocron build --output out`"
        ] {
            #expect(stale.stderr.contains(line), "\(stale.stderr)")
        }
        // check never writes the site it checks.
        #expect(try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8) == "edited by hand")

        let options = try await cli.holocron("check", "--site", "out", "--base-url", "https://example.com/", in: folder)
        #expect(options.status == 1)
        #expect(options.stderr.contains("sitemap.xml") && options.stderr.contains("404.html"), "\(options.stderr)")
    }

    /// A build killed with SIGKILL leaves its staging folder; the next build removes it even
    /// when it finds nothing changed and writes nothing.
    @Test func aRebuildWithNothingChangedRemovesTheStagingFolderOfAKilledBuild() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await cli.holocron("build", "--output", "out", "--quiet", in: folder).status == 0)
        #expect(try await cli.holocron("build", "--output", "out", "--quiet", "--force", in: folder).status == 0)
        let spare = folder.appendingPathComponent(".out.spare/site")
        #expect(FileManager.default.fileExists(atPath: spare.path), "the second build keeps the first as its spare")

        // --force builds afresh, so this build stages (from the spare); it is killed while it
        // does. On a busy machine the watcher may look only after the build has finished: then
        // the build runs again, up to five times, until one is killed mid-way.
        let prefix = ".out.staging-"
        @Sendable func staged() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix(prefix) }
        }
        var caught: Running?
        for _ in 0..<5 where caught == nil {
            let attempt = try Running(["build", "--output", "out", "--force", "--quiet"], in: folder)
            // Watched from a thread of its own: the cooperative pool may be busy with other
            // tests for longer than the build takes.
            let process = attempt.process
            await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                Thread.detachNewThread {
                    let deadline = Date().addingTimeInterval(60)
                    while staged().isEmpty, process.isRunning, Date() < deadline { usleep(500) }
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    done.resume()
                }
            }
            if process.terminationReason == .uncaughtSignal { caught = attempt }
        }
        let killed = try #require(caught, "five builds in a row ended before they could be killed mid-way")
        let left = staged()
        try #require(left == ["\(prefix)\(killed.process.processIdentifier)"], "\(left)")

        let again = try await cli.holocron("build", "--output", "out", in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(
            again.stdout.hasPrefix("Up to date: \(SitePages.embedded) pages"),
            "the rebuild takes the no-change path: \(again.stdout)")
        // The staging folder, and the journal the killed build had begun when it got that far.
        let said =
            again.stderr.components(separatedBy: "Removed what killed builds left beside the output: ").dropFirst()
            .first?
            .prefix { $0 != "\n" }.components(separatedBy: ", ") ?? []
        #expect(said.contains(left[0]), "\(again.stderr)")
        #expect(
            Set(said).isSubset(of: [left[0], ".out.journal-\(killed.process.processIdentifier)"]), "\(again.stderr)")
        #expect(staged().isEmpty, "\(staged())")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent(".out.lock").path))
        #expect(!FileManager.default.fileExists(atPath: spare.path), "the spare went with the killed build's staging")

        // The next real build starts from nothing and makes the same site as a build elsewhere.
        #expect(
            try await cli.holocron(
                "build", "--output", "out", "--quiet", "--base-url", "https://example.com/", in: folder
            ).status == 0)
        #expect(
            try await cli.holocron(
                "build", "--output", "fresh", "--quiet", "--base-url", "https://example.com/", in: folder
            ).status == 0)
        let (out, fresh) = (
            try SiteDifference.files(in: folder.appendingPathComponent("out")),
            try SiteDifference.files(in: folder.appendingPathComponent("fresh"))
        )
        #expect(out == fresh, "\(Set(out.keys).symmetricDifference(fresh.keys).sorted())")
    }

    @Test func serveAnswersLikeAStaticHost() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        _ = try await BuildAction(output: site, quiet: true).run()
        let (ports, ready) = AsyncStream<Int>.makeStream()
        var logger = Logger(label: "serve-test")
        logger.logLevel = .critical // cancelling the server below is how the test ends, not a failure
        let server = Task { [logger] in
            try await SiteServer(root: site, port: 0, logger: logger).run { port in
                ready.yield(port)
                ready.finish()
            }
        }
        defer { server.cancel() }
        var port = 0
        for await value in ports { port = value }
        #expect(port > 0)

        let client = TestHTTP()
        defer { client.shutdown() }
        func get(_ path: String) async throws -> TestHTTP.Response {
            try await client.get("http://127.0.0.1:\(port)\(path)", timeout: 10)
        }

        let home = try await get("/")
        #expect(home.status == 200)
        #expect(home.body == (try String(contentsOf: site.appendingPathComponent("index.html"), encoding: .utf8)))
        let luke = try await get("/characters/luke-skywalker/")
        #expect(luke.status == 200 && luke.body.contains("Luke Skywalker"))
        let css = try await get("/assets/style.css")
        #expect(css.status == 200 && css.headers["content-type"]?.hasPrefix("text/css") == true)
        let json = try await get("/search-index.json")
        #expect(json.status == 200 && json.headers["content-type"]?.hasPrefix("application/json") == true)

        let bare = try await get("/characters")
        #expect(bare.status == 301)
        #expect(bare.headers["location"]?.hasSuffix("/characters/") == true, "\(bare.headers)")

        let missing = try await get("/no/such/page/")
        #expect(missing.status == 404)
        #expect(missing.body == (try String(contentsOf: site.appendingPathComponent("404.html"), encoding: .utf8)))

        let escape = try await get("/%2e%2e/%2e%2e/etc/passwd")
        #expect(escape.status == 400 || escape.status == 404)
        #expect(!escape.body.contains("root:"))

        // A NUL would cut the file name short; every control byte, encoded or not, is refused.
        // (The client sends these as written; malformed escapes, which it rewrites, are checked
        // on the server's own test below.)
        for path in [
            "/characters/luke-skywalker/index.html%00.txt", "/characters/luke-skywalker/%00", "/index.html%0a",
            "/index.html%7F", "/index.html%C2%85", "/about/%1B%5B2J"
        ] {
            let refused = try await get(path)
            #expect(refused.status == 400, "\(path): \(refused.status)")
            #expect(!refused.body.contains("Luke Skywalker"), "\(path)")
        }
        #expect(try await get("/characters/luke-skywalker/index.html").status == 200, "a plain path still works")
    }

    @Test func serveRefusesAFolderWithoutASite() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await cli.holocron("serve", "--no-build", "--output", "empty", "--port", "0", in: folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains("empty") && run.stderr.contains("holocron build"), "\(run.stderr)")
    }

    @Test func theServeCommandPrintsItsAddressAndStopsOnInterrupt() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let serve = try Running(["serve", "--port", "0", "--output", "preview"], in: folder)

        // The last of the two lines says where it serves.
        let lines = try await serve.lines(until: { $0.hasPrefix("Serving ") })
        #expect(lines.first?.hasPrefix("Built \(SitePages.embedded) pages") == true, "\(lines)")
        let address = try #require(lines.last?.split(separator: " ").first { $0.hasPrefix("http://127.0.0.1:") })
        let client = TestHTTP()
        defer { client.shutdown() }
        let response = try await client.get(String(address) + "films/", timeout: 10)
        #expect(response.status == 200)

        #expect(await serve.interrupt() == 0)
    }

    @Test func watchingRebuildsOnATemplateChangeAndKeepsTheSiteOnAFailedOne() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let footer = folder.appendingPathComponent("mine/partials/footer.mustache")
        try FileManager.default.createDirectory(
            at: footer.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("<footer>first footer</footer>".utf8).write(to: footer)

        let serve = try Running(
            ["serve", "--port", "0", "--output", "preview", "--templates", "mine", "--watch"], in: folder,
            mergingErrors: true)
        _ = try await serve.lines(until: { $0.hasPrefix("Serving ") })
        let index = folder.appendingPathComponent("preview/index.html")
        #expect(try String(contentsOf: index, encoding: .utf8).contains("first footer"))

        try Data("<footer>second footer</footer>".utf8).write(to: footer)
        let rebuilt = try await serve.lines(until: { $0.hasPrefix("Built ") })
        #expect(rebuilt.last?.hasPrefix("Built \(SitePages.embedded) pages") == true)
        #expect(try String(contentsOf: index, encoding: .utf8).contains("second footer"))

        // A template that doesn't parse: the rebuild fails and the served site stays as it was.
        try Data("{{#unclosed}}".utf8).write(to: footer)
        let failed = try await serve.lines(until: { $0.hasPrefix("Rebuild failed") })
        #expect(failed.last?.contains("footer") == true, "\(failed)")
        #expect(serve.process.isRunning)
        #expect(try String(contentsOf: index, encoding: .utf8).contains("second footer"))
    }

    /// `serve --watch` without --output keeps its preview in a private folder on tmpfs, never
    /// in the folder it runs in, rebuilds it on a data edit, and removes it when it stops.
    @Test func aWatchingServeWithoutAnOutputPreviewsFromMemoryAndLeavesNothing() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try FileManager.default.copyItem(
            at: HolocronCLITests.appPackage.appendingPathComponent("Sources/SWAPI/Resources/snapshot"), to: data)
        let serve = try Running(["serve", "--port", "0", "--data", "data", "--watch"], in: folder)
        let lines = try await serve.lines(until: { $0.hasPrefix("Serving ") })
        let serving = try #require(lines.last)
        #expect(serving.hasPrefix("Serving a preview in memory at http://127.0.0.1:"), "\(serving)")
        let address = try #require(serving.split(separator: " ").first { $0.hasPrefix("http://") }).description
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["data"],
            "nothing is written where serve runs")
        let mine = "flowsite-preview-\(serve.process.processIdentifier)-"
        let shm = (try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? []
        if FileManager.default.isWritableFile(atPath: "/dev/shm") {
            #expect(shm.contains { $0.hasPrefix(mine) }, "the preview is on tmpfs")
        }

        let client = TestHTTP()
        defer { client.shutdown() }
        func luke() async throws -> String {
            try await client.get(address + "characters/luke-skywalker/", timeout: 10).body
        }
        #expect(try await luke().contains("<strong>Height:</strong> 172 cm"))
        let people = data.appendingPathComponent("people.json")
        let text = try String(contentsOf: people, encoding: .utf8)
        let height = try #require(text.range(of: "\"height\": \"172\""))
        try Data(text.replacingCharacters(in: height, with: "\"height\": \"173\"").utf8).write(to: people)
        let rebuilt = try await serve.lines(until: { $0.hasPrefix("Built ") })
        #expect(rebuilt.last?.hasPrefix("Built \(SitePages.embedded) pages") == true, "\(rebuilt)")
        #expect(try await luke().contains("<strong>Height:</strong> 173 cm"))

        #expect(await serve.interrupt() == 0)
        let left =
            ((try? FileManager.default.contentsOfDirectory(atPath: "/dev/shm")) ?? [])
            + ((try? FileManager.default.contentsOfDirectory(
                atPath: FileManager.default.temporaryDirectory.path)) ?? [])
        #expect(!left.contains { $0.hasPrefix(mine) }, "the preview goes when serve stops")
    }

    /// The benchmark's floors: cmark over every page, and cmark plus writing each page's HTML
    /// where the build writes it; a folder that exists is refused.
    @Test func theCmarkFloorConvertsAndWritesEveryPage() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let only = try await CmarkFloorAction(threads: 2).run()
        #expect(only.pages == SitePages.embedded && only.bytes > 0)
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("unused").path))
        let written = folder.appendingPathComponent("floor")
        let floor = try await CmarkFloorAction(threads: 2, writeInto: written).run()
        #expect(floor.pages == SitePages.embedded)
        let luke = try String(
            contentsOf: written.appendingPathComponent("characters/luke-skywalker/index.html"), encoding: .utf8)
        #expect(luke.hasPrefix("<h2>") || luke.contains("Tatooine"), "\(luke.prefix(200))")
        let files = FileManager.default.enumerator(atPath: written.path)!.compactMap { $0 as? String }.filter {
            $0.hasSuffix("index.html")
        }
        #expect(files.count == SitePages.embedded)
        await #expect(throws: CmarkFloorAction.FolderExists.self) {
            try await CmarkFloorAction(threads: 2, writeInto: written).run()
        }
    }

    /// The baselines' input: every page's Markdown as Hugo reads content (a page with pages
    /// below it is `_index.md`), listed beside the site file a build writes from it.
    @Test func theMarkdownDumpHoldsEveryPageWhereHugoLooksForIt() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let dump = folder.appendingPathComponent("markdown")
        #expect(try await CmarkFloorAction().dumpMarkdown(into: dump) == SitePages.embedded)
        let list = try String(contentsOf: dump.appendingPathComponent("pages.tsv"), encoding: .utf8)
        let pairs = list.split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        #expect(pairs.count == SitePages.embedded && pairs.allSatisfy { $0.count == 2 })
        let sites = Dictionary(pairs.map { ($0[1], $0[0]) }, uniquingKeysWith: { a, _ in a })
        #expect(sites["index.html"] == "_index.md")
        #expect(sites["characters/index.html"] == "characters/_index.md")
        #expect(sites["characters/luke-skywalker/index.html"] == "characters/luke-skywalker/index.md")
        let luke = try String(
            contentsOf: dump.appendingPathComponent("content/characters/luke-skywalker/index.md"), encoding: .utf8)
        #expect(luke.hasPrefix("---\n---\n") && luke.contains("Tatooine"), "\(luke.prefix(200))")
        for (_, markdown) in sites {
            #expect(
                FileManager.default.fileExists(atPath: dump.appendingPathComponent("content/" + markdown).path),
                "\(markdown)")
        }
        await #expect(throws: CmarkFloorAction.FolderExists.self) {
            try await CmarkFloorAction().dumpMarkdown(into: dump)
        }
    }

    @Test func watchingNeedsAFolderToWatch() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await cli.holocron("serve", "--watch", in: folder)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--templates") && run.stderr.contains("data"), "\(run.stderr)")
    }

    @Test func aFingerprintChangesWithEveryEdit() throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let watcher = FolderWatcher(folders: [folder])
        let file = folder.appendingPathComponent("a/layout.mustache")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("one".utf8).write(to: file)
        let first = watcher.fingerprint()
        #expect(watcher.fingerprint() == first)
        try Data("three".utf8).write(to: file)
        let resized = watcher.fingerprint()
        #expect(resized != first)
        try Data("x".utf8).write(to: folder.appendingPathComponent("new.css"))
        let added = watcher.fingerprint()
        #expect(added != resized)
        try FileManager.default.removeItem(at: file)
        #expect(watcher.fingerprint() != added)
    }

    /// The `holocron` binary running in the background, ended when the test is done with it.
    final class Running: Sendable {
        let process: Process
        private let output: FileHandle
        private let watchdog: Task<Void, any Error>

        /// - Parameter mergingErrors: read standard error with standard output, in order.
        init(
            _ arguments: [String], in folder: URL, environment: [String: String] = [:], mergingErrors: Bool = false
        ) throws {
            let process = Process()
            process.executableURL = HolocronCLITests.binary
            process.arguments = arguments
            process.currentDirectoryURL = folder
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let out = Pipe()
            process.standardOutput = out
            process.standardError = mergingErrors ? out : Pipe()
            try process.run()
            self.process = process
            output = out.fileHandleForReading
            // Should the command never say what a test waits for, ending it ends the wait.
            watchdog = Task {
                try await Task.sleep(for: .seconds(90))
                process.terminate()
            }
        }

        deinit {
            watchdog.cancel()
            if process.isRunning { process.terminate() }
        }

        /// Reads standard output on a thread of its own until a line matches; the lines read.
        func lines(until done: @escaping @Sendable (String) -> Bool) async throws -> [String] {
            let handle = output
            return try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    var buffer = Data()
                    var lines: [String] = []
                    while true {
                        let chunk = handle.availableData
                        if chunk.isEmpty { break }
                        buffer.append(chunk)
                        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                            let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                            buffer.removeSubrange(buffer.startIndex...newline)
                            lines.append(line)
                            if done(line) {
                                continuation.resume(returning: lines)
                                return
                            }
                        }
                    }
                    continuation.resume(throwing: StreamEnded(lines: lines))
                }
            }
        }

        /// Sends Ctrl-C and waits for the exit status.
        func interrupt() async -> Int32 {
            process.interrupt()
            let process = process
            return await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    process.waitUntilExit()
                    continuation.resume(returning: process.terminationStatus)
                }
            }
        }
    }

    struct StreamEnded: Error, CustomStringConvertible {
        let lines: [String]
        var description: String {
            "the command ended before printing the line the test waits for; it printed: \(lines)"
        }
    }
}
