import FlowSite
import Foundation
import Testing

@Suite struct SiteDifferenceTests {
    func folder(_ files: [String: String]) throws -> URL {
        let root = try temporaryFolder()
        for (path, text) in files {
            let url = root.appendingPathComponent(path)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return root
    }

    @Test func namesChangedMissingAndExtraFiles() throws {
        let expected = try folder(["index.html": "home", "a/index.html": "a", "b/index.html": "b", "same.txt": "same"])
        let actual = try folder(["index.html": "home!", "a/index.html": "a", "c/index.html": "c", "same.txt": "same"])
        defer { for url in [expected, actual] { try? FileManager.default.removeItem(at: url) } }
        let difference = try SiteDifference(expected: expected, actual: actual)
        #expect(
            difference
                == SiteDifference(
                    changed: ["index.html"], missing: ["b/index.html"], extra: ["c/index.html"], expectedCount: 4))
        #expect(!difference.isEmpty)
        #expect(difference.lines() == ["1 changed: index.html", "1 missing: b/index.html", "1 extra: c/index.html"])
    }

    @Test func identicalFoldersHaveNoDifference() throws {
        let files = ["index.html": "home", "x/y/z.json": "{}"]
        let one = try folder(files)
        let two = try folder(files)
        defer { for url in [one, two] { try? FileManager.default.removeItem(at: url) } }
        let difference = try SiteDifference(expected: one, actual: two)
        #expect(difference.isEmpty)
        #expect(difference.description == "no differences in 2 files")
    }

    @Test func longListsAreCut() throws {
        let many = Dictionary(uniqueKeysWithValues: (0..<30).map { (String(format: "p%02d.html", $0), "x") })
        let expected = try folder(many)
        let actual = try folder([:])
        defer { for url in [expected, actual] { try? FileManager.default.removeItem(at: url) } }
        let lines = try SiteDifference(expected: expected, actual: actual).lines(limit: 3)
        #expect(lines == ["30 missing: p00.html, p01.html, p02.html and 27 more"])
    }

    @Test func aMissingFolderIsNamed() throws {
        let nowhere = FileManager.default.temporaryDirectory.appendingPathComponent("no-such-site-\(UUID().uuidString)")
        let error = #expect(throws: FlowSiteError.self) { try SiteDifference.files(in: nowhere) }
        #expect(error?.description.contains(nowhere.path) == true)
    }
}
