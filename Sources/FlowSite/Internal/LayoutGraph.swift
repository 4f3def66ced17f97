/// What to lay out: nodes and directed edges, by index.
@_spi(Engine) public struct LayoutGraph: Sendable, Hashable {
    /// A box drawn around a label.
    @_spi(Engine) public struct Node: Sendable, Hashable {
        /// The text inside the box; lines are separated by `"\n"`.
        @_spi(Engine) public var label: String

        @_spi(Engine) public init(label: String) {
            self.label = label
        }
    }

    /// A directed edge between two nodes, given by their indices in ``LayoutGraph/nodes``.
    @_spi(Engine) public struct Edge: Sendable, Hashable {
        @_spi(Engine) public var from: Int
        @_spi(Engine) public var to: Int
        /// A short text such as `"12"`, placed next to the edge by Graphviz.
        @_spi(Engine) public var label: String?

        @_spi(Engine) public init(from: Int, to: Int, label: String? = nil) {
            self.from = from
            self.to = to
            self.label = label
        }
    }

    /// The direction in which edges mostly point.
    @_spi(Engine) public enum Direction: Sendable, Hashable {
        /// Ranks go from left to right (Graphviz `rankdir=LR`).
        case leftToRight
        /// Ranks go from top to bottom (Graphviz `rankdir=TB`).
        case topToBottom
    }

    @_spi(Engine) public var nodes: [Node]
    @_spi(Engine) public var edges: [Edge]
    @_spi(Engine) public var direction: Direction

    @_spi(Engine) public init(nodes: [Node], edges: [Edge], direction: Direction = .leftToRight) {
        self.nodes = nodes
        self.edges = edges
        self.direction = direction
    }
}

/// Where Graphviz put everything, in SVG coordinates (points, origin top-left, y down),
/// with a margin so nothing touches the edge.
@_spi(Engine) public struct LayoutResult: Sendable, Hashable {
    /// A position in points.
    @_spi(Engine) public struct Point: Sendable, Hashable {
        @_spi(Engine) public var x: Double
        @_spi(Engine) public var y: Double

        @_spi(Engine) public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// A node's rectangle: `x` and `y` are its centre.
    @_spi(Engine) public struct Box: Sendable, Hashable {
        @_spi(Engine) public var x: Double
        @_spi(Engine) public var y: Double
        @_spi(Engine) public var width: Double
        @_spi(Engine) public var height: Double

        @_spi(Engine) public init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }
    }

    /// The route of one edge.
    @_spi(Engine) public struct EdgePath: Sendable, Hashable {
        /// A cubic Bézier spline: the start point, then one triple of points
        /// (two control points and an end point) per segment, as in Graphviz's `pos`.
        @_spi(Engine) public var points: [Point]
        /// Where the arrowhead's tip goes, when Graphviz leaves room for one
        /// after the last point of ``points``.
        @_spi(Engine) public var arrowTip: Point?
        /// The centre of the edge's label, if it has one.
        @_spi(Engine) public var labelCentre: Point?

        @_spi(Engine) public init(points: [Point], arrowTip: Point? = nil, labelCentre: Point? = nil) {
            self.points = points
            self.arrowTip = arrowTip
            self.labelCentre = labelCentre
        }
    }

    @_spi(Engine) public var width: Double
    @_spi(Engine) public var height: Double
    /// One box per input node, in input order.
    @_spi(Engine) public var nodes: [Box]
    /// One path per input edge, in input order.
    @_spi(Engine) public var edges: [EdgePath]

    @_spi(Engine) public init(width: Double, height: Double, nodes: [Box], edges: [EdgePath]) {
        self.width = width
        self.height = height
        self.nodes = nodes
        self.edges = edges
    }
}

/// A failure to lay out a graph with Graphviz.
@_spi(Engine) public struct GraphvizError: Error, CustomStringConvertible, Sendable, Hashable {
    /// One sentence saying what went wrong.
    @_spi(Engine) public var description: String

    @_spi(Engine) public init(_ description: String) {
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
