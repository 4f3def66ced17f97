/// What to lay out: nodes and directed edges, by index.
package struct LayoutGraph: Sendable, Hashable {
    /// A box drawn around a label.
    package struct Node: Sendable, Hashable {
        /// The text inside the box; lines are separated by `"\n"`.
        package var label: String

        package init(label: String) {
            self.label = label
        }
    }

    /// A directed edge between two nodes, given by their indices in ``LayoutGraph/nodes``.
    package struct Edge: Sendable, Hashable {
        package var from: Int
        package var to: Int
        /// A short text such as `"12"`, placed next to the edge by Graphviz.
        package var label: String?

        package init(from: Int, to: Int, label: String? = nil) {
            self.from = from
            self.to = to
            self.label = label
        }
    }

    /// The direction in which edges mostly point.
    package enum Direction: Sendable, Hashable {
        /// Ranks go from left to right (Graphviz `rankdir=LR`).
        case leftToRight
        /// Ranks go from top to bottom (Graphviz `rankdir=TB`).
        case topToBottom
    }

    package var nodes: [Node]
    package var edges: [Edge]
    package var direction: Direction

    package init(nodes: [Node], edges: [Edge], direction: Direction = .leftToRight) {
        self.nodes = nodes
        self.edges = edges
        self.direction = direction
    }
}

/// Where Graphviz put everything, in SVG coordinates (points, origin top-left, y down),
/// with a margin so nothing touches the edge.
package struct LayoutResult: Sendable, Hashable {
    /// A position in points.
    package struct Point: Sendable, Hashable {
        package var x: Double
        package var y: Double

        package init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// A node's rectangle: `x` and `y` are its centre.
    package struct Box: Sendable, Hashable {
        package var x: Double
        package var y: Double
        package var width: Double
        package var height: Double

        package init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The route of one edge.
    package struct EdgePath: Sendable, Hashable {
        /// A cubic Bézier spline: the start point, then one triple of points
        /// (two control points and an end point) per segment, as in Graphviz's `pos`.
        package var points: [Point]
        /// Where the arrowhead's tip goes, when Graphviz leaves room for one
        /// after the last point of ``points``.
        package var arrowTip: Point?
        /// The centre of the edge's label, if it has one.
        package var labelCentre: Point?

        package init(points: [Point], arrowTip: Point? = nil, labelCentre: Point? = nil) {
            self.points = points
            self.arrowTip = arrowTip
            self.labelCentre = labelCentre
        }
    }

    package var width: Double
    package var height: Double
    /// One box per input node, in input order.
    package var nodes: [Box]
    /// One path per input edge, in input order.
    package var edges: [EdgePath]

    package init(width: Double, height: Double, nodes: [Box], edges: [EdgePath]) {
        self.width = width
        self.height = height
        self.nodes = nodes
        self.edges = edges
    }
}

/// A failure to lay out a graph with Graphviz.
package struct GraphvizError: Error, CustomStringConvertible, Sendable, Hashable {
    /// One sentence saying what went wrong.
    package var description: String

    package init(_ description: String) {
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
