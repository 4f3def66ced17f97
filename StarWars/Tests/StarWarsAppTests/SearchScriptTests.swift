import FlowSite
import Foundation
import SWAPI
import StarWarsTestSupport
import Testing

@testable import StarWarsApp

/// The filter the browser runs is the search view model's filter: the engine's `search.js`
/// runs under Node over the same entries and queries, and must pick the same pages.
/// `make test` installs Node (Debian's `nodejs`) when it is missing.
@Suite(.enabled(if: Executables.node != nil, "needs node or nodejs on PATH (make test installs it)"))
struct SearchScriptTests {
    /// The repository, around the Star Wars app's package (`StarWars/`).
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let script = repository.appendingPathComponent("Sources/FlowSite/Resources/templates/assets/search.js")

    /// Runs the script's `filter` for every query; the URLs each query matches, in order.
    func browserResults(entries: [SearchEntry], queries: [String]) throws -> [[String]] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("search-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let index = entries.map { ["title": $0.name, "section": "\($0.kind)", "url": $0.route.path.file] }
        try JSONSerialization.data(withJSONObject: index).write(to: folder.appendingPathComponent("index.json"))
        try JSONSerialization.data(withJSONObject: queries).write(to: folder.appendingPathComponent("queries.json"))
        let harness = """
            const fs = require("fs");
            const search = require(process.argv[2]);
            const index = JSON.parse(fs.readFileSync(process.argv[3] + "/index.json", "utf8"));
            const queries = JSON.parse(fs.readFileSync(process.argv[3] + "/queries.json", "utf8"));
            process.stdout.write(JSON.stringify(queries.map(q => search.filter(index, q).map(e => e.url))));
            """
        try Data(harness.utf8).write(to: folder.appendingPathComponent("harness.js"))
        let process = Process()
        process.executableURL = Executables.node
        process.arguments = [folder.appendingPathComponent("harness.js").path, Self.script.path, folder.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return try JSONDecoder().decode([[String]].self, from: data)
    }

    /// The pages the view model's filter shows for `query`.
    func viewModelResults(entries: [SearchEntry], query: String) -> [String] {
        switch SearchViewModel.state(query: query, entries: entries) {
        case .filtered(_, let results, _): results.map(\.route.path.file)
        default: []
        }
    }

    @Test func theBrowserAndTheViewModelPickTheSamePages() throws {
        var entries = SearchViewModel.entries(Catalog(archive: try EmbeddedSnapshot.load()))
        // Names that case mapping and accent folding treat differently across libraries.
        let tricky = [
            "Padmé Amidala", "ΟΔΥΣΣΕΥΣ", "Straße", "İstanbul", "Ǆemal", "Zoë ﬁnn", "Ångström", "Cafe\u{301}", "Ñandú",
            "Œdipus", "日本語", "😀 Emoji"
        ]
        for (offset, name) in tricky.enumerated() {
            entries.append(
                SearchEntry(
                    name: name, kind: .people, route: .resources(.people, .detail(id: 900 + offset, slug: Slug(name)))))
        }
        var queries = [
            "luke", "LUKE", "sky", "padme", "PADMÉ", "  r2 ", "\tr2-d2", "zzz", "a", "é", "σσευς", "ss", "strasse",
            "straße", "i̇stanbul", "istanbul", "ǆ", "ﬁ", "fi", "angstrom", "cafe", "nandu", "œ", "日本", "😀", "-", "'"
        ]
        // Pieces of every name, and random pieces with their case swapped.
        var generator = SplitMix(seed: 0x5EA2C4)
        for entry in entries {
            let scalars = Array(entry.name.unicodeScalars)
            guard !scalars.isEmpty else { continue }
            let start = Int.random(in: 0..<scalars.count, using: &generator)
            let end = Int.random(in: start...scalars.count, using: &generator)
            let piece = String(String.UnicodeScalarView(scalars[start..<end]))
            queries.append(piece)
            queries.append(Bool.random(using: &generator) ? piece.uppercased() : piece.lowercased())
        }
        queries = queries.filter { !$0.trimmingCharacters(in: [" ", "\t"]).isEmpty }
        let browser = try browserResults(entries: entries, queries: queries)
        #expect(browser.count == queries.count)
        for (query, found) in zip(queries, browser) {
            #expect(
                Set(found) == Set(viewModelResults(entries: entries, query: query)), "query \(query.debugDescription)")
        }
        #expect(browser[0].contains("characters/luke-skywalker/index.html"))
        #expect(browser[3].contains { $0.hasPrefix("characters/padme-amidala") }, "accents fold away")
    }

    @Test func entriesThatCouldLeaveTheSiteAreNeverShown() throws {
        let bad = [
            SearchEntry(name: "Evil", kind: .people, route: .resources(.people, .detail(id: 1, slug: "evil")))
        ]
        // The route gives a relative path; a hand-made index with other URLs is checked below.
        #expect(try browserResults(entries: bad, queries: ["evil"]) == [["characters/evil/index.html"]])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("search-\(UUID().uuidString).js")
        defer { try? FileManager.default.removeItem(at: folder) }
        let harness = """
            const search = require(process.argv[2]);
            const index = [{title: "a", url: "javascript:alert(1)"}, {title: "a", url: "//evil.example/"}, \
            {title: "a", url: "https://x"}, {title: 5, url: "x"}, {title: "a", url: "ok/index.html"}];
            process.stdout.write(JSON.stringify(search.filter(index, "a").map(e => e.url)));
            """
        try Data(harness.utf8).write(to: folder)
        let process = Process()
        process.executableURL = Executables.node
        process.arguments = [folder.path, Self.script.path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: data, as: UTF8.self) == #"["ok/index.html"]"#)
    }
}
