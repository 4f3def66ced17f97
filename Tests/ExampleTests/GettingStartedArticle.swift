import Foundation
import Testing

/// The Getting Started article's app, file by file, as a reader pastes it: each `swift` code
/// block that starts with `// <path>` is the whole of that file, and the one that starts with
/// `// swift-tools-version` is `Package.swift`. The adoption test builds these files.
struct GettingStartedArticle {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let path = "Sources/FlowSite/FlowSite.docc/GettingStarted.md"

    /// The manifest's dependency as the article gives it, by version.
    static let byVersion = #".package(url: "https://github.com/OWNER/holocron", from: "0.1.0")"#
    /// The same dependency by path, as the article gives it for a checkout beside the package.
    static let byPath = #".package(path: "../holocron")"#

    /// Every file of the app, by its path in the package.
    let files: [String: String]
    /// The code blocks that are neither a file nor the dependency by path: none, or a reader
    /// would not know where they go.
    let strays: [String]
    /// Whether the article shows the dependency by path as a line of its own to swap in.
    let showsPathForm: Bool

    init() throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent(Self.path), encoding: .utf8)
        var files: [String: String] = [:]
        var strays: [String] = []
        var showsPathForm = false
        for block in text.matches(of: /```swift\n((?s).*?)\n```/).map({ String($0.output.1) }) {
            let first = block.prefix { $0 != "\n" }
            if first.hasPrefix("// swift-tools-version") {
                files["Package.swift"] = block + "\n"
            } else if let name = first.wholeMatch(of: /\/\/ ((?:Sources|Tests)\/[\w\/.-]+\.swift)/) {
                files[String(name.output.1)] = block + "\n"
            } else if block.trimmingCharacters(in: .whitespacesAndNewlines) == "dependencies: [\(Self.byPath)]," {
                showsPathForm = true
            } else {
                strays.append(block)
            }
        }
        self.files = files
        self.strays = strays
        self.showsPathForm = showsPathForm
    }

    /// Writes the files into `folder`, the manifest depending on FlowSite through `dependency`
    /// instead of the article's URL.
    func write(into folder: URL, dependency: String) throws {
        for (path, text) in files {
            let file = folder.appendingPathComponent(path)
            let folder = file.deletingLastPathComponent()
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let isManifest = path == "Package.swift"
            let contents = isManifest ? text.replacingOccurrences(of: Self.byVersion, with: dependency) : text
            try Data(contents.utf8).write(to: file)
        }
    }
}

/// The article as a reader meets it, without building it (the adoption test builds it).
@Suite struct GettingStartedArticleTests {
    @Test func everyCodeBlockIsAWholeFileOfOnePackage() throws {
        let article = try GettingStartedArticle()
        #expect(article.strays.isEmpty, "a swift block that names no file: \(article.strays)")
        #expect(
            Set(article.files.keys) == [
                "Package.swift", "Sources/CrewApp/CrewRoute.swift", "Sources/CrewApp/CrewScreen.swift",
                "Sources/CrewApp/CrewCoordinator.swift", "Sources/crew-site/main.swift",
                "Tests/CrewAppTests/CrewFlowTests.swift", "Tests/CrewAppTests/CrewCoordinatorTests.swift"
            ])
    }

    @Test func theManifestGivesBothDependencyFormsAndExcludesTheSnapshots() throws {
        let article = try GettingStartedArticle()
        let manifest = try #require(article.files["Package.swift"])
        #expect(manifest.contains(GettingStartedArticle.byVersion))
        #expect(article.showsPathForm, "the article shows no `dependencies: [\(GettingStartedArticle.byPath)],` line")
        #expect(manifest.contains(#"exclude: ["__Snapshots__"]"#), "SwiftPM warns about the test target's snapshots")
    }

    @Test func eachFileImportsWhatItUses() throws {
        let article = try GettingStartedArticle()
        for (path, text) in article.files where path.hasSuffix(".swift") && path != "Package.swift" {
            let imports = Set(text.matches(of: /(?m)^import (\w+)/).map { String($0.output.1) })
            let flowSite =
                path.hasPrefix("Sources/CrewApp/")
                ? "FlowSite"
                : path.hasPrefix("Sources/") ? "FlowSiteCommandLine" : "FlowSiteTesting"
            #expect(imports.contains(flowSite), "\(path) imports \(imports.sorted()), not \(flowSite)")
            if path.hasPrefix("Tests/") { #expect(imports.isSuperset(of: ["CrewApp", "Testing"]), "\(path)") }
        }
    }
}
