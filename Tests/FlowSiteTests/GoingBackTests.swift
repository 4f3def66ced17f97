import FlowSiteTesting
import Foundation
import Testing

@testable import FlowSite

/// A notes app whose editor's Done pops to the list and whose share dialog's Cancel dismisses it: going back is
/// a presentation of its own, drawn as a return (issue 63, item 2).
enum Notebook: Route {
    case home, notes, edit, share

    var path: RoutePath {
        switch self {
        case .home: .root
        case .notes: ["notes"]
        case .edit: ["notes", "edit"]
        case .share: ["notes", "share"]
        }
    }

    var screenKind: ScreenKind {
        switch self {
        case .home: ScreenKind("home", name: "Home")
        case .notes: ScreenKind("notes", name: "Notes")
        case .edit: ScreenKind("edit", name: "Editor")
        case .share: ScreenKind("share", name: "Share")
        }
    }
}

struct NotebookApp: RootCoordinator {
    var startRoute: Notebook { .home }
    var siteInfo: SiteInfo<Notebook> { SiteInfo(name: "Notebook") }

    func makeScreen(for route: Notebook) async throws -> any Screen<Notebook> {
        var document = MarkdownDocument<Notebook>()
        let title: String
        switch route {
        case .home:
            title = "Notebook"
            document.paragraph(.link("Your notes", to: .notes))
        case .notes:
            title = "Notes"
            document.list([[.link("Edit", to: .edit)], [.link("Share", to: .share)]])
        case .edit:
            title = "Edit note"
            document.paragraph(.link("Done", to: .notes))
        case .share:
            title = "Share"
            document.paragraph(.link("Cancel", to: .notes))
        }
        return NotebookScreen(page: Page(title: title, document: document))
    }

    func presentation(of route: Notebook, from source: Notebook) -> Presentation {
        switch (source, route) {
        case (.edit, .notes), (.share, .notes): .back
        case (_, .share): .modal
        default: .push
        }
    }
}

struct NotebookScreen: Screen {
    let page: Page<Notebook>
    func makePage() async throws -> Page<Notebook> { page }
}

@Suite struct GoingBackTests {
    @Test func goingBackLeadsToThePageBelowAndKeepsItsTrail() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("back-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = try await SiteBuilder(coordinator: NotebookApp()).build(into: folder)
        #expect(report.pages == 4)
        func page(_ path: String) throws -> String {
            try String(contentsOf: folder.appendingPathComponent(path + "index.html"), encoding: .utf8)
        }
        // Done and Cancel lead to the notes page the reader came from.
        // Marked as going back, and the script that goes back in history comes with them.
        #expect(try page("notes/edit/").contains(#"<a href="../index.html" class="back">Done</a>"#))
        #expect(try page("notes/share/").contains(#"<a href="../index.html" class="back">Cancel</a>"#))
        #expect(try page("notes/edit/").contains(#"<script src="../../assets/back.js" data-root="../../" defer>"#))
        #expect(!(try page("notes/")).contains("back.js"))
        // A trail through a page between says it is one way here; a page right below the start page has no other.
        #expect(try page("notes/edit/").contains(#"<span class="trail-lead">One way here:</span>"#))
        #expect(!(try page("notes/")).contains("trail-lead"))
        // The notes page keeps the trail it was pushed with: going back starts none.
        let notes = try page("notes/")
        #expect(notes.contains(#"<a href="../index.html">Notebook</a>"#))
        let flow = try #require(report.flow)
        let returns = flow.transitions.filter { $0.presentation == .back }
        #expect(Set(returns.map { "\($0.from)→\($0.to)" }) == ["edit→notes", "share→notes"])
        #expect(!flow.transitions.contains { $0.presentation == .root && $0.to == "notes" })
        // The map draws returns apart from new trails, and its legend says what they are.
        let map = try page("flow/")
        #expect(map.contains(#"class="transition back"#))
        #expect(map.contains("back: returns to a page below"))
        #expect(!map.contains(#"class="transition root"#), "nothing in this app starts a new trail")
        // The whole map has no neighbour boxes; a kind's view explains its dashed ones in its legend.
        #expect(!map.contains(#"<li class="neighbour">"#))
        let views = try FileManager.default.subpathsOfDirectory(atPath: folder.appendingPathComponent("flow").path)
            .filter { $0.hasSuffix("index.html") && $0 != "index.html" }
        let explained = try views.filter {
            try String(contentsOf: folder.appendingPathComponent("flow/" + $0), encoding: .utf8)
                .contains(#"<li class="neighbour">"#)
        }
        #expect(!explained.isEmpty, "\(views)")
    }

    @Test func theStackAfterGoingBackPopsToTheRoute() {
        #expect(Presentation.back.stack(presenting: 2, over: [1, 2, 3, 4]) == [1, 2])
        #expect(Presentation.back.stack(presenting: 9, over: [1, 2, 3]) == [1, 2], "not below: pops one")
        let navigator = RecordingNavigator<Notebook>(stack: [.home, .notes, .edit])
        navigator.show(.notes, as: .back)
        #expect(navigator.stack == [.home, .notes])
    }

    @Test func exportsDrawAReturnWithoutRankingIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("back-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let flow = try #require(try await SiteBuilder(coordinator: NotebookApp()).build(into: folder).flow)
        #expect(flow.dot().contains("arrowhead=dot, constraint=false"))
        #expect(flow.mermaid().contains("--o"))
    }
}
