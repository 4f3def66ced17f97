import Foundation
import PropertyBased
import Testing

@testable import FlowSite

/// An app made of a generated graph: page `n` links to the pages its list names, in order.
enum GraphNode: Route {
    case node(Int)
    var path: RoutePath {
        guard case .node(let number) = self, number > 0 else { return .root }
        return ["n", Slug("\(number)")]
    }
}

struct GraphApp: RootCoordinator {
    let links: [[Int]]
    var startRoute: GraphNode { .node(0) }
    var siteInfo: SiteInfo<GraphNode> { SiteInfo(name: "Graph") }
    func makeScreen(for route: GraphNode) async throws -> any Screen<GraphNode> {
        guard case .node(let number) = route else { fatalError() }
        var document = MarkdownDocument<GraphNode>()
        document.list(links[number].map { [.link("To \($0)", to: .node($0))] })
        return NodeScreen(page: Page(title: "Node \(number)", document: document))
    }
    func presentation(of route: GraphNode, from source: GraphNode) -> Presentation { .push }
}

struct NodeScreen: Screen {
    let page: Page<GraphNode>
    func makePage() async throws -> Page<GraphNode> { page }
}

@Suite struct ShortestPathTests {
    /// Distances from `start` by a breadth-first search over the exported page graph's JSON edges alone.
    static func distances(fromJSON json: String, start: String) throws -> [String: Int] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let edges = try #require(document["edges"] as? [[String: Any]]).map {
            ($0["from"] as! String, $0["to"] as! String)
        }
        var distance = [start: 0]
        var queue = [start]
        while !queue.isEmpty {
            let page = queue.removeFirst()
            for (from, to) in edges where from == page && distance[to] == nil {
                distance[to] = distance[page]! + 1
                queue.append(to)
            }
        }
        return distance
    }

    /// Over generated graphs, the shortest way from the start to every page is as long as a breadth-first search
    /// over the exported route graph finds, each of its steps is a link of that graph, and asking again gives the
    /// same way.
    @Test func theShortestWayIsTheExportedGraphsBreadthFirstDistance() async throws {
        await propertyCheck(count: 200, input: Gen.int(in: 0...9).array(of: 0...3).array(of: 1...10)) { lists in
            let links = lists.map { $0.map { $0 % lists.count } }
            let graph = try await SiteWalker(coordinator: GraphApp(links: links)).walk { _ in }
            let json = graph.export(.json)
            let expected = try Self.distances(fromJSON: json, start: "/")
            let document = try JSONSerialization.jsonObject(with: Data(json.utf8)) as! [String: Any]
            let edges = Set(
                (document["edges"] as! [[String: Any]]).map { "\($0["from"] as! String) \($0["to"] as! String)" })
            let start = try #require(graph.pages(named: "/"))
            for node in links.indices {
                let path = GraphNode.node(node).path.description
                let target = graph.pages(named: path)
                #expect((target != nil) == (expected[path] != nil), "\(links): \(path)")
                guard let target else { continue }
                let way = try #require(graph.shortestPath(from: start, to: target))
                #expect(way.taps == expected[path], "\(links): \(path)")
                #expect(way.steps.first?.path == "/" && way.steps.last?.path == path)
                for (from, to) in zip(way.steps, way.steps.dropFirst()) {
                    #expect(edges.contains("\(from.path) \(to.path)"), "\(links): \(from.path) → \(to.path)")
                }
                #expect(graph.shortestPath(from: start, to: target) == way)
            }
        }
    }

    /// A kind names all its pages: the way goes to the nearest; a page with no way there has none.
    @Test func aKindLeadsToItsNearestPageAndNoLinkMeansNoWay() async throws {
        let graph = try await SiteWalker(coordinator: GraphApp(links: [[2], [], [1]])).walk { _ in }
        let way = try #require(graph.shortestPath(from: graph.pages(named: "/")!, to: graph.pages(named: "/n/1/")!))
        #expect(way.text == "Node 0 (/)\n  → 'To 2' (push) → Node 2 (/n/2/)\n  → 'To 1' (push) → Node 1 (/n/1/)")
        #expect(way.json.contains(#""taps" : 2"#))
        #expect(graph.shortestPath(from: graph.pages(named: "/n/1/")!, to: graph.pages(named: "/")!) == nil)
        #expect(graph.pages(named: "node") != nil && graph.pages(named: "nowhere") == nil)
    }
}

extension ShortestPathTests {
    /// The tab bar is on every page but a dialog: from an item, the shortest way to the Sign in tab is the tab,
    /// taken from the item, not the start page's link.
    @Test func aTabIsAWayFromEveryPageButADialog() async throws {
        let graph = try await SiteWalker(coordinator: ReaderApp()).walk { _ in }
        let way = try #require(
            graph.shortestPath(from: graph.pages(named: "/items/1/")!, to: graph.pages(named: "/sign-in/")!))
        #expect(way.steps.map(\.path) == ["/items/1/", "/sign-in/"])
        #expect(way.steps.last?.label == "Sign in" && way.steps.last?.presentation == "root")
        // The item's own link opens the dialog's copy of the page, which the way names as such.
        let dialog = try #require(
            graph.shortestPath(from: graph.pages(named: "/items/1/")!, to: graph.pages(named: "/sign-in/dialog/")!))
        #expect(
            dialog.steps.map(\.path) == ["/items/1/", "/sign-in/dialog/"]
                && dialog.steps.last?.label == "Sign in to like")
        // A dialog has no tab bar: from Help, the Sign in tab is no way.
        #expect(graph.shortestPath(from: graph.pages(named: "/help/")!, to: graph.pages(named: "/sign-in/")!) == nil)
    }
}
