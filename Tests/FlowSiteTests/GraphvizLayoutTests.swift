import FlowMapLayout
import Testing

@testable import FlowSite

#if canImport(Glibc)
import Glibc
#endif

/// A → B → C, left to right, with one edge label.
private let chain = LayoutGraph(
    nodes: [.init(label: "Alpha"), .init(label: "Beta\nsecond line"), .init(label: "Gamma")],
    edges: [.init(from: 0, to: 1, label: "12"), .init(from: 1, to: 2)],
    direction: .leftToRight
)

/// Every point of `result` lies inside its width and height.
private func allInside(_ result: LayoutResult) -> Bool {
    func inside(_ x: Double, _ y: Double) -> Bool {
        x >= 0 && y >= 0 && x <= result.width && y <= result.height
    }
    let boxes = result.nodes.allSatisfy { box in
        inside(box.x - box.width / 2, box.y - box.height / 2) && inside(box.x + box.width / 2, box.y + box.height / 2)
    }
    let edges = result.edges.allSatisfy { edge in
        let points = edge.points + [edge.arrowTip, edge.labelCentre].compactMap { $0 }
        return points.allSatisfy { inside($0.x, $0.y) }
    }
    return boxes && edges
}

@Test func threeNodesGiveThreeBoxesAndTwoPaths() throws {
    let result = try GraphvizLayout.layout(chain)
    #expect(result.nodes.count == 3)
    #expect(result.edges.count == 2)
    #expect(result.edges.allSatisfy { $0.points.count >= 4 })
    #expect(result.edges.allSatisfy { $0.arrowTip != nil })
    #expect(result.edges[0].labelCentre != nil)
    #expect(result.edges[1].labelCentre == nil)
    #expect(result.width > 0 && result.height > 0)
    #expect(allInside(result))
    // Left to right: each node is further right than the one before.
    #expect(result.nodes[0].x < result.nodes[1].x && result.nodes[1].x < result.nodes[2].x)
    // The two-line label makes a taller box.
    #expect(result.nodes[1].height > result.nodes[0].height)
}

@Test func topToBottomStacksNodes() throws {
    var graph = chain
    graph.direction = .topToBottom
    let result = try GraphvizLayout.layout(graph)
    #expect(result.nodes[0].y < result.nodes[1].y && result.nodes[1].y < result.nodes[2].y)
    #expect(allInside(result))
}

@Test func sameGraphGivesSameResult() throws {
    let first = try GraphvizLayout.layout(chain)
    let second = try GraphvizLayout.layout(chain)
    #expect(first == second)
}

@Test func awkwardLabelsLayOut() throws {
    let label = "Padmé \"Queen\" \\ Amidala\nNaboo"
    let graph = LayoutGraph(
        nodes: [
            .init(label: label), .init(label: "ends with a backslash \\"), .init(label: "\\N \\G <b>html?</b> {x|y}")
        ],
        edges: [.init(from: 0, to: 1, label: label), .init(from: 1, to: 2, label: "\"")],
        direction: .topToBottom
    )
    let result = try GraphvizLayout.layout(graph)
    #expect(result.nodes.count == 3)
    #expect(result.edges.count == 2)
    #expect(allInside(result))
    // Two lines of text make a box taller than a one-line one.
    #expect(result.nodes[0].height > result.nodes[1].height)
}

@Test func labelEscaping() {
    #expect(GraphvizLayout.escapedLabel("a\\b\nc\r\nd\re\"f") == "a\\\\b\\nc\\nd\\ne\"f")
}

@Test func parallelEdgesGetTheirOwnPaths() throws {
    let graph = LayoutGraph(
        nodes: [.init(label: "From"), .init(label: "To")],
        edges: [.init(from: 0, to: 1, label: "1"), .init(from: 0, to: 1, label: "2"), .init(from: 0, to: 1)],
        direction: .leftToRight
    )
    let result = try GraphvizLayout.layout(graph)
    #expect(result.edges.count == 3)
    #expect(Set(result.edges.map(\.points)).count == 3)
    #expect(result.edges[0].labelCentre != result.edges[1].labelCentre)
    #expect(allInside(result))
}

@Test func concurrentLayoutsAgree() async throws {
    let expected = try GraphvizLayout.layout(chain)
    let results = try await withThrowingTaskGroup(of: LayoutResult.self) { group in
        for _ in 0..<8 {
            group.addTask { try GraphvizLayout.layout(chain) }
        }
        return try await group.reduce(into: []) { $0.append($1) }
    }
    #expect(results.count == 8)
    #expect(results.allSatisfy { $0 == expected })
}

@Test func singleNodeWithoutEdges() throws {
    let result = try GraphvizLayout.layout(
        LayoutGraph(nodes: [.init(label: "Alone")], edges: [], direction: .topToBottom))
    #expect(result.nodes.count == 1)
    #expect(result.edges.isEmpty)
    #expect(allInside(result))
    let box = result.nodes[0]
    // The drawing is the box plus the margin on each side.
    #expect(result.width == box.width + 2 * GraphvizLayout.margin)
    #expect(result.height == box.height + 2 * GraphvizLayout.margin)
}

@Test func emptyGraph() throws {
    let result = try GraphvizLayout.layout(LayoutGraph(nodes: [], edges: [], direction: .leftToRight))
    #expect(result.nodes.isEmpty && result.edges.isEmpty)
}

@Test func selfLoop() throws {
    let result = try GraphvizLayout.layout(
        LayoutGraph(nodes: [.init(label: "Loop")], edges: [.init(from: 0, to: 0, label: "again")]))
    #expect(result.edges.count == 1)
    #expect(result.edges[0].points.count >= 4)
    #expect(allInside(result))
}

@Test func edgeToMissingNodeThrows() {
    let graph = LayoutGraph(nodes: [.init(label: "Only")], edges: [.init(from: 0, to: 1)])
    #expect(throws: GraphvizError.self) { try GraphvizLayout.layout(graph) }
}

@Test func pangoIsNeverLoaded() throws {
    _ = try GraphvizLayout.layout(chain)
    let maps = try #require(readWholeFile("/proc/self/maps"))
    let lines = maps.split(separator: "\n")
    #expect(!lines.contains { $0.lowercased().contains("pango") })
    // The plugins we asked for are loaded, so the check above is meaningful.
    #expect(lines.contains { $0.contains("libgvplugin_dot_layout") })
    #expect(lines.contains { $0.contains("libgvplugin_core") })
}

/// Text is measured with Graphviz's built-in Helvetica metrics, so a label's box
/// size is fixed by its characters alone.
@Test func textSizeComesFromBuiltInMetrics() throws {
    let result = try GraphvizLayout.layout(LayoutGraph(nodes: [.init(label: "Hello, world")], edges: []))
    print("Box for \"Hello, world\":", result.nodes[0])
    #expect(result.nodes[0].width > 72)
}

/// Reads a file to its end with read(2). Foundation's String(contentsOfFile:)
/// stops after about 4 KB for /proc files, whose reported size is 0.
private func readWholeFile(_ path: String) -> String? {
    let descriptor = open(path, O_RDONLY)
    guard descriptor >= 0 else { return nil }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 { return nil }
        if count == 0 { break }
        bytes += chunk[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}
