import Foundation
import SWAPI
import Testing

/// A load that keeps the resources of the files that did not change (`serve --watch` reloads
/// this way) gives what a load from nothing gives, after every kind of edit.
@Suite struct SnapshotReuseTests {
    func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "snapshot-reuse-\(UUID().uuidString)")
        try SnapshotDirectory.write(try EmbeddedSnapshot.load(), to: folder)
        return folder
    }

    func edit(_ folder: URL, _ file: String, _ change: (String) -> String) throws {
        let url = folder.appendingPathComponent(file)
        try Data(change(try String(contentsOf: url, encoding: .utf8)).utf8).write(to: url)
    }

    func expectSameAsFresh(_ loaded: SnapshotDirectory.Loaded, _ folder: URL, _ what: String) throws {
        let fresh = try SnapshotDirectory(url: folder).load()
        #expect(loaded.archive == fresh, "\(what)")
        #expect(
            loaded.archive.danglingReferences.map(\.description) == fresh.danglingReferences.map(\.description),
            "\(what)")
    }

    @Test func onlyTheFilesThatChangedAreReadAgain() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = SnapshotDirectory(url: folder)
        var loaded = try directory.load(reusing: nil)
        #expect(loaded.decoded == Set(ResourceKind.allCases))
        loaded = try directory.load(reusing: loaded)
        #expect(loaded.decoded.isEmpty)
        try expectSameAsFresh(loaded, folder, "nothing changed")

        try edit(folder, "people.json") { $0.replacingOccurrences(of: "\"Luke Skywalker\"", with: "\"Luke S.\"") }
        loaded = try directory.load(reusing: loaded)
        #expect(loaded.decoded == [.people])
        #expect(loaded.archive.person(1)?.name == "Luke S.")
        try expectSameAsFresh(loaded, folder, "a name")

        // The people's film relations move to another host, where no resource is yet: the
        // archive leaves them out…
        try edit(folder, "people.json") {
            $0.replacingOccurrences(of: "https://swapi.dev/api/films/", with: "https://films.example/api/films/")
        }
        loaded = try directory.load(reusing: loaded)
        #expect(loaded.decoded == [.people])
        #expect(loaded.archive.person(1)?.films.isEmpty == true)
        try expectSameAsFresh(loaded, folder, "relations to another host")

        // …until the films themselves move there: then the relations count, though people.json
        // was not read again (the resources kept are those of the file, before any was left out).
        try edit(folder, "films.json") {
            $0.replacingOccurrences(of: "https://swapi.dev/api/films/", with: "https://films.example/api/films/")
        }
        loaded = try directory.load(reusing: loaded)
        #expect(loaded.decoded == [.films])
        #expect(loaded.archive.person(1)?.films.isEmpty == false)
        try expectSameAsFresh(loaded, folder, "the films moved too")
    }

    @Test func aPathTheWatcherSawChangeIsReadAgainWhateverItsStamp() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = SnapshotDirectory(url: folder)
        let first = try directory.load(reusing: nil)
        let again = try directory.load(reusing: first, changed: [folder.appendingPathComponent("planets.json").path])
        #expect(again.decoded == [.planets])
        try expectSameAsFresh(again, folder, "a reported change")
    }

    @Test func aFileThatTurnsBadIsReportedAndTheNextGoodLoadRecovers() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let directory = SnapshotDirectory(url: folder)
        let first = try directory.load(reusing: nil)
        try Data("[{".utf8).write(to: folder.appendingPathComponent("species.json"))
        #expect(throws: SwapiError.self) { try directory.load(reusing: first) }
        try SnapshotDirectory.write(try EmbeddedSnapshot.load(), to: folder)
        let recovered = try directory.load(reusing: first)
        try expectSameAsFresh(recovered, folder, "after a bad file")
    }
}
