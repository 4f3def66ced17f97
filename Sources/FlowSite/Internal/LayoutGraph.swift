/// What to lay out: nodes and directed edges, by index.
struct LayoutGraph: Sendable, Hashable {
    /// A box drawn around a label.
    struct Node: Sendable, Hashable {
        /// The text inside the box; lines are separated by `"\n"`.
        var label: String
    }

    /// A directed edge between two nodes, given by their indices in ``LayoutGraph/nodes``.
    struct Edge: Sendable, Hashable {
        var from: Int
        var to: Int
        /// A short text such as `"12"`, placed next to the edge by Graphviz.
        var label: String?
    }

    /// The direction in which edges mostly point.
    enum Direction: Sendable, Hashable {
        /// Ranks go from left to right (Graphviz `rankdir=LR`).
        case leftToRight
        /// Ranks go from top to bottom (Graphviz `rankdir=TB`).
        case topToBottom
    }

    var nodes: [Node]
    var edges: [Edge]
    var direction: Direction = .leftToRight
}

/// Where Graphviz put everything, in SVG coordinates (points, origin top-left, y down),
/// with a margin so nothing touches the edge.
struct LayoutResult: Sendable, Hashable {
    /// A position in points.
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

    /// The route of one edge.
    struct EdgePath: Sendable, Hashable {
        /// A cubic Bézier spline: the start point, then one triple of points
        /// (two control points and an end point) per segment, as in Graphviz's `pos`.
        var points: [Point]
        /// Where the arrowhead's tip goes, when Graphviz leaves room for one
        /// after the last point of ``points``.
        var arrowTip: Point?
        /// The centre of the edge's label, if it has one.
        var labelCentre: Point?
    }

    var width: Double
    var height: Double
    /// One box per input node, in input order.
    var nodes: [Box]
    /// One path per input edge, in input order.
    var edges: [EdgePath]
    /// The top-left corner of the drawing: the origin for a layout of its own, and where the
    /// drawing begins for edges routed between boxes placed beforehand
    /// (``GraphvizLayout/route(_:at:overlapping:)``).
    var origin = Point(x: 0, y: 0)
}

/// A failure to lay out a graph with Graphviz.
struct GraphvizError: Error, CustomStringConvertible, Sendable, Hashable {
    /// One sentence saying what went wrong.
    var description: String

    init(_ description: String) {
        self.description = description
    }

    /// A Graphviz (or dynamic loader) call returned NULL or an error code.
    static func callFailed(_ call: String, detail: String? = nil) -> GraphvizError {
        let reason = detail.map { " (\($0))" } ?? ""
        return GraphvizError(
            "The Graphviz call \(call) failed\(reason); make sure Graphviz's C library and its plugins are installed (libgraphviz-dev on Debian and Ubuntu, graphviz on Homebrew)."
        )
    }

    /// Graphviz finished but left out an attribute that a finished `dot` layout always has.
    static func missingAttribute(_ name: String, of object: String) -> GraphvizError {
        GraphvizError("Graphviz gave no usable \"\(name)\" attribute for \(object) after laying out the graph.")
    }
}
