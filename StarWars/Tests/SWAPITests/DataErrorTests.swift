import Foundation
import SWAPI
import Testing

/// Every error in a data folder names the file, the position, the field and what was expected.
@Suite struct DataErrorTests {
    /// A snapshot folder whose file for `kind` holds `bytes` and whose other files are empty lists.
    func folder(_ kind: ResourceKind, _ bytes: [UInt8]) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for other in ResourceKind.allCases where other != kind {
            try Data("[]".utf8).write(to: folder.appendingPathComponent(other.fileName))
        }
        try Data(bytes).write(to: folder.appendingPathComponent(kind.fileName))
        return folder
    }

    func loadError(_ kind: ResourceKind, _ text: String) throws -> SwapiError {
        try loadError(kind, Array(text.utf8))
    }

    func loadError(_ kind: ResourceKind, _ bytes: [UInt8]) throws -> SwapiError {
        let folder = try folder(kind, bytes)
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            let archive = try SnapshotDirectory(url: folder).load()
            throw UnexpectedSuccess(archive: archive)
        } catch let error as SwapiError {
            return error
        }
    }

    struct UnexpectedSuccess: Error { let archive: SwapiArchive }

    @Test func invalidJSONNamesLineAndColumn() throws {
        let error = try loadError(.films, "[\n  {\"title\": \"A New Hope\",\n   \"url\": }\n]\n")
        guard case .invalidJSON(_, let position, let expected, let found) = error.reason else {
            Issue.record("expected invalid JSON, not \(error.reason)")
            return
        }
        #expect(position == TextPosition(line: 3, column: 11, byte: 39))
        #expect(expected == "a value" && found == "'}'")
        let text = error.description
        #expect(text.contains("films.json"), "\(text)")
        #expect(text.contains("not valid JSON at line 3, column 11 (byte 39)"), "\(text)")
        #expect(text.contains("expected a value"), "\(text)")
    }

    @Test func invalidUTF8NamesLineColumnAndByte() throws {
        let bytes =
            Array("[\n  {\"name\": \"Padmé ".utf8) + [0xFF]
            + Array("\", \"url\": \"https://swapi.dev/api/people/1/\"}\n]\n".utf8)
        let error = try loadError(.people, bytes)
        guard case .invalidUTF8(_, let position) = error.reason else {
            Issue.record("expected invalid UTF-8, not \(error.reason)")
            return
        }
        // "Padmé" counts as five characters, not six bytes.
        #expect(position == TextPosition(line: 2, column: 19, byte: 22))
        let text = error.description
        #expect(text.contains("people.json"), "\(text)")
        #expect(text.contains("not valid UTF-8 at line 2, column 19 (byte 22)"), "\(text)")
        #expect(!text.contains("expected text or a number"), "\(text)")
    }

    @Test func duplicateIDsNameTheFileBothResourcesAndTheID() throws {
        let error = try loadError(
            .films,
            #"""
            [{"title": "A", "url": "https://swapi.dev/api/films/1/"}, {"title": "B", \#
            "url": "https://swapi.dev/api/films/2/"},
             {"title": "C", "url": "https://swapi.dev/api/films/1/"}]
            """#)
        guard case .duplicateID(.films, 1, let source?, _, _) = error.reason else {
            Issue.record("expected a duplicate id, not \(error.reason)")
            return
        }
        #expect(source.hasSuffix("/films.json"))
        let text = error.description
        #expect(text.contains("films.json"), "\(text)")
        #expect(text.contains("resource 1 (\"A\")") && text.contains("resource 3 (\"C\")"), "\(text)")
        #expect(text.contains("id 1"), "\(text)")
    }

    @Test func aDataFileThatIsAFolderSaysSo() throws {
        let folder = try folder(.planets, Array("[]".utf8))
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("planets.json")
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
        do {
            _ = try SnapshotDirectory(url: folder).load()
            Issue.record("loading should fail")
        } catch let error as SwapiError {
            guard case .notAFile(let path) = error.reason else {
                Issue.record("expected a folder error, not \(error.reason)")
                return
            }
            #expect(path == file.path)
            #expect(error.description.contains("\(file.path) is a folder"), "\(error)")
            #expect(!error.description.contains("operation"), "\(error)")
        }
    }

    @Test func aWrongTypeSaysWhatWasExpectedAndFound() throws {
        let text = try loadError(
            .vehicles, #"[{"name": "Sand Crawler", "pilots": "none", "url": "https://swapi.dev/api/vehicles/4/"}]"#
        ).description
        #expect(text.contains("vehicles.json, resource 1 (\"Sand Crawler\"), field 'pilots'"), "\(text)")
        #expect(text.contains("expected a list of resource URLs, found the text \"none\""), "\(text)")
    }
}
