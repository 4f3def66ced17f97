import Foundation
import Testing

@testable import FlowSite

@Suite struct GraphExportTests {
    /// Home links to a list, which links back and to an item twice; About is a modal; the item's
    /// title holds every character the formats must escape.
    static let app = GraphCoordinator(
        links: ["": ["list", "about", "list"], "list": ["", "list/item"], "list/item": ["about", "list"]],
        presentations: ["about": .modal],
        titles: ["": "Home", "list": "List", "list/item": #"Say "hi" \ <b>|#1</b>"#, "about": "About"]
    )

    func graph(_ app: GraphCoordinator = Self.app) async throws -> SiteGraph<Node> {
        try await SiteWalker(coordinator: app).walk { _ in }
    }

    @Test func dotHasEveryPageOnceAndEachLinkOnce() async throws {
        let dot = try await graph().export(.dot)
        #expect(dot.hasPrefix("digraph site {\n") && dot.hasSuffix("}\n"))
        let nodes = dot.split(separator: "\n").filter { $0.contains("[label=") && !$0.contains("->") }
        #expect(nodes.count == 4)
        // Home links to the list twice: one edge.
        #expect(dot.components(separatedBy: #""/" -> "/list/""#).count == 2)
        #expect(dot.contains(#""/" -> "/about/" [label="to about", style=dashed];"#))
        #expect(dot.contains(#""/list/item/" [label="Say \"hi\" \\ <b>|#1</b>\n/list/item/"];"#))
    }

    @Test func mermaidEscapesLabelsAndDrawsModalsDotted() async throws {
        let mermaid = try await graph().export(.mermaid)
        #expect(mermaid.hasPrefix("flowchart LR\n"))
        #expect(mermaid.contains(#"p0 -.->|"to about"| p2"#))
        #expect(mermaid.contains(#"["Say #quot;hi#quot; \ #lt;b#gt;#124;#35;1#lt;/b#gt;<br/>/list/item/"]"#))
        // Outside the one <br/> per node, no angle bracket or quote comes from a title.
        let item = mermaid.split(separator: "\n").first { $0.contains("Say") }!
        #expect(item.filter { $0 == "<" }.count == 1 && item.filter { $0 == "\"" }.count == 2)
    }

    @Test func jsonListsPagesWithStacksAndDistinctEdges() async throws {
        let graph = try await graph()
        let object = try JSONSerialization.jsonObject(with: Data(graph.export(.json).utf8)) as! [String: Any]
        let pages = object["pages"] as! [[String: Any]]
        let edges = object["edges"] as! [[String: Any]]
        #expect(pages.map { $0["path"] as! String } == ["/", "/list/", "/about/", "/list/item/"])
        let item = pages.first { $0["path"] as? String == "/list/item/" }!
        #expect(item["title"] as? String == #"Say "hi" \ <b>|#1</b>"#)
        #expect(item["stack"] as? [String] == ["/", "/list/", "/list/item/"])
        #expect(pages.first { $0["path"] as? String == "/about/" }?["presentation"] as? String == "modal")
        #expect(graph.edges.count == 7)
        #expect(edges.count == 6 && graph.distinctEdgeCount == 6)
    }

    @Test func failedScreensAreMarkedAndTheExportIsStable() async throws {
        var app = Self.app
        app.failing = ["list/item"]
        let first = try await graph(app)
        #expect(first.export(.dot).contains(#""/list/item/" [label="list/item\n/list/item/", color=red];"#))
        #expect(throws: FlowSiteError.self) { try first.requireNoFailures() }
        let json = try JSONSerialization.jsonObject(with: Data(first.export(.json).utf8)) as! [String: Any]
        let failed = (json["pages"] as! [[String: Any]]).first { $0["path"] as? String == "/list/item/" }!
        #expect((failed["failure"] as? String)?.contains("no data for list/item") == true)
        for format in GraphFormat.allCases {
            #expect(try await graph(app).export(format) == first.export(format))
        }
    }
}

/// The page graph names each page by its full title, not the short one its breadcrumb shows (issue 63, item 4).
@Suite struct PageGraphTitleTests {
    struct Feeds: RootCoordinator {
        var startRoute: Node { "" }
        var siteInfo: SiteInfo<Node> { SiteInfo(name: "Feeds") }
        func makeScreen(for route: Node) async throws -> any Screen<Node> {
            var document = MarkdownDocument<Node>()
            if route == "" { document.list([[.link("Build server", to: "a")], [.link("Home alarm", to: "b")]]) }
            let title = route == "" ? "Feeds" : "\(route == "a" ? "Build server" : "Home alarm") notifications"
            return Fixed(page: Page(title: title, shortTitle: route == "" ? nil : "Notifications", document: document))
        }
    }

    struct Fixed: Screen {
        let page: Page<Node>
        func makePage() async throws -> Page<Node> { page }
    }

    @Test func pagesAreToldApartByTheirFullTitles() async throws {
        let graph = try await SiteWalker(coordinator: Feeds()).walk { _ in }
        let dot = graph.export(.dot)
        #expect(dot.contains(#"[label="Build server notifications\n/a/"]"#), "\(dot)")
        #expect(dot.contains(#"[label="Home alarm notifications\n/b/"]"#))
        #expect(graph.export(.mermaid).contains("Build server notifications"))
    }
}
