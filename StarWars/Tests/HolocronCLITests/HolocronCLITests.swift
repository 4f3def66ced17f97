import FlowSite
import Foundation
import SWAPI
import StarWarsTestSupport
import Testing

/// Runs the real `holocron` binary, as a user would.
@Suite struct HolocronCLITests {
    static var binary: URL { Executables.product("holocron") }
    /// The Star Wars app's package (`StarWars/`), and the repository around it.
    static let appPackage = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let repository = appPackage.deletingLastPathComponent()

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    func holocron(_ arguments: String..., in folder: URL) async throws -> Run {
        try await holocronArguments(arguments, in: folder)
    }

    /// Runs the binary and waits for it on a thread of its own, so the cooperative pool stays
    /// free for servers the test runs in-process.
    func holocronArguments(_ arguments: [String], in folder: URL) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try Self.runBlocking(arguments, in: folder) })
            }
        }
    }

    static func runBlocking(_ arguments: [String], in folder: URL) throws -> Run {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("holocron-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func buildWritesTheSiteAndOneSummaryLineAndOneOfFlowLint() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await holocron("build", "--output", "out", in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(
            run.stdout.range(
                of:
                    #"""
                    ^Built \#(SitePages.embedded) pages \(\#(SitePages.embedded) rendered, \d+ files, \#
                    [\d.]+ KiB, \d+ files unchanged\), \#
                    checked \d+ links in [\d.]+ s; no sitemap.xml without a base URL \(pass --base-url to write one\)\n
                    """#,
                options: .regularExpression) != nil, "\(run.stdout)")
        #expect(lines.last == "Flow lint: 1 warning (dead-end 1), 1 suppressed; run `holocron lint` for details")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/flow/index.html").path))
        for page in [
            "out/index.html", "out/characters/luke-skywalker/index.html", "out/about/index.html",
            "out/search-index.json", "out/404.html", "out/robots.txt"
        ] {
            #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(page).path), "missing \(page)")
        }
        #expect(
            !FileManager.default.fileExists(atPath: folder.appendingPathComponent("out/sitemap.xml").path),
            "a sitemap without a base URL")
    }

    /// `holocron lint --write-tests` writes the tests of the transitions the app's coordinator tests leave untested
    /// as they are committed in its test target (`StarWarsAppTests/UntestedTransitionTests.swift`, a suite without
    /// `.flowCoverage()`, so the transitions stay untested), where every `make test` compiles and runs them; `-`
    /// prints the same suite in place of the report.
    @Test func lintWritesTheUntestedTransitionsTestsAsCommitted() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let arguments = [
            "lint", "--coverage", Self.appPackage.appendingPathComponent("flow-coverage").path, "--test-coordinator",
            "AppCoordinator(dependencies: Fixtures.dependencies)", "--write-tests"
        ]
        let run = try await holocronArguments(arguments + ["UntestedTransitionTests.swift"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let written = try String(
            contentsOf: folder.appendingPathComponent("UntestedTransitionTests.swift"), encoding: .utf8)
        let committed = try String(
            contentsOf: Self.appPackage.appendingPathComponent("Tests/StarWarsAppTests/UntestedTransitionTests.swift"),
            encoding: .utf8)
        #expect(
            written == committed,
            """
            The untested transitions' tests changed: from the repository's root run `holocron lint --coverage \
            StarWars/flow-coverage --test-coordinator 'AppCoordinator(dependencies: Fixtures.dependencies)' \
            --write-tests StarWars/Tests/StarWarsAppTests/UntestedTransitionTests.swift` and review the file.
            """)
        let tests = committed.components(separatedBy: "    @Test func ").count - 1
        #expect(tests > 0 && run.stderr.contains("Wrote the tests of \(tests) untested transitions"), "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Flow lint: "), "the report as without --write-tests")
        let printed = try await holocronArguments(arguments + ["-"], in: folder)
        #expect(printed.status == 0 && printed.stdout == committed, "\(printed.stderr)")
        #expect(printed.stderr.hasPrefix("Flow lint: "), "the report's line on standard error: \(printed.stderr)")
    }

    /// `holocron lint` reports the real findings, exits 1 only when strict, and writes SARIF;
    /// a strict build fails and keeps the previous site.
    @Test func lintReportsFindingsAndFailsOnlyWhenStrict() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let text = try await holocron("lint", in: folder)
        #expect(text.status == 0, "stderr: \(text.stderr)")
        #expect(text.stdout.hasPrefix("Flow lint: 1 warning (dead-end 1), 1 suppressed\n"))
        #expect(text.stdout.contains("2 Planet pages have no link of their own"))
        // Locations from the app package's root, wherever lint runs and whatever the source root: the form the
        // map and the graph give too.
        #expect(
            text.stdout.contains("at Sources/StarWarsApp/Shared/ResourceDetailScreen.swift:"), "\(text.stdout)")
        let rooted = try await holocron("lint", "--source-root", Self.repository.path, in: folder)
        #expect(
            rooted.stdout.contains("at Sources/StarWarsApp/Shared/ResourceDetailScreen.swift:"), "\(rooted.stdout)")
        let strict = try await holocron("lint", "--strict", in: folder)
        #expect(strict.status == 1)
        let sarif = try await holocron(
            "lint", "--format", "sarif", "--output", "lint.sarif", "--source-root", Self.repository.path, in: folder)
        #expect(sarif.status == 0, "stderr: \(sarif.stderr)")
        let log = try String(contentsOf: folder.appendingPathComponent("lint.sarif"), encoding: .utf8)
        #expect(log.contains(#""uri" : "StarWars/Sources/StarWarsApp/Shared/ResourceDetailScreen.swift""#))

        try Data(#"{"disabledRules": {"dead-end": "Planets without residents are a fact of the data."}}"#.utf8).write(
            to: folder.appendingPathComponent("lint.json"))
        let configured = try await holocron("lint", "--strict", "--config", "lint.json", in: folder)
        #expect(configured.status == 0, "\(configured.stdout)")
        #expect(configured.stdout.contains("Note: dead-end is off: Planets without residents are a fact of the data."))
        try Data(#"{"disabledRules": {"dead-ends": "typo"}}"#.utf8).write(to: folder.appendingPathComponent("bad.json"))
        let bad = try await holocron("lint", "--config", "bad.json", in: folder)
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("bad.json") && bad.stderr.contains("unknown rule 'dead-ends'"))

        let first = try await holocron("build", "--output", "out", "--quiet", in: folder)
        #expect(first.status == 0)
        let before = try Data(contentsOf: folder.appendingPathComponent("out/index.html"))
        let failed = try await holocron("build", "--output", "out", "--strict", in: folder)
        #expect(failed.status != 0)
        #expect(failed.stderr.contains("dead-end"))
        #expect(try Data(contentsOf: folder.appendingPathComponent("out/index.html")) == before)
    }

    @Test func graphPrintsTheScreenLevelFlow() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await holocron("graph", "--level", "screens", "--format", "json", in: folder)
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let graph = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((graph["kinds"] as? [Any])?.count == 15)
        let dot = try await holocron("graph", "--level", "screens", in: folder)
        #expect(
            dot.stdout.contains(
                #""home" -> "about" [label="modal ×1\nSources/StarWarsApp/Modules/About/AboutModule.swift:"#
            ))
    }

    /// Every file of a site with its inode and modification time.
    func identities(_ folder: URL) throws -> [String: String] {
        var found: [String: String] = [:]
        for path in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            found[path] =
                """
                \(attributes[.systemFileNumber] ?? 0) \
                \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
                """
        }
        return found
    }

    @Test func aRebuildWithNothingChangedWritesNothing() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try SnapshotDirectory.write(SyntheticArchive.make(people: 40), to: folder.appendingPathComponent("data"))
        let first = try await holocron("build", "--data", "data", "--output", "out", in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        let before = try identities(folder.appendingPathComponent("out"))
        let again = try await holocron("build", "--data", "data", "--output", "out", in: folder)
        #expect(again.status == 0)
        #expect(again.stdout.hasPrefix("Up to date:"), "\(again.stdout)")
        // What flow lint found is said again, as the build that made the site found it.
        let lintLine = try #require(first.stdout.split(separator: "\n").last { $0.hasPrefix("Flow lint:") })
        #expect(again.stdout.split(separator: "\n").last == lintLine, "\(again.stdout)")
        #expect(
            try identities(folder.appendingPathComponent("out")) == before,
            "every file keeps its inode and modification time")
        // A file changed behind holocron's back is noticed, and the site repaired.
        let index = folder.appendingPathComponent("out/index.html")
        try Data("tampered".utf8).write(to: index)
        let repair = try await holocron("build", "--data", "data", "--output", "out", in: folder)
        #expect(repair.stdout.hasPrefix("Built"), "\(repair.stdout)")
        #expect(try String(contentsOf: index, encoding: .utf8).hasPrefix("<!doctype html>"))
    }

    @Test func aDataEditRerendersOnlyThePagesThatShowIt() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try SnapshotDirectory.write(SyntheticArchive.make(people: 40), to: data)
        #expect(try await holocron("build", "--data", "data", "--output", "out", in: folder).status == 0)
        let people = data.appendingPathComponent("people.json")
        let edited = try String(contentsOf: people, encoding: .utf8).replacingOccurrences(
            of: #""Person 7""#, with: #""Person Seven""#)
        try Data(edited.utf8).write(to: people)
        let rebuild = try await holocron("build", "--data", "data", "--output", "out", in: folder)
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        let rendered = try #require(rebuild.stdout.firstMatch(of: #/\((\d+) rendered/#).flatMap { Int($0.1) })
        #expect(
            rendered > 0 && rendered < 40, "only the pages that show Person 7 are rendered again: \(rebuild.stdout)")
        // The result is what a full build of the edited data makes.
        #expect(try await holocron("build", "--data", "data", "--output", "fresh", in: folder).status == 0)
        let difference = try SiteDifference(
            expected: folder.appendingPathComponent("fresh"), actual: folder.appendingPathComponent("out"))
        #expect(difference.isEmpty, "\(difference)")
    }

    /// A new `holocron build` process after an edit reads the journal the last one kept beside
    /// the site: only the pages that read the edited record are made again, and the site is
    /// what a full build of the edited data makes. A journal left half written by a killed
    /// build is removed.
    @Test func aDataEditIsBuiltFromTheJournalOfTheLastBuild() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try SnapshotDirectory.write(SyntheticArchive.make(people: 40), to: data)
        #expect(try await holocron("build", "--data", "data", "--output", "out", in: folder).status == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(".out.spare/journal").path))
        let halfWritten = folder.appendingPathComponent(".out.journal-\(try #require(Processes.deadIdentifier()))")
        try Data("half a journal".utf8).write(to: halfWritten)
        let people = data.appendingPathComponent("people.json")
        let text = try String(contentsOf: people, encoding: .utf8)
        let height = try #require(text.firstMatch(of: #/"height"\s*:\s*"[^"]*"/#))
        try Data(text.replacingCharacters(in: height.range, with: #""height": "251""#).utf8).write(to: people)
        let rebuild = try await holocron("build", "--data", "data", "--output", "out", in: folder)
        #expect(rebuild.status == 0, "\(rebuild.stderr)")
        let made = try #require(
            rebuild.stdout.firstMatch(of: #/; (\d+) pages made again, the others kept as they were/#).flatMap {
                Int($0.1)
            }, "\(rebuild.stdout)")
        #expect(made > 0 && made < 20, "\(rebuild.stdout)")
        #expect(!FileManager.default.fileExists(atPath: halfWritten.path), "a killed build's journal is removed")
        #expect(try await holocron("build", "--data", "data", "--output", "fresh", in: folder).status == 0)
        let difference = try SiteDifference(
            expected: folder.appendingPathComponent("fresh"), actual: folder.appendingPathComponent("out"))
        #expect(difference.isEmpty, "\(difference)")
    }

    @Test func aTemplateEditRerendersEveryPageAndEqualsAFullBuild() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = folder.appendingPathComponent("mine/partials")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data("<footer>one</footer>".utf8).write(to: templates.appendingPathComponent("footer.mustache"))
        #expect(try await holocron("build", "--templates", "mine", "--output", "out", in: folder).status == 0)
        try Data("<footer>two</footer>".utf8).write(to: templates.appendingPathComponent("footer.mustache"))
        let rebuild = try await holocron("build", "--templates", "mine", "--output", "out", in: folder)
        #expect(
            rebuild.stdout.hasPrefix("Built \(SitePages.embedded) pages (\(SitePages.embedded) rendered"),
            "\(rebuild.stdout)")
        #expect(try await holocron("build", "--templates", "mine", "--output", "fresh", in: folder).status == 0)
        let difference = try SiteDifference(
            expected: folder.appendingPathComponent("fresh"), actual: folder.appendingPathComponent("out"))
        #expect(difference.isEmpty, "\(difference)")
    }

    @Test func buildDefaultsToSiteAndQuietPrintsNothing() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await holocron("build", "--quiet", in: folder)
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("site/index.html").path))
    }

    @Test func refusingAForeignFolderExitsNonZeroAndSaysWhatToDo() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("docs")
        try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: output.appendingPathComponent("README"))
        let run = try await holocron("build", "--output", "docs", in: folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains("docs") && run.stderr.contains("--force"), "\(run.stderr)")
        #expect(try String(contentsOf: output.appendingPathComponent("README"), encoding: .utf8) == "mine")

        let forced = try await holocron("build", "--output", "docs", "--force", in: folder)
        #expect(forced.status == 0, "\(forced.stderr)")
    }

    @Test func badOptionsPrintUsage() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await holocron("build", "--base-url", "not a url", in: folder)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--base-url") && run.stderr.contains("Usage:"), "\(run.stderr)")
        let templates = try await holocron("build", "--templates", "nowhere", in: folder)
        #expect(templates.status == 2)
        #expect(templates.stderr.contains("nowhere"))
    }

    @Test func buildsInAnotherLanguageAndRebuildsWhenOnlyTheLanguageChanged() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let english = try await holocron("build", "--output", "out", in: folder)
        #expect(english.status == 0, "\(english.stderr)")
        let spanish = try await holocron("build", "--language", "es", "--output", "out", in: folder)
        #expect(spanish.status == 0, "\(spanish.stderr)")
        #expect(
            spanish.stdout.hasPrefix("Built \(SitePages.embedded) pages (\(SitePages.embedded) rendered"),
            "the language is an input of the build: \(spanish.stdout)")
        let luke = try String(
            contentsOf: folder.appendingPathComponent("out/characters/luke-skywalker/index.html"), encoding: .utf8)
        #expect(luke.contains("<html lang=\"es\">") && luke.contains("<strong>Altura:</strong> 172 cm"), "\(luke)")
        let unknown = try await holocron("build", "--language", "tlh", "--output", "out", in: folder)
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("--language 'tlh'") && unknown.stderr.contains("en, es"), "\(unknown.stderr)")
    }

    @Test func buildsEveryLanguageIntoOneSiteThatReplacesTheOldOneWhole() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try await holocron("build", "--output", "out", in: folder).status == 0)
        let run = try await holocron("build", "--languages", "en,es,ar-XB", "--output", "out", in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Built 873 pages in 3 languages (en, es, ar-XB)"), "\(run.stdout)")
        let out = folder.appendingPathComponent("out")
        #expect(
            !FileManager.default.fileExists(atPath: out.appendingPathComponent("characters").path),
            "the English-only site is gone whole")
        let root = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        #expect(root.contains(#"<a href="es/index.html" hreflang="es" lang="es">Español</a>"#), "\(root)")
        let luke = try String(
            contentsOf: out.appendingPathComponent("ar-XB/characters/luke-skywalker/index.html"), encoding: .utf8)
        #expect(luke.hasPrefix("<!doctype html>\n<html lang=\"ar-XB\" dir=\"rtl\">"))
        #expect(
            luke.contains(
                #"<a href="../../../es/characters/luke-skywalker/index.html" hreflang="es" lang="es">Español</a>"#))
        let again = try await holocron("build", "--languages", "en,es,ar-XB", "--output", "out", in: folder)
        #expect(again.stdout.hasPrefix("Up to date: 873 pages"), "\(again.stdout)")
        for (arguments, message) in [
            (["--languages", "en,tlh"], "'tlh' has no string table"),
            (["--languages", "en,es", "--language", "es"], "not both"),
            (["--languages", "en,es,en"], "twice"), (["--fallback-language", "es"], "only en")
        ] {
            let refused = try await holocronArguments(["build", "--output", "out"] + arguments, in: folder)
            #expect(refused.status == 2 && refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
        #expect(
            try String(contentsOf: out.appendingPathComponent("es/index.html"), encoding: .utf8).contains(
                "<html lang=\"es\">"), "a refused build keeps the site")
    }

    @Test func buildsFromASnapshotFolder() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try SnapshotDirectory.write(SyntheticArchive.make(), to: folder.appendingPathComponent("data"))
        let run = try await holocron("build", "--data", "data", "--output", "out", in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Built \(SitePages.count(of: SyntheticArchive.make())) pages"), "\(run.stdout)")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("out/characters/page/9/index.html").path))
    }

    @Test func malformedDataIsNamedAndTheOldSiteKept() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try SnapshotDirectory.write(SyntheticArchive.make(people: 12), to: data)
        #expect(try await holocron("build", "--data", "data", "--output", "out", in: folder).status == 0)
        let before = try Data(contentsOf: folder.appendingPathComponent("out/index.html"))

        let films = data.appendingPathComponent("films.json")
        let broken = try String(contentsOf: films, encoding: .utf8).replacingOccurrences(
            of: #""episode_id" : 5"#, with: #""episode_id" : "five""#)
        try Data(broken.utf8).write(to: films)
        let run = try await holocron("build", "--data", "data", "--output", "out", in: folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains("films.json, resource 2 (\"Film 2\"), field 'episode_id'"), "\(run.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("out/index.html")) == before)
    }

    @Test func missingRelationsAreWarnedAbout() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try SnapshotDirectory.write(SyntheticArchive.make(people: 12), to: data)
        let people = data.appendingPathComponent("people.json")
        let text = try String(contentsOf: people, encoding: .utf8).replacingOccurrences(
            of: "https://swapi.dev/api/planets/1/", with: "https://swapi.dev/api/planets/404/")
        try Data(text.utf8).write(to: people)
        let run = try await holocron("build", "--data", "data", "--output", "out", in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(
            run.stderr.contains("points at https://swapi.dev/api/planets/404/, which is not in the archive"),
            "\(run.stderr)")
        #expect(
            FileManager.default.fileExists(
                atPath: folder.appendingPathComponent("out/archive/missing/planets-404/index.html").path))
    }

    @Test func dataQuotedInWarningsAndErrorsCannotDriveTheTerminal() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try SnapshotDirectory.write(SyntheticArchive.make(people: 12), to: data)
        let hostile = #"Evil \u001b]0;owned\u0007\u001b[2J\r\u009b31m"#
        // A warning that quotes a name: person 1 points at a planet that is not in the archive.
        let people = data.appendingPathComponent("people.json")
        let text = try String(contentsOf: people, encoding: .utf8)
            .replacingOccurrences(of: "https://swapi.dev/api/planets/1/", with: "https://swapi.dev/api/planets/404/")
            .replacingOccurrences(of: #""Person 1""#, with: "\"\(hostile)\"")
        try Data(text.utf8).write(to: people)
        let warned = try await holocron("build", "--data", "data", "--output", "out", in: folder)
        #expect(warned.status == 0, "\(warned.stderr)")
        #expect(warned.stderr.contains(#"Evil \u{1B}]0;owned\u{7}\u{1B}[2J\u{D}\u{9B}31m"#), "\(warned.stderr)")
        // An error that quotes a name: film 2's episode is not a number.
        let films = data.appendingPathComponent("films.json")
        let broken = try String(contentsOf: films, encoding: .utf8)
            .replacingOccurrences(of: #""episode_id" : 5"#, with: #""episode_id" : "five""#)
            .replacingOccurrences(of: #""Film 2""#, with: "\"\(hostile)\"")
        try Data(broken.utf8).write(to: films)
        let failed = try await holocron("build", "--data", "data", "--output", "out", in: folder)
        #expect(failed.status != 0)
        #expect(failed.stderr.contains(#"Evil \u{1B}]0;owned"#), "\(failed.stderr)")
        for run in [warned, failed] {
            #expect(
                !run.stderr.unicodeScalars.contains {
                    $0.value < 0x20 && $0 != "\n" && $0 != "\t" || (0x7F...0x9F).contains($0.value)
                }, "a control character reached the terminal: \(run.stderr.debugDescription)")
        }
    }

    @Test func helpListsTheOptions() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await holocron("build", "--help", in: folder)
        #expect(run.status == 0)
        for option in ["--output", "--data", "--templates", "--base-url", "--force", "--quiet"] {
            #expect(run.stdout.contains(option), "help lacks \(option)")
        }
        let top = try await holocron("--help", in: folder)
        #expect(top.status == 0)
        for command in ["build", "serve", "check", "snapshot", "graph"] {
            #expect(top.stdout.contains("  \(command)"), "help lacks \(command)")
        }
    }

    @Test func theTemplatesCommandWritesAStartingPointThatBuildsTheSameSite() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let written = try await holocron("templates", "--output", "mine", in: folder)
        #expect(written.status == 0, "\(written.stderr)")
        #expect(
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("mine/partials/footer.mustache").path))
        #expect(try await holocron("build", "--output", "plain", "--quiet", in: folder).status == 0)
        #expect(
            try await holocron("build", "--templates", "mine", "--output", "custom", "--quiet", in: folder).status == 0)
        let plain = try Data(contentsOf: folder.appendingPathComponent("plain/characters/luke-skywalker/index.html"))
        #expect(
            try Data(contentsOf: folder.appendingPathComponent("custom/characters/luke-skywalker/index.html")) == plain)
        let again = try await holocron("templates", "--output", "mine", in: folder)
        #expect(again.status != 0 && again.stderr.contains("Refusing to overwrite"), "\(again.stderr)")
    }

    @Test func customTemplatesOverrideTheDefaults() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let templates = folder.appendingPathComponent("mine/partials")
        try FileManager.default.createDirectory(at: templates, withIntermediateDirectories: true)
        try Data("<footer>custom footer</footer>".utf8).write(to: templates.appendingPathComponent("footer.mustache"))
        let run = try await holocron("build", "--templates", "mine", "--output", "out", in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOf: folder.appendingPathComponent("out/index.html"), encoding: .utf8)
        #expect(html.contains("custom footer"))
    }
}

/// `holocron diff` as a reviewer's CI runs it.
@Suite struct DiffCommandTests {
    let cli = HolocronCLITests()

    /// Exit 0 for the same site, 1 for a change, 2 for trouble; Markdown for a comment; both
    /// sides built from two data folders.
    @Test func diffExitsZeroOneOrTwoAndBuildsBothSides() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = HolocronCLITests.appPackage.appendingPathComponent("Sources/SWAPI/Resources/snapshot")
        try FileManager.default.copyItem(at: data, to: folder.appendingPathComponent("old"))
        try FileManager.default.copyItem(at: data, to: folder.appendingPathComponent("new"))
        let people = folder.appendingPathComponent("new/people.json")
        let text = try String(contentsOf: people, encoding: .utf8)
        let luke = try #require(text.range(of: "\"height\": \"172\""))
        try Data(text.replacingCharacters(in: luke, with: "\"height\": \"180\"").utf8).write(to: people)

        #expect(try await cli.holocron("build", "--data", "old", "--output", "a", "--quiet", in: folder).status == 0)
        #expect(try await cli.holocron("build", "--data", "old", "--output", "b", "--quiet", in: folder).status == 0)
        let same = try await cli.holocron("diff", "a", "b", in: folder)
        #expect(same.status == 0, "\(same.stderr)")
        #expect(same.stdout == "No change: the two sites are the same\n")

        let changed = try await cli.holocron(
            "diff", "--old-data", "old", "--new-data", "new", "--format", "markdown", "--new-url",
            "https://example.com/pr/", in: folder)
        #expect(changed.status == 1, "\(changed.stderr)")
        #expect(changed.stdout.contains("| Height | **172** cm | **180** cm |"))
        #expect(changed.stdout.contains("[after](https://example.com/pr/characters/luke-skywalker/)"))
        let json = try await cli.holocron(
            "diff", "--old-data", "old", "--new-data", "new", "--format", "json", "--output", "diff.json", in: folder)
        #expect(json.status == 1)
        let document =
            try JSONSerialization.jsonObject(with: try Data(contentsOf: folder.appendingPathComponent("diff.json")))
            as? [String: Any]
        #expect(document?["pagesChanged"] as? Int == 1 && document?["equal"] as? Bool == false)
        #expect(
            try !FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path).contains {
                $0.hasPrefix("holocron-diff-")
            }, "the scratch builds are removed")

        let missing = try await cli.holocron("diff", "a", "nowhere", in: folder)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nowhere") && missing.stderr.contains("holocron build"))
        let notASite = try await cli.holocron("diff", "a", "old", in: folder)
        #expect(notASite.status == 2)
        #expect(notASite.stderr.contains("not a site made by a FlowSite build"))
        let usage = try await cli.holocron("diff", "a", in: folder)
        #expect(usage.status == 2)
        let unknown = try await cli.holocron("diff", "--colour", in: folder)
        #expect(unknown.status == 2)
    }
}
