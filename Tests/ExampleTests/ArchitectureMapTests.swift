import Foundation
import Testing

/// ARCHITECTURE.md follows one page through the code by file: a file moved or renamed without
/// the map fails here, so the map can't drift from the code.
@Suite struct ArchitectureMapTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every `Sources/…`, `Tests/…` or `Package.swift` the map names in backticks, the library's
    /// at the top and the Star Wars app's under `StarWars/`.
    static func namedPaths(in text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { offset, piece in
            guard offset % 2 == 1 else { return nil }
            let path = String(piece)
            let inPackage = path.hasPrefix("StarWars/") ? String(path.dropFirst("StarWars/".count)) : path
            return inPackage.hasPrefix("Sources/") || inPackage.hasPrefix("Tests/") || inPackage == "Package.swift"
                ? path : nil
        }
    }

    @Test func everyFileTheMapNamesExists() throws {
        let map = try String(contentsOf: Self.repository.appendingPathComponent("ARCHITECTURE.md"), encoding: .utf8)
        let paths = Self.namedPaths(in: map)
        #expect(paths.count >= 30, "the map names \(paths.count) files")
        let missing = paths.filter {
            !FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent($0).path)
        }
        #expect(missing.isEmpty, "ARCHITECTURE.md names files that are not there: \(missing)")
    }

    @Test func aPathThatIsNotThereIsFound() {
        let paths = Self.namedPaths(
            in: "see `Sources/FlowSite/Nowhere.swift`, `StarWars/Package.swift` and `make site`")
        #expect(paths == ["Sources/FlowSite/Nowhere.swift", "StarWars/Package.swift"])
        #expect(!FileManager.default.fileExists(atPath: Self.repository.appendingPathComponent(paths[0]).path))
    }
}
