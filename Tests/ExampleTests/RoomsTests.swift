import Foundation
import Testing

/// The rooms of `Sources/` and the arrows between them (ARCHITECTURE.md draws both). Between targets the
/// compiler keeps the arrows; inside FlowSite's one module it can't, so each rule here names what a room's
/// files may not mention. A rule that fails names the file and the word: move the code to the room that owns it,
/// or, if the arrow is right, change the rule and the picture together.
@Suite struct RoomsTests {
    static let repository = ArchitectureMapTests.repository
    static let flowSite = "Sources/FlowSite/"
    static let internalRooms = flowSite + "Internal/"

    /// What no file in `room` may name (an identifier or a literal's text), for the reason given.
    struct Rule: CustomStringConvertible {
        var room: String
        var words: [String]
        /// When set, the rule is about every file of the library's `Sources/` outside `room` instead.
        var outside = false
        var why: String
        var description: String { "\(outside ? "outside " : "")\(room): \(why)" }
    }

    static let rules: [Rule] = [
        Rule(
            room: internalRooms + "Store/",
            words: ["ByteWriter(", "ByteReader(", "manifest 1", "pages 1", "FLOWJRN", "\".flowsite"],
            outside: true,
            why: "only Store spells a byte layout, a format's header or a name of the site's own files"),
        Rule(
            room: internalRooms + "Walk/",
            words: [
                "SiteStaging", "SiteWriter", "SiteManifest", "SiteLayout", "BuildJournal", "WalkJournal",
                "JournalWriting", "ByteWriter", "PageRenderer", "CommonMark", "CompiledTemplate", "ContentHTML",
                "FileManager"
            ],
            why: "the walk runs the app's navigation: it writes nothing, renders nothing, keeps no journal"),
        Rule(
            room: internalRooms + "Render/",
            words: [
                "SiteStaging", "SiteWriter", "SiteManifest", "BuildJournal", "SiteWalker", "WalkNavigator",
                "FileManager"
            ],
            why: "rendering is bytes in, bytes out: no file system, no walk"),
        Rule(
            room: internalRooms + "Store/",
            words: [
                "SiteStaging", "SiteWriter", "SiteWalker", "WalkNavigator", "PageRenderer", "CommonMark",
                "CompiledTemplate"
            ],
            why: "the formats know no staging, walk or rendering: they are read and written by those rooms"),
        Rule(
            room: internalRooms + "Review/",
            words: ["SiteStaging", "SiteWriter", "SiteWalker", "PageRenderer", "BuildJournal"],
            why: "review reads two built sites through Store's readers; it never builds or writes one"),
        Rule(
            room: internalRooms + "FlowMap/",
            words: ["SiteStaging", "SiteWriter", "SiteWalker", "BuildJournal", "SiteManifest"],
            why: "the flow map is drawn from the flow graph; the pipeline writes its pages")
    ]

    /// `path`'s code without its comments (`//` to the end of a line, and `/* … */`), so a doc comment may name
    /// another room's type.
    static func code(of path: URL) throws -> String {
        let text = try String(contentsOf: path, encoding: .utf8)
        let withoutBlocks = text.replacing(/\/\*[\s\S]*?\*\//, with: "")
        return withoutBlocks.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            // A `//` inside a string literal (a URL) is rare in these rooms; none of the words above is in one.
            guard let comment = line.firstRange(of: "//") else { return String(line) }
            return String(line[..<comment.lowerBound])
        }.joined(separator: "\n")
    }

