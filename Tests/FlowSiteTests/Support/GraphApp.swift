import Foundation

@testable import FlowSite

/// A route named by its path: `"a/b"` lives at `a/b/index.html`, `""` is the root.
struct Node: Route, ExpressibleByStringLiteral, CustomStringConvertible, Comparable {
    let name: String
    init(_ name: String) { self.name = name }
    init(stringLiteral value: String) { self.init(value) }
    var path: RoutePath { RoutePath(name.split(separator: "/").map { Slug(String($0)) }) }
    var description: String { name.isEmpty ? "root" : name }
    static func < (a: Node, b: Node) -> Bool { a.name < b.name }
}

struct GraphError: Error, CustomStringConvertible {
    let description: String
}

/// A test app described as data: which node links to which, how each is presented, which fail.
struct GraphCoordinator: RootCoordinator {
    var links: [Node: [Node]]
    var presentations: [Node: Presentation] = [:]
    var failing: Set<Node> = []
    var recoverFailures = false
    var titles: [Node: String] = [:]
    var navigation: [NavigationAction<Node>] = []
    var startRoute: Node = ""
    var search: SiteSearch<Node>? = nil
    /// The pages of one paginated list, in order: each shows them all as its pagination.
    var paginated: [Node] = []
    var summaries: [Node: String] = [:]
    /// Files a node's page writes beside it.
    var files: [Node: [String: Data]] = [:]
    var labels: [String: String] = [:]
    /// The words before each target's name in a node's links ("to a" by default).
    var linkWords: [Node: String] = [:]
    var journeys: [Journey<Node>] = []
    var language = "en"
    var fallbackLanguage: String?
    /// Nodes whose page shows a text in the fallback language (``StringTable/shownInFallbackLanguage(_:)``).
    var untranslated: Set<Node> = []

    var siteInfo: SiteInfo<Node> {
        var info = SiteInfo(
            name: "Graph", language: language, footer: "graph footer", navigation: navigation, labels: labels)
        info.fallbackLanguage = fallbackLanguage
        return info
    }

    /// The input key of a node's own data (its title, links and the rest), for builds that
    /// replay pages from memory.
    static func inputKey(_ node: Node) -> InputKey {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in node.name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return InputKey(table: 0, id: Int(hash & 0xFF_FFFF_FFFF))
    }

    func makeScreen(for route: Node) async throws -> any Screen<Node> {
        InputKey.read(Self.inputKey(route))
        if failing.contains(route) { throw GraphError(description: "no data for \(route)") }
        if untranslated.contains(route) { StringTable.shownInFallbackLanguage("Page \(route)") }
        let pages = paginated
        var pagination: (count: Int, current: Int, page: @Sendable (Int) -> NavigationAction<Node>)?
        if let index = paginated.firstIndex(of: route) {
            let page: @Sendable (Int) -> NavigationAction<Node> = { NavigationAction("\($0)", to: pages[$0 - 1]) }
            pagination = (pages.count, index + 1, page)
        }
        return GraphScreen(
            node: route, title: titles[route] ?? route.description, targets: links[route] ?? [],
            summary: summaries[route], pagination: pagination, files: files[route] ?? [:],
            linkWords: linkWords[route] ?? "to"
        )
    }

    func presentation(of route: Node, from source: Node) -> Presentation {
        presentations[route] ?? .push
    }

    func errorScreen(for route: Node, error: any Error) -> (any Screen<Node>)? {
        recoverFailures ? GraphScreen(node: route, title: "Error", targets: [startRoute]) : nil
    }
}

struct GraphScreen: Screen {
    let node: Node
    let title: String
    let targets: [Node]
    var summary: String? = nil
    var pagination: (count: Int, current: Int, page: @Sendable (Int) -> NavigationAction<Node>)? = nil
    var files: [String: Data] = [:]
    var linkWords = "to"

    func makePage() async throws -> Page<Node> {
        var document = MarkdownDocument<Node>()
        document.paragraph(.text("Page \(node)"))
        document.list(targets.map { [.link("\(linkWords) \($0)", to: $0)] })
        return Page(title: title, summary: summary, document: document, files: files, pagination: pagination)
    }
}

/// A fresh temporary folder, removed by the caller.
func temporaryFolder(_ name: String = #function) throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("holocron-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

extension Node: StorableRoute {
    var storedName: String { name }
    init?(storedName: String) { self.init(storedName) }
}

extension GraphCoordinator {
    /// The fingerprint of every node's own data (see ``inputKey(_:)``), for builds that keep a
    /// journal and make again only the pages an edit reaches.
    var inputFingerprints: InputFingerprints {
        var nodes: Set<Node> = [startRoute]
        nodes.formUnion(links.keys)
        nodes.formUnion(links.values.joined())
        nodes.formUnion(titles.keys)
        nodes.formUnion(summaries.keys)
        nodes.formUnion(files.keys)
        nodes.formUnion(failing)
        nodes.formUnion(paginated)
        nodes.formUnion(untranslated)
        nodes.formUnion(linkWords.keys)
        return InputFingerprints(
            nodes.map { node in
                var hash = Hasher()
                hash.combine(titles[node])
                hash.combine(links[node])
                hash.combine(summaries[node])
                hash.combine(linkWords[node])
                hash.combine(failing.contains(node))
                hash.combine(untranslated.contains(node))
                hash.combine(
                    files[node].map {
                        $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.base64EncodedString())" }
                    })
                // Hasher is seeded per process; the journal is read back in the same test process.
                return (Self.inputKey(node), UInt64(bitPattern: Int64(hash.finalize())))
            })
    }
}
