import FlowSiteUtilities
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// FlowSite adopted the way another team adopts it: the Getting Started article's app, its files
/// written from the article's code blocks as a reader pastes them (with the snapshots and flow
/// coverage its tests recorded, from `Tests/Fixtures/CrewApp`), depends on a tagged copy of this
/// repository by version, resolves only what the library needs, compiles nothing of the Star Wars
/// app, passes its tests, and gets the site executable's verbs and the plugins; the article's
/// dependency by path resolves against the same copy.
@Suite(.serialized) struct AdoptionTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Kept between runs below the repository's own .build, at the same paths, so a second run
    /// compiles only what changed.
    static let workspace = repository.appendingPathComponent(".build/adoption")
    /// Folders the release leaves out: the Star Wars app's own package and its golden site, which
    /// nothing in the library's package reads (were the library to need them, resolving or building
    /// the release would fail here). An edit of the app alone then keeps the release as it was.
    static let notReleased = ["StarWars/", "site/"]
    static let fixture = workspace.appendingPathComponent("CrewApp")
    static let scratch = workspace.appendingPathComponent("CrewApp-build")

    /// The packages a user of FlowSite, FlowSiteCommandLine and FlowSiteTesting may resolve:
    /// FlowSite itself, its command line's parser, logging, the template parser, and
    /// swift-snapshot-testing with what it brings.
    static let allowedPackages: Set<String> = [
        "holocron", "swift-argument-parser", "swift-log", "swift-mustache",
        "swift-snapshot-testing", "swift-custom-dump", "swift-syntax", "xctest-dynamic-overlay", "swift-issue-reporting"
    ]
    /// Modules a user's build must never compile: an HTTP client, TLS, an event-loop library (the preview
    /// server is FlowSite's own), the Star Wars app.
    static let forbiddenModules = [
        "AsyncHTTPClient", "NIOSSL", "CNIOBoringSSL", "NIOHTTP2", "NIOCore", "NIOPosix", "Hummingbird",
        "SWAPI", "SWAPILive", "StarWarsApp", "HolocronKit", "HolocronCLI", "holocron"
    ]

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        var output: String { stdout + stderr }
    }

    /// Runs a program to its end, both pipes read at once (a full pipe would stall a build).
    static func run(
        _ executable: URL, _ arguments: [String], in folder: URL, environment: [String: String] = [:]
    ) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        let process = Process()
                        process.executableURL = executable
                        process.arguments = arguments
                        process.currentDirectoryURL = folder
                        // A CI runner or a git hook may export GIT_DIR and its kin.
                        let inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
                        process.environment = inherited.merging(environment) { $1 }
                        let out = Pipe()
                        let err = Pipe()
                        process.standardOutput = out
                        process.standardError = err
                        try process.run()
                        let errors = Locked(Data())
                        let done = DispatchSemaphore(value: 0)
                        Thread.detachNewThread {
                            let data = err.fileHandleForReading.readDataToEndOfFile()
                            errors.withLock { $0 = data }
                            done.signal()
                        }
                        let stdout = out.fileHandleForReading.readDataToEndOfFile()
                        process.waitUntilExit()
                        done.wait()
                        return Run(
                            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                            stderr: String(decoding: errors.withLock { $0 }, as: UTF8.self)
                        )
                    })
            }
        }
    }

    static func git(_ arguments: [String], in folder: URL) async throws -> Run {
        let git = try #require(Executables.onPath("git"), "git is not on PATH")
        let identity = ["-c", "user.name=Fixture", "-c", "user.email=fixture@example.com", "-c", "commit.gpgsign=false"]
        return try await run(git, identity + arguments, in: folder)
    }

    static func swift(_ arguments: [String], in folder: URL = fixture) async throws -> Run {
        let swift = try #require(Executables.onPath("swift"), "swift is not on PATH")
        return try await run(swift, arguments, in: folder)
    }

    /// This checkout as a user would get a release of it: every file git would commit (the
    /// working tree as it is, uncommitted changes included) in a repository of its own, tagged
    /// 0.1.0, but for ``notReleased``; and beside it the article's app, depending on it by version.
    /// Returns the release's folder, named after its git tree: SwiftPM keeps what it fetched of a
    /// URL, so other files get another URL, and the same files keep the last run's checkout and
    /// what was compiled from it.
    static func makeRelease() async throws -> URL {
        let files = try await git(["ls-files", "-z", "--cached", "--others", "--exclude-standard"], in: repository)
        try #require(files.status == 0, "git ls-files failed (is this a git checkout?): \(files.stderr)")
        let manager = FileManager.default
        let staging = workspace.appendingPathComponent("staging/holocron")
        try? manager.removeItem(at: staging.deletingLastPathComponent())
        try? manager.removeItem(at: fixture)
        for path in files.stdout.split(separator: "\0").map(String.init)
        where !notReleased.contains(where: path.hasPrefix) {
            let source = repository.appendingPathComponent(path)
            guard
                (try? source.checkResourceIsReachable()) == true
                    || (try? manager.destinationOfSymbolicLink(atPath: source.path)) != nil
            else { continue } // deleted in the working tree, not yet in git
            let target = staging.appendingPathComponent(path)
            try manager.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try manager.copyItem(at: source, to: target)
        }
        for step in [
            ["init", "--quiet", "-b", "main"], ["add", "--all"], ["commit", "--quiet", "-m", "FlowSite 0.1.0"],
            ["tag", "0.1.0"]
        ] {
            let result = try await git(step, in: staging)
            try #require(result.status == 0, "git \(step.joined(separator: " ")) failed: \(result.stderr)")
        }
        let tree = try await git(["rev-parse", "HEAD^{tree}"], in: staging)
        try #require(tree.status == 0, "git rev-parse failed: \(tree.stderr)")
        let name = "release-" + tree.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let release = workspace.appendingPathComponent(name + "/holocron")
        if manager.fileExists(atPath: release.path) {
            try manager.removeItem(at: staging.deletingLastPathComponent())
        } else {
            for old in (try? manager.contentsOfDirectory(atPath: workspace.path)) ?? [] where old.hasPrefix("release-")
            {
                try? manager.removeItem(at: workspace.appendingPathComponent(old))
            }
            // What the last run resolved, which names the last run's copy; its build products stay.
            for state in ["workspace-state.json", "checkouts", "repositories"] {
                try? manager.removeItem(at: scratch.appendingPathComponent(state))
            }
            try manager.moveItem(at: staging.deletingLastPathComponent(), to: release.deletingLastPathComponent())
        }
        try manager.copyItem(at: repository.appendingPathComponent("Tests/Fixtures/CrewApp"), to: fixture)
        // The app depends on the release by version: the article's URL is the one thing changed.
        // (Written into the manifest, not passed in the environment: SwiftPM keeps a manifest's
        // evaluation for as long as its text is the same.)
        let article = try GettingStartedArticle()
        let manifest = article.files["Package.swift"] ?? ""
        try #require(article.strays.isEmpty && manifest.contains(GettingStartedArticle.byVersion), "see its tests")
        try article.write(into: fixture, dependency: ".package(url: \"\(release.absoluteString)\", from: \"0.1.0\")")
        return release
    }

    /// The article's other manifest: the same app depending on a checkout by path. Resolving it
    /// loads both packages' graphs, so a product or package name the article gets wrong fails
    /// here without a second build; the folder is named as the article's `../holocron` is.
    static func checkPathForm(release: URL) async throws {
        let folder = workspace.appendingPathComponent("CrewAppByPath")
        try? FileManager.default.removeItem(at: folder)
        let relative = "../" + release.deletingLastPathComponent().lastPathComponent + "/holocron"
        let dependency = GettingStartedArticle.byPath.replacingOccurrences(of: "../holocron", with: relative)
        try GettingStartedArticle().write(into: folder, dependency: dependency)
        let scratch = ["--scratch-path", workspace.appendingPathComponent("CrewAppByPath-build").path]
        let graph = try await swift(["package"] + scratch + ["show-dependencies", "--format", "json"], in: folder)
        #expect(graph.status == 0, "\(graph.output)")
        #expect(graph.stdout.contains(#/"identity" ?: "holocron"/#), "\(graph.stdout)")
    }

    /// Starts `serve`, asks it for the home page and a missing one, and stops it with SIGINT.
    static func checkServe(_ site: URL, in folder: URL) async throws {
        let process = Process()
        process.executableURL = site
        process.arguments = ["serve", "--port", "0", "--live-reload"]
        process.currentDirectoryURL = folder
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        let (lines, continuation) = AsyncStream<String>.makeStream()
        out.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            if data.isEmpty { continuation.finish() } else { continuation.yield(String(decoding: data, as: UTF8.self)) }
        }
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        // The address, from "Serving a preview at http://127.0.0.1:PORT/ (Ctrl-C stops)".
        let address = try await withThrowingTaskGroup(of: String?.self) { group in
            group.addTask {
                var text = ""
                for await chunk in lines {
                    text += chunk
                    if let found = text.firstMatch(of: #/at (http://127\.0\.0\.1:[0-9]+/)/#) { return String(found.1) }
                }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: .seconds(60))
                return nil
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
        let base = try #require(address, "serve printed no address within a minute")
        let (home, homeResponse) = try await URLSession.shared.data(from: URL(string: base)!)
        #expect((homeResponse as? HTTPURLResponse)?.statusCode == 200)
        let page = String(decoding: home, as: UTF8.self)
        #expect(page.contains("Ada") && page.contains("__flowsite/live-reload.js"), "\(page)")
        let (_, missing) = try await URLSession.shared.data(from: URL(string: base + "no/such/page/")!)
        #expect((missing as? HTTPURLResponse)?.statusCode == 404)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "Ctrl-C ends serve cleanly")
    }

    @Test(.timeLimit(.minutes(20))) func anAppDependsOnFlowSiteByVersionAndGetsEveryVerb() async throws {
        let release = try await Self.makeRelease()
        let scratch = ["--scratch-path", Self.scratch.path]

        // Resolved: only what the library needs.
        try? FileManager.default.removeItem(at: Self.fixture.appendingPathComponent("Package.resolved"))
        let resolve = try await Self.swift(["package"] + scratch + ["resolve"])
        try #require(resolve.status == 0, "\(resolve.output)")
        let resolved =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Self.fixture.appendingPathComponent("Package.resolved"))) as? [String: Any]
        let pins = try #require(resolved?["pins"] as? [[String: Any]], "Package.resolved has no pins")
        let identities = Set(pins.compactMap { $0["identity"] as? String })
        #expect(identities.contains("holocron"), "\(identities.sorted())")
        #expect(
            identities.subtracting(Self.allowedPackages).isEmpty,
            "resolved packages FlowSite does not need: \(identities.subtracting(Self.allowedPackages).sorted())")
        #expect(identities.count <= 9, "\(identities.count) packages: \(identities.sorted())")

        // Built with its tests: nothing of the Star Wars app, no HTTP client, no TLS, and no
        // warning about the test target's snapshots (the article's `exclude`).
        let build = try await Self.swift(["build"] + scratch + ["--build-tests"])
        try #require(build.status == 0, "\(build.output)")
        #expect(!build.output.contains("unhandled"), "\(build.output)")
        let products = Self.scratch.appendingPathComponent("debug")
        // The modules this build compiled, by SwiftPM's step lines (the app's, written anew each run, always),
        // and those the folder holds: a release with the same files keeps what an earlier run compiled of it.
        let compiled = Set(
            build.output.matches(of: #/\] (?:Compiling|Emitting module) ([A-Za-z0-9_]+)/#).map { String($0.1) })
        let kept =
            (try? FileManager.default.contentsOfDirectory(atPath: products.appendingPathComponent("Modules").path))
            ?? []
        let modules = compiled.union(kept.filter { $0.hasSuffix(".swiftmodule") }.map { String($0.dropLast(12)) })
        #expect(compiled.contains("CrewApp") && modules.contains("FlowSite"), "\(modules.sorted())")
        let forbidden = Self.forbiddenModules.filter(modules.contains)
        #expect(
            forbidden.isEmpty,
            "the app's build compiled \(forbidden) (or an old run did: remove .build/adoption to start afresh)")

        let tests = try await Self.swift(["test"] + scratch)
        #expect(tests.status == 0, "\(tests.output)")
        try await Self.checkPathForm(release: release)

        // The site executable's verbs.
        let site = products.appendingPathComponent("crew-site")
        let folder = Self.workspace.appendingPathComponent("sites")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let first = try await Self.run(site, ["build", "--output", "one"], in: folder)
        #expect(first.status == 0, "\(first.output)")
        #expect(first.stdout.contains("Built 4 pages"), "\(first.stdout)")
        let second = try await Self.run(site, ["build", "--output", "two"], in: folder)
        // The same counts of pages, files, bytes and links; only the time taken may differ.
        let timing = try Regex(#" in [0-9.]+ s"#)
        #expect(
            second.stdout.replacing(timing, with: "") == first.stdout.replacing(timing, with: ""),
            "two builds of the same app print the same summary")
        let same = try await Self.run(site, ["diff", "one", "two"], in: folder)
        #expect(same.status == 0 && same.stdout.contains("No change"), "\(same.output)")
        let grown = try await Self.run(
            site, ["build", "--output", "three"], in: folder, environment: ["CREW": "Ada,Grace,Linus"])
        #expect(grown.status == 0, "\(grown.output)")
        let diff = try await Self.run(site, ["diff", "one", "three", "--format", "markdown"], in: folder)
        #expect(diff.status == 1, "a difference exits 1: \(diff.output)")
        #expect(diff.stdout.contains("| Member | 2 | 3 | 1 | 0 | 0 |"), "\(diff.stdout)")
        #expect(!diff.stderr.contains("error"), "a difference is a report, not an error: \(diff.stderr)")

        // Lint, run from the package's root as the plugin runs it: every location names a file
        // of the package, from its root, in SARIF and in text alike.
        let sarif = try await Self.run(site, ["lint", "--format", "sarif", "--output", "lint.sarif"], in: Self.fixture)
        #expect(sarif.status == 0, "warnings only: \(sarif.output)")
        let log = try String(contentsOf: Self.fixture.appendingPathComponent("lint.sarif"), encoding: .utf8)
        #expect(log.contains(#""ruleId" : "dead-end""#), "\(log)")
        #expect(log.contains(#""uri" : "Sources/CrewApp/CrewScreen.swift""#), "\(log)")
        let text = try await Self.run(site, ["lint"], in: Self.fixture)
        let places = text.stdout.split(separator: "\n").compactMap { line -> String? in
            guard let at = line.range(of: "    at ") else { return nil }
            return String(line[at.upperBound...].split(separator: ":").first ?? "")
        }
        #expect(!places.isEmpty, "\(text.stdout)")
        for place in places {
            #expect(
                FileManager.default.fileExists(atPath: Self.fixture.appendingPathComponent(place).path),
                "lint names \(place), which is not in the package")
        }
        let strict = try await Self.run(site, ["lint", "--strict"], in: Self.fixture)
        #expect(strict.status == 1, "\(strict.output)")
        let graph = try await Self.run(site, ["graph", "--format", "mermaid"], in: folder)
        #expect(graph.status == 0 && graph.stdout.contains("flowchart"), "\(graph.output)")

        // Serve: the preview answers like a static host, with the live-reload script in pages,
        // and Ctrl-C ends it cleanly.
        try await Self.checkServe(site, in: folder)

        // The plugins, run as `swift package` commands in the app's package.
        let before = folder.appendingPathComponent("before")
        let plugin = try await Self.swift(
            ["package"] + scratch + [
                "--allow-writing-to-directory", before.path, "generate-site", "--output", before.path
            ])
        #expect(plugin.status == 0, "\(plugin.output)")
        #expect(plugin.stdout.contains("Built 4 pages"), "\(plugin.stdout)")
        for page in [
            "index.html", "crew/ada/index.html", "crew/grace/index.html", "about/index.html", "flow/index.html",
            ".flowsite-flow.json"
        ] {
            #expect(FileManager.default.fileExists(atPath: before.appendingPathComponent(page).path), "no \(page)")
        }
        let pluginDiff = try await Self.swift(
            ["package"] + scratch + [
                "diff-site", before.path, folder.appendingPathComponent("three").path, "--format", "markdown"
            ])
        #expect(pluginDiff.stdout.contains("**Linus** `/crew/linus/`"), "\(pluginDiff.output)")
        #expect(
            pluginDiff.status == 0 && !pluginDiff.output.contains("error"),
            "a difference is reported, not an error: \(pluginDiff.output)")
        let pluginSame = try await Self.swift(["package"] + scratch + ["diff-site", before.path, before.path])
        #expect(pluginSame.status == 0 && pluginSame.stdout.contains("No change"), "\(pluginSame.output)")
        let failing = try await Self.swift(
            ["package"] + scratch + [
                "diff-site", "--exit-code", before.path, folder.appendingPathComponent("three").path
            ])
        #expect(failing.status != 0, "--exit-code fails on a difference")
        let lintSite = try await Self.swift(
            ["package"] + scratch + [
                "--allow-writing-to-package-directory", "lint-site", "--format", "sarif", "--output", "flow-lint.sarif"
            ])
        #expect(lintSite.status == 0, "\(lintSite.output)")
        let pluginLog = try String(contentsOf: Self.fixture.appendingPathComponent("flow-lint.sarif"), encoding: .utf8)
        #expect(pluginLog.contains(#""uri" : "Sources/CrewApp/CrewScreen.swift""#), "\(pluginLog)")
        let lintStrict = try await Self.swift(["package"] + scratch + ["lint-site", "--strict"])
        #expect(lintStrict.status != 0, "lint-site --strict fails on a warning: \(lintStrict.output)")

        try await Self.checkPreviewSite(scratch: scratch)
    }

    /// `preview-site` serves the app's site with live reload and follows its code: an edit to a
    /// source file is built and served, a compile error is shown to open pages over the site
    /// still served, the fix clears it, and Ctrl-C stops the plugin and its server.
    static func checkPreviewSite(scratch: [String]) async throws {
        let port = try #require(Self.freePort(), "no free port")
        let base = "http://127.0.0.1:\(port)/"
        let source = fixture.appendingPathComponent("Sources/CrewApp/CrewScreen.swift")
        let original = try String(contentsOf: source, encoding: .utf8)
        defer { try? Data(original.utf8).write(to: source) }
        // Foundation starts it in a process group of its own, so Ctrl-C can go to that group as a
        // terminal sends it to the foreground job.
        let swift = try #require(Executables.onPath("swift"), "swift is not on PATH")
        let process = Process()
        process.executableURL = swift
        process.arguments = ["package"] + scratch + ["--disable-sandbox", "preview-site", "--port", "\(port)"]
        process.currentDirectoryURL = fixture
        process.environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GIT_") }
        let output = Locked(Data())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        pipe.fileHandleForReading.readabilityHandler = { handle in
            let more = handle.availableData
            output.withLock { $0.append(more) }
        }
        try process.run()
        defer { if process.isRunning { kill(-process.processIdentifier, SIGKILL) } }
        try #require(
            getpgid(process.processIdentifier) == process.processIdentifier,
            "the plugin is not in a process group of its own")
        func log() -> String { String(decoding: output.withLock { $0 }, as: UTF8.self) }

        let first = await Self.waitFor(minutes: 5) { await Self.page(base + "about/") }
        try #require(first?.contains("A crew roster.") == true, "the preview never served the About page: \(log())")
        let events = try #require(Self.helloEvent(port: port), "no live-reload channel")
        #expect(events.contains(#""error":null"#), "\(events)")

        // An edit to the app's code is built and served.
        let edit = original.replacingOccurrences(of: "A crew roster.", with: "A crew roster, edited.")
        try Data(edit.utf8).write(to: source)
        let edited = await Self.waitFor(minutes: 5) {
            await Self.page(base + "about/").flatMap { $0.contains("edited") ? $0 : nil }
        }
        #expect(edited != nil, "the edit was never served: \(log())")

        // A compile error: the site is still served and open pages are told why.
        try Data((original + "\nlet broken: Int = \"not a number\"\n").utf8).write(to: source)
        let failure = await Self.waitFor(minutes: 5) {
            Self.helloEvent(port: port).flatMap {
                $0.contains("not a number") || $0.contains("cannot convert") ? $0 : nil
            }
        }
        #expect(failure != nil, "the compile error never reached the pages: \(log())")
        #expect(await Self.page(base + "about/")?.contains("edited") == true, "the last good site is still served")

        // The fix clears it.
        try Data(original.utf8).write(to: source)
        let fixed = await Self.waitFor(minutes: 5) {
            await Self.page(base + "about/").flatMap { $0.contains("edited") ? nil : $0 }
        }
        #expect(fixed != nil, "the fix was never served: \(log())")
        #expect(Self.helloEvent(port: port)?.contains(#""error":null"#) == true, "the fix clears the error")

        // Ctrl-C, to the plugin's whole group as a terminal sends it: everything stops, the
        // server too (SwiftPM runs the plugin, and the plugin the server, each in a group of its
        // own, which the Ctrl-C does not reach).
        kill(-process.processIdentifier, SIGINT)
        let ended = await Self.waitFor(minutes: 1) { process.isRunning ? nil : true }
        let left = try await run(URL(fileURLWithPath: "/bin/ps"), ["-eo", "pid,ppid,pgid,sid,stat,args"], in: fixture)
            .stdout
        #expect(ended == true, "the plugin did not stop on Ctrl-C: \(log())\n\(left)")
        #expect(await Self.page(base) == nil, "the server still answers after Ctrl-C")
    }

    /// What `check` returns once it returns something, asked every half second; `nil` after
    /// the time allowed.
    static func waitFor<T>(minutes: Int, _ check: () async -> T?) async -> T? {
        let deadline = ContinuousClock.now + .seconds(minutes * 60)
        while ContinuousClock.now < deadline {
            if let value = await check() { return value }
            try? await Task.sleep(for: .milliseconds(500))
        }
        return nil
    }

    /// A page's text, or `nil` when the server doesn't answer 200.
    static func page(_ address: String) async -> String? {
        guard let (data, response) = try? await URLSession.shared.data(from: URL(string: address)!),
            (response as? HTTPURLResponse)?.statusCode == 200
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// The `hello` event the live-reload channel sends a page that connects (it names the
    /// build's error, if any), read from a plain socket; `nil` when nothing answers.
    static func helloEvent(port: Int) -> String? {
        guard let socket = Sockets.connect(port: port, timeout: 5) else { return nil }
        defer { close(socket) }
        let request = Array(
            "GET /__flowsite/events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n".utf8)
        guard write(socket, request, request.count) == request.count else { return nil }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(socket, &buffer, buffer.count)
            guard count > 0 else { return nil }
            received += buffer[0..<count]
            let text = String(decoding: received, as: UTF8.self)
            if let hello = text.range(of: "event: hello\ndata: "), let end = text[hello.upperBound...].range(of: "\n\n")
            {
                return String(text[hello.upperBound..<end.lowerBound])
            }
        }
    }

    /// A port no one listens on now.
    static func freePort() -> Int? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return nil }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        guard bound == 0,
            withUnsafeMutablePointer(
                to: &address,
                {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
                }) == 0
        else { return nil }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