    /// The library's Swift files below `Sources/`, by path from the repository.
    static func libraryFiles() throws -> [String] {
        let sources = repository.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(atPath: sources.path))
        return enumerator.compactMap { ($0 as? String).flatMap { $0.hasSuffix(".swift") ? "Sources/" + $0 : nil } }
            .sorted()
    }

    /// Each `(file, word)` that breaks `rule` among `files`.
    static func breaches(of rule: Rule, in files: [String], under root: URL = repository) throws -> [String] {
        try files.filter { $0.hasPrefix(rule.room) != rule.outside }.flatMap { file in
            let code = try code(of: root.appendingPathComponent(file))
            return rule.words.filter { word in
                guard let first = word.first, first.isLetter else { return code.contains(word) }
                // An identifier counts whole: `SiteWalker` is not in `SiteWalkerTests`.
                return code.contains(try! Regex("\\b\(NSRegularExpression.escapedPattern(for: word))\\b"))
            }.map { "\(file): \($0)" }
        }
    }

    @Test(arguments: rules) func eachRoomKeepsItsArrows(rule: Rule) throws {
        let files = try Self.libraryFiles()
        #expect(files.contains { $0.hasPrefix(rule.room) }, "no file in \(rule.room): the rule guards nothing")
        let found = try Self.breaches(of: rule, in: files)
        #expect(found.isEmpty, "\(rule): \(found)")
    }

    /// A rule finds what it is about: a file that breaks it is caught, and a comment that names the word is not.
    @Test func aRuleCatchesAReachAcrossAndNotAComment() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rooms-\(UUID().uuidString)")
        let room = folder.appendingPathComponent("Walk")
        try FileManager.default.createDirectory(at: room, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let reaching = room.appendingPathComponent("Reaching.swift")
        try "let staging: SiteStaging? = nil\n".write(to: reaching, atomically: true, encoding: .utf8)
        let commented = room.appendingPathComponent("Commented.swift")
        try "/// Hands its pages to ``SiteStaging``.\nlet x = 1 // not SiteWriter\n"
            .write(to: commented, atomically: true, encoding: .utf8)
        let rule = try #require(Self.rules.first { $0.room.hasSuffix("/Walk/") })
        let walk = Rule(room: "Walk/", words: rule.words, why: rule.why)
        let found = try Self.breaches(
            of: walk, in: ["Walk/Commented.swift", "Walk/Reaching.swift"], under: folder)
        #expect(found == ["Walk/Reaching.swift: SiteStaging"])
        var outside = walk
        outside.outside = true
        #expect(try Self.breaches(of: outside, in: ["Walk/Reaching.swift"], under: folder).isEmpty)
    }

    /// Every folder of either package's `Sources/` holds at most 15 Swift files: past that, a room is two rooms.
    @Test func noRoomHoldsMoreThan15Files() throws {
        var counts: [String: Int] = [:]
        for top in ["Sources", "StarWars/Sources"] {
            let root = Self.repository.appendingPathComponent(top)
            let enumerator = try #require(FileManager.default.enumerator(atPath: root.path))
            for case let path as String in enumerator where path.hasSuffix(".swift") {
                counts[top + "/" + (path as NSString).deletingLastPathComponent, default: 0] += 1
            }
        }
        #expect(counts.count >= 20, "found only \(counts.count) folders of Swift files")
        let crowded = counts.filter { $0.value > 15 }.sorted { $0.key < $1.key }
        #expect(crowded.isEmpty, "folders of more than 15 Swift files: \(crowded)")
    }

    /// One lock for both packages: FlowSite's `Locked` (public as `FlowSite.Locked`). Another lock type, or a
    /// lock kept beside the state it guards, is one ThreadSanitizer may not see and a reader must learn twice.
    @Test func bothPackagesUseOneLock() throws {
        let words = ["NSLock", "NSRecursiveLock", "pthread_mutex_t", "os_unfair_lock", "Mutex<", "Mutex("]
        let home = "Sources/FlowSiteUtilities/Locked.swift"
        // The lock's own file, and this one, which names the others.
        let exempt = [home, "Tests/ExampleTests/RoomsTests.swift"]
        var found: [String] = []
        var files = 0
        for top in ["Sources", "Tests", "StarWars/Sources", "StarWars/Tests", "Examples"] {
            let root = Self.repository.appendingPathComponent(top)
            guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { continue }
            for case let path as String in enumerator
            where path.hasSuffix(".swift") && !exempt.contains(top + "/" + path) {
                files += 1
                let code = try Self.code(of: root.appendingPathComponent(path))
                found += words.filter { code.contains($0) }.map { "\(top)/\(path): \($0)" }
            }
        }
        #expect(files > 250, "read only \(files) Swift files")
        #expect(found.isEmpty, "locks other than Locked: \(found)")
        #expect(try Self.code(of: Self.repository.appendingPathComponent(home)).contains("pthread_mutex_t"))
    }
}
