/// What to lay out: nodes and directed edges, by index.
package struct LayoutGraph: Sendable, Hashable {
    package struct Node: Sendable, Hashable {
        /// Lines separated by `"\n"`.
        package var label: String

        package init(label: String) { self.label = label }
    }

    /// Between indices in ``LayoutGraph/nodes``.
    package struct Edge: Sendable, Hashable {
        package var from: Int
        package var to: Int
        package var label: String?
        /// A way back to a node before: drawn, but it does not rank its nodes (Graphviz `constraint=false`).
        package var isReturn: Bool

        package init(from: Int, to: Int, label: String? = nil, isReturn: Bool = false) {
            self.from = from
            self.to = to
            self.label = label
            self.isReturn = isReturn
        }
    }

    /// Graphviz `rankdir`: `LR` or `TB`.
    package enum Direction: Sendable, Hashable {
        case leftToRight
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

/// Where Graphviz put everything, in SVG coordinates (points, origin top-left, y down), with a margin.
package struct LayoutResult: Sendable, Hashable {
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

    package struct EdgePath: Sendable, Hashable {
        /// A cubic Bézier spline: the start point, then two control points and an end point per segment.
        package var points: [Point]
        /// When Graphviz leaves room for an arrowhead after the last point.
        package var arrowTip: Point?
        package var labelCentre: Point?

        package init(points: [Point], arrowTip: Point? = nil, labelCentre: Point? = nil) {
            self.points = points
            self.arrowTip = arrowTip
            self.labelCentre = labelCentre
        }
    }

    package var width: Double
    package var height: Double
    /// In input order.
    package var nodes: [Box]
    /// In input order.
    package var edges: [EdgePath]
    /// The drawing's top-left corner: the origin for a layout of its own, elsewhere for routed edges.
    package var origin: Point

    package init(width: Double, height: Double, nodes: [Box], edges: [EdgePath], origin: Point = Point(x: 0, y: 0)) {
        self.width = width
        self.height = height
        self.nodes = nodes
        self.edges = edges
        self.origin = origin
    }
}

package struct GraphvizError: Error, CustomStringConvertible, Sendable, Hashable {
    /// One sentence.
    package var description: String

    package init(_ description: String) {
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
