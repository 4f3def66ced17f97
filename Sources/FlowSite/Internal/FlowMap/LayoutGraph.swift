/// What to lay out: nodes and directed edges, by index.
struct LayoutGraph: Sendable, Hashable {
    struct Node: Sendable, Hashable {
        /// Lines separated by `"\n"`.
        var label: String
    }

    /// Between indices in ``LayoutGraph/nodes``.
    struct Edge: Sendable, Hashable {
        var from: Int
        var to: Int
        var label: String?
    }

    /// Graphviz `rankdir`: `LR` or `TB`.
    enum Direction: Sendable, Hashable {
        case leftToRight
        case topToBottom
    }

    var nodes: [Node]
    var edges: [Edge]
    var direction: Direction = .leftToRight
}

/// Where Graphviz put everything, in SVG coordinates (points, origin top-left, y down), with a margin.
struct LayoutResult: Sendable, Hashable {
    struct Point: Sendable, Hashable {
        var x: Double
        var y: Double
    }

    /// A node's rectangle: `x` and `y` are its centre.
    struct Box: Sendable, Hashable {
        var x: Double
        var y: Double
        var width: Double
        var height: Double
    }

    struct EdgePath: Sendable, Hashable {
        /// A cubic Bézier spline: the start point, then two control points and an end point per segment.
        var points: [Point]
        /// When Graphviz leaves room for an arrowhead after the last point.
        var arrowTip: Point?
        var labelCentre: Point?
    }

    var width: Double
    var height: Double
    /// In input order.
    var nodes: [Box]
    /// In input order.
    var edges: [EdgePath]
    /// The drawing's top-left corner: the origin for a layout of its own, elsewhere for routed edges.
    var origin = Point(x: 0, y: 0)
}

struct GraphvizError: Error, CustomStringConvertible, Sendable, Hashable {
    /// One sentence.
    var description: String

    init(_ description: String) {
        self.description = description
    }

    /// A Graphviz (or dynamic loader) call returned NULL or an error code.
    static func callFailed(_ call: String, detail: String? = nil) -> GraphvizError {
        let reason = detail.map { " (\($0))" } ?? ""
        return GraphvizError(
            """
            The Graphviz call \(call) failed\(reason); make sure Graphviz's C library and its plugins are installed \
            (libgraphviz-dev on Debian and Ubuntu, graphviz on Homebrew).
            """
        )
    }

    /// An attribute a finished `dot` layout always has is missing.
    static func missingAttribute(_ name: String, of object: String) -> GraphvizError {
        GraphvizError("Graphviz gave no usable \"\(name)\" attribute for \(object) after laying out the graph.")
    }
}
