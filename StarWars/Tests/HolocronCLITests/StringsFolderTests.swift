import FlowSite
import Foundation
import SWAPI
import Testing

/// `holocron build --strings <folder>`: a translator's table, read at run time, builds and edits
/// like a compiled-in one, also when it lacks keys and the build falls back to English.
@Suite struct StringsFolderTests {
    let cli = HolocronCLITests()

    /// Spanish's compiled-in table as a JSON object, to write under another name.
    static func spanish() throws -> [String: String] {
        let file = HolocronCLITests.appPackage.appendingPathComponent("Sources/StarWarsApp/Resources/Strings/es.json")
        return try #require(JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: String])
    }

    static func write(_ table: [String: String], to file: URL) throws {
        try JSONSerialization.data(withJSONObject: table, options: [.sortedKeys]).write(to: file)
    }

    @Test func aTableThatFallsBackIsBuiltAndEditedFromTheJournal() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("data")
        try SnapshotDirectory.write(SyntheticArchive.make(people: 40), to: data)
        let strings = folder.appendingPathComponent("strings")
        try FileManager.default.createDirectory(at: strings, withIntermediateDirectories: true)
        // "French": Spanish's words, without the home page's search link.
        var french = try Self.spanish()
        french["@locale"] = "fr-FR"
        french["home.link.search"] = nil
        let table = strings.appendingPathComponent("fr.json")
        try Self.write(french, to: table)
        let build = ["build", "--data", "data", "--languages", "en,fr", "--strings", "strings"]

        // A missing key fails the build, naming the language and the key, unless it may fall back.
        let strict = try await cli.holocronArguments(build + ["--output", "out"], in: folder)
        #expect(strict.status != 0)
        #expect(strict.stderr.contains("home.link.search") && strict.stderr.contains("fr"), "\(strict.stderr)")
        let falling = build + ["--fallback-language", "en"]
        let first = try await cli.holocronArguments(falling + ["--output", "out"], in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        let home = folder.appendingPathComponent("out/fr/index.html")
        #expect(try String(contentsOf: home, encoding: .utf8).contains(#"class="fallback-note""#))

        // A one-record edit remakes only the pages that show the record, in both languages.
        let people = data.appendingPathComponent("people.json")
        try Data(
            try String(contentsOf: people, encoding: .utf8).replacingOccurrences(
                of: #""Person 7""#, with: #""Person Seven""#
            ).utf8
        ).write(to: people)
        let edit = try await cli.holocronArguments(falling + ["--output", "out"], in: folder)
        #expect(edit.status == 0, "\(edit.stderr)")
        let rendered = try #require(edit.stdout.firstMatch(of: #/\((\d+) rendered/#).flatMap { Int($0.1) })
        #expect(rendered > 0 && rendered < 40, "the journals are kept: \(edit.stdout)")
        try await expectAFullBuild(of: falling, into: "out", in: folder)

        // An edit of the table makes its pages again, though the program and the data are the same.
        french["home.introduction"] = "Un guide du holocron."
        try Self.write(french, to: table)
        let retranslated = try await cli.holocronArguments(falling + ["--output", "out"], in: folder)
        #expect(retranslated.status == 0, "\(retranslated.stderr)")
        #expect(try String(contentsOf: home, encoding: .utf8).contains("Un guide du holocron."))
        try await expectAFullBuild(of: falling, into: "out", in: folder)
        let again = try await cli.holocronArguments(falling + ["--output", "out"], in: folder)
        #expect(again.stdout.hasPrefix("Up to date:"), "\(again.stdout)")
    }

    /// The site in `output` is what a build from nothing of the same inputs makes.
    func expectAFullBuild(of build: [String], into output: String, in folder: URL) async throws {
        let fresh = "fresh-\(UUID().uuidString)"
        let full = try await cli.holocronArguments(build + ["--output", fresh], in: folder)
        #expect(full.status == 0, "\(full.stderr)")
        let difference = try SiteDifference(
            expected: folder.appendingPathComponent(fresh), actual: folder.appendingPathComponent(output))
        #expect(difference.isEmpty, "\(difference)")
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(fresh))
    }

    @Test func aTableInTheFolderTakesThePlaceOfTheCompiledInOne() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let strings = folder.appendingPathComponent("strings")
        try FileManager.default.createDirectory(at: strings, withIntermediateDirectories: true)
        var spanish = try Self.spanish()
        spanish["home.heading.explore"] = "Explora el holocrón"
        try Self.write(spanish, to: strings.appendingPathComponent("es.json"))
        let run = try await cli.holocron(
            "build", "--quiet", "--language", "es", "--strings", "strings", "--output", "out", in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let home = try String(contentsOf: folder.appendingPathComponent("out/index.html"), encoding: .utf8)
        #expect(home.contains("Explora el holocrón") && !home.contains("Explora el archivo"))
    }

    @Test(arguments: [
        ("en.json", "English is the table every other is checked against"),
        ("Fr.json", "not a language code"),
        ("en-XA.json", "pseudo-locale"),
        ("fr.json", "not a flat JSON object")
    ])
    func aBadTableIsNamedWithWhatToDo(file: String, message: String) async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let strings = folder.appendingPathComponent("strings")
        try FileManager.default.createDirectory(at: strings, withIntermediateDirectories: true)
        try Data("[\"not a table\"]".utf8).write(to: strings.appendingPathComponent(file))
        let run = try await cli.holocron(
            "build", "--languages", "en,fr", "--strings", "strings", "--output", "out", in: folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains(file) && run.stderr.contains(message), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("out").path))
    }

    @Test func aMissingFolderIsNamed() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try await cli.holocron("build", "--strings", "no-such-folder", "--output", "out", in: folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains("no-such-folder"), "\(run.stderr)")
    }
}
