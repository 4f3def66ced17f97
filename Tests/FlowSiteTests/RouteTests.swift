import Testing

@testable import FlowSite

@Suite struct RouteTests {
    @Test(arguments: [
        ("Luke Skywalker", "luke-skywalker"),
        ("Padmé Amidala", "padme-amidala"),
        ("R2-D2", "r2-d2"),
        ("  --Weird__name--  ", "weird-name"),
        ("../../etc/passwd", "etc-passwd"),
        ("", "untitled"),
        ("   ", "untitled"),
        ("Владимир Путин", "vladimir-putin"),
        ("Ἀχιλλεύς", "achilleus"),
        ("毛泽东", "mao-ze-dong"),
        ("محمد علي", "mhmd-ly"),
        ("Jabba's Palace", "jabbas-palace"),
        ("Ki-Adi-Mundi", "ki-adi-mundi"),
        ("ＡＢＣ full width", "abc-full-width"),
        ("<script>alert(1)</script>", "script-alert-1-script")
    ])
    func slugs(_ text: String, _ slug: String) {
        #expect(Slug(text).rawValue == slug)
    }

    /// ASCII names are folded on their bytes; the result must be what the scalar path makes,
    /// for every ASCII character, alone and between letters.
    @Test func asciiFoldingMatchesTheScalarPath() {
        var texts = ["", "Person 7", "  A--b  ", "O'Neil", "X-Wing (T-65)", "\u{0}\u{7F}", "123"]
        for byte in UInt8(0)..<0x80 {
            let character = String(decoding: [byte], as: UTF8.self)
            texts += [character, "a" + character + "B", character + character + "9"]
        }
        for text in texts {
            #expect(Slug.foldASCII(text) == Slug.foldScalars(text), "\(Array(text.utf8))")
        }
        #expect(Slug.foldASCII("Padmé") == nil, "other text takes the scalar path")
    }

    @Test func slugsNeverLeaveTheFolder() {
        for text in ["..", ".", "/", "a/../b", "%2e%2e", "\\..\\"] {
            let slug = Slug(text).rawValue
            #expect(!slug.contains("/") && !slug.contains(".") && !slug.isEmpty)
        }
    }

    @Test func textWithNothingToSpellGetsAStableHashNotACounter() {
        let a = Slug("..").rawValue
        let b = Slug("!!!").rawValue
        let emoji = Slug("😀").rawValue
        #expect(a.hasPrefix("untitled-") && b.hasPrefix("untitled-") && emoji.hasPrefix("untitled-"))
        #expect(Set([a, b, emoji]).count == 3)
        #expect(Slug("..").rawValue == a, "the same text always gets the same slug")
        #expect(a == "untitled-" + Slug.stableHash(".."))
        #expect(Slug.stableHash("..").count == 8)
    }

    @Test func longNamesAreCutOnACharacterBoundaryWithAHashOfTheWhole() {
        let long = String(repeating: "Ünïcödé ", count: 60) + "end"
        let other = String(repeating: "Ünïcödé ", count: 60) + "fin"
        let slug = Slug(long).rawValue
        #expect(slug.utf8.count <= Slug.maximumLength)
        #expect(slug.hasPrefix("unicode-unicode-"))
        #expect(slug.hasSuffix("-" + Slug.stableHash(long)))
        #expect(Slug(other).rawValue != slug, "names that differ only past the cut keep different slugs")
        #expect(Slug(slug).rawValue == slug, "a slug is its own slug")
        let alreadySlug = String(repeating: "a", count: 300)
        #expect(Slug(alreadySlug).rawValue.utf8.count == Slug.maximumLength)
        #expect(Slug(long).suffixed(12).rawValue.utf8.count <= Slug.maximumLength)
        #expect(Slug(long).suffixed(12).rawValue.hasSuffix("-12"))
    }

    @Test func suffixedSlugsStayDistinct() {
        #expect(Slug("Han Solo").suffixed(2).rawValue == "han-solo-2")
    }

    @Test func pageThreeFoldersDeepLinksToTheRoot() {
        let deep: RoutePath = ["a", "b", "c"]
        #expect(deep.relativeURL(to: .root) == "../../../index.html")
        #expect(deep.rootPrefix == "../../../")
        #expect(deep.relativeURL(toSiteFile: "assets/style.css") == "../../../assets/style.css")
        #expect(deep.file == "a/b/c/index.html")
    }

