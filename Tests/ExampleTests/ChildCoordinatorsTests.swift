import Foundation
import TestSupport
import Testing

/// The child coordinators example, used as a reader would use it: the "Coordinators and navigation" article shows
/// the whole of its `main.swift`, and running it builds a site whose pages show each route's owner at work.
@Suite struct ChildCoordinatorsTests {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let article = "Sources/FlowSite/FlowSite.docc/CoordinatorsAndNavigation.md"
    static let example = "Examples/ChildCoordinators/main.swift"

    @Test func theArticlesChildCoordinatorsBlockIsTheExample() throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent(Self.article), encoding: .utf8)
        let section = try #require(
            text.range(of: "\n### Child coordinators\n"), "the article has no 'Child coordinators' section")
        let next = text.range(of: "\n### ", range: section.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        let blocks = text[section.upperBound..<next].matches(of: /```swift\n((?s).*?)\n```/)
        #expect(blocks.count == 1, "the section shows the example as one swift block, and no other")
        let program = try #require(blocks.first).output.1 + "\n"
        let example = try String(contentsOf: Self.repository.appendingPathComponent(Self.example), encoding: .utf8)
        #expect(program == example, "copy \(Self.example) into the article's 'Child coordinators' block")
        #expect(example.filter { $0 == "\n" }.count <= 175, "the example is meant to be read whole")
    }

    /// The Journeys section's code is the example's own, and the example's journey is taken to its end.
    @Test func theArticlesJourneyIsTheExamplesAndHolds() throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent(Self.article), encoding: .utf8)
        let section = try #require(text.range(of: "\n### Journeys\n"), "the article has no 'Journeys' section")
        let next = text.range(of: "\n### ", range: section.upperBound..<text.endIndex)?.lowerBound ?? text.endIndex
        let block = try #require(text[section.upperBound..<next].firstMatch(of: /```swift\n((?s).*?)\n```/)).output.1
        let example = try String(contentsOf: Self.repository.appendingPathComponent(Self.example), encoding: .utf8)
        #expect(example.contains(block + "\n"), "copy the example's journeys into the article's 'Journeys' block")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("journey-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, stdout) = try Executables.run("child-coordinators", [folder.appendingPathComponent("site").path])
        #expect(status == 0 && !stdout.contains("journey-broken"), "\(stdout)")
    }

    @Test func runningTheExampleBuildsASiteWhereEachChildPresentsItsOwnRoutes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("children-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let (status, stdout) = try Executables.run("child-coordinators", [folder.appendingPathComponent("site").path])
        #expect(status == 0)
        #expect(stdout.hasPrefix("Built 7 pages"), "\(stdout)")
        let site = folder.appendingPathComponent("site")
        func page(_ path: String) throws -> String {
            try String(contentsOf: site.appendingPathComponent("\(path)index.html"), encoding: .utf8)
        }
        // The root's own page links into both children.
        let home = try page("")
        #expect(
            Self.links(home, "Books", to: "books/index.html") && Self.links(home, "Account", to: "account/index.html"))
        // The Catalog child's pages: the list, and a book pushed over it that links to its sequel.
        #expect(Self.links(try page("books/"), "A Wizard of Earthsea", to: "1/index.html"))
        let book = try page("books/1/")
        #expect(book.contains("<title>A Wizard of Earthsea"))
        #expect(book.contains(#"<li><a href="../index.html">Books</a></li>"#), "the book is pushed over Books")
        #expect(Self.links(book, "Read the sequel", to: "../2/index.html"))
        // A Catalog page's link to sign-in, presented by the Account child that owns it.
        #expect(Self.links(book, "Sign in to borrow it", to: "../../sign-in/index.html"))
        let signIn = try page("sign-in/")
        #expect(signIn.contains(#"<div class="dialog">"#), "sign-in is a dialog")
        #expect(signIn.contains(#"href="../account/index.html""#), "sign-in is presented over Account first")
        // An Account page's link to a book, pushed by the Catalog child.
        let loans = try page("account/loans/")
        #expect(Self.links(loans, "The Tombs of Atuan", to: "../../books/2/index.html"))
        #expect(!loans.contains(#"<div class="dialog">"#), "only sign-in is a dialog")
        // The flow map's Book kind: how each owner presented what the links on other owners' pages lead to.
        let flow = try page("flow/book/")
        for (from, to, presentation) in [
            (#"href="index.html">Book"#, #"href="index.html">Book"#, "replace"),
            (#"href="index.html">Book"#, #"href="../sign-in/index.html">Sign in"#, "modal"),
            (#"href="../loans/index.html">Loans"#, #"href="index.html">Book"#, "push")
        ] {
            let row = "<tr><td><a \(from)</a></td><td><a \(to)</a></td><td>\(presentation):"
            #expect(flow.contains(row), "no \(presentation) transition \(from) → \(to) on the flow map")
        }
    }

    /// Whether `html` has a link to `href` whose text starts with `label`, whatever else the link carries.
    static func links(_ html: String, _ label: String, to href: String) -> Bool {
        html.components(separatedBy: #"<a href=""# + href + #"""#).dropFirst().contains { rest in
            rest.drop { $0 != ">" }.dropFirst().hasPrefix(label)
        }
    }
}