    @Test func relativeURLsShareTheirCommonFolders() {
        let luke: RoutePath = ["characters", "luke"]
        #expect(luke.relativeURL(to: ["characters", "leia"]) == "../leia/index.html")
        #expect(luke.relativeURL(to: ["characters"]) == "../index.html")
        #expect(luke.relativeURL(to: luke) == "index.html")
        #expect(RoutePath.root.relativeURL(to: luke) == "characters/luke/index.html")
        #expect(RoutePath.root.rootPrefix == "./")
        #expect(RoutePath(["characters"]).relativeURL(to: ["characters", "page", "2"]) == "page/2/index.html")
    }

    @Test func pathsOrderLikeTheirSlugs() {
        let paths: [RoutePath] = [["b"], .root, ["a", "z"], ["a"]]
        #expect(paths.sorted() == [.root, ["a"], ["a", "z"], ["b"]])
    }
}

/// Findings and errors name a route by its path and a short name, never a nested payload (issue 63, item 7).
@Suite struct RouteNameTests {
    struct Item: Hashable, Sendable {
        var title: String
        var summary: String?
    }

    enum Feed: Route {
        case list, detail(Item), page(Int)
        var path: RoutePath {
            switch self {
            case .list: ["feed"]
            case .detail(let item): ["feed", Slug(item.title)]
            case .page(let number): ["feed", "page", Slug("\(number)")]
            }
        }
    }

    enum Described: Route, CustomStringConvertible {
        case detail(Item)
        var path: RoutePath { ["d"] }
        var description: String { "the detail" }
    }

    @Test func aRouteIsNamedShortlyBesideItsPath() {
        let detail = Feed.detail(Item(title: "Swift 6.3 is out", summary: "A long summary of the release."))
        #expect(detail.shownName == "detail")
        #expect(detail.shownPathAndName == "/feed/swift-6-3-is-out/ (detail)")
        #expect(Feed.page(2).shownName == "page(2)")
        #expect(Feed.list.shownName == "list")
        #expect(Described.detail(Item(title: "x")).shownName == "the detail")
    }
}

/// One form of a place in the code everywhere: from the package's root (issue 63, item 7).
@Suite struct CodeLocationFormTests {
    @Test func aPlaceIsNamedFromItsPackagesRoot() {
        let deep = CodeLocation(
            fileID: "SampleApp/SourceSelection.swift",
            filePath: "/home/a/app/Sources/SampleApp/Setup/SourceSelection.swift",
            line: 52)
        #expect(deep.packagePath == "Sources/SampleApp/Setup/SourceSelection.swift")
        #expect(deep.description == "Sources/SampleApp/Setup/SourceSelection.swift:52")
        #expect(deep.editorPath(relativeTo: "/home/a") == "Sources/SampleApp/Setup/SourceSelection.swift")
        // A target with a path of its own keeps the module form, or the path below the source root.
        let example = CodeLocation(
            fileID: "hello/main.swift", filePath: "/home/a/app/Examples/Hello/main.swift", line: 3)
        #expect(example.description == "hello/main.swift:3")
        #expect(example.editorPath(relativeTo: "/home/a/app") == "Examples/Hello/main.swift")
    }

    @Test func theMapAndLintNameAFileAlike() async throws {
        // The people app's notes page ends on purpose; its dead end, once unmarked, is found on the map and in lint.
        let report = try await FlowLinter(coordinator: Dotless()).run()
        let finding = try #require(report.findings.first { $0.rule == .deadEnd })
        let location = try #require(finding.location)
        let text = report.text(sourceRoot: "/")
        #expect(text.contains("    at \(location.description)\n"), "\(text)")
        let exported = report.json(sourceRoot: "/")
        #expect(exported.contains("\"\(location.description)\""), "\(exported)")
    }

    struct Dotless: RootCoordinator {
        var startRoute: People { .home }
        var siteInfo: SiteInfo<People> { SiteInfo(name: "People") }
        func makeScreen(for route: People) async throws -> any Screen<People> {
            var document = MarkdownDocument<People>()
            if route == .home { document.paragraph(.link("Notes", to: .notes)) }
            return FixedScreen(page: Page(title: "\(route)", document: document))
        }
    }
}
