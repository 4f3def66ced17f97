import Foundation

/// Draws a screen-kind graph as inline SVG, laid out by Graphviz: a box per kind that links
/// somewhere, a spline per transition styled by its presentation, and the number of page links
/// it stands for.
///
/// The SVG carries classes only, no colours: the site's stylesheet paints it with its own
/// colours in light and dark mode. Every text goes through the HTML escaper, and numbers are
/// written with one decimal, so the same graph always gives the same bytes.
enum FlowMapSVG {
    /// A box: its kind's name and page count, where it links, how it relates to the view, its
    /// source line (the box's tooltip; on a drawn diff, what changed) and its lint badges, each
    /// linked to its finding.
    struct Node {
        var name: String
        var detail: String
        var url: String
        var role: Role
        var source: String? = nil
        var badges: [(text: String, url: String)] = []
        /// On a drawn diff, what the change did to the kind.
        var change: Change? = nil
    }

    /// What a change did to a box or an arrow, on a drawn diff: a class of its own, which the
    /// review page's stylesheet draws with a shape or line style of its own.
    enum Change: String {
        case added, removed, renamed
        /// A box whose page count changed, an arrow presented another way or standing for
        /// another number of links.
        case changed
    }

    /// How a box relates to the map it is drawn on.
    enum Role: String {
        /// A kind of the flow or app the map shows.
        case member
        /// The kind a focused view is about.
        case focus
        /// A kind outside the flow that one of its kinds leads to or comes from.
        case neighbour
        /// A kind drawn for its place in a shared layout, not connected to the view's focus.
        case context
        /// A kind the app declares that no link reaches.
        case unreachable
    }

    /// A transition between two boxes.
    struct Edge {
        var from: Int
        var to: Int
        var presentation: Presentation
        var links: Int
        /// Drawn in the background: not a transition of the view's focus.
        var faded = false
        /// On a drawn diff, what the change did to the transition, its tooltip, and the text
        /// beside it instead of the count of links.
        var change: Change? = nil
        var title: String? = nil
        var label: String? = nil
        /// The word for "untested" when no test of the app takes the transition (with flow
        /// coverage): drawn apart and the arrow's title; `nil` otherwise.
        var untested: String? = nil
    }

    /// The SVG element for `nodes` and `edges`. It has no role of its own: the region around it
    /// is labelled by the map's caption, and its boxes are links a screen reader lists.
    static func svg(nodes: [Node], edges: [Edge]) throws -> String {
        draw(try layout(nodes: nodes, edges: edges), nodes: nodes, edges: edges)
    }

    /// Graphviz's layout of `nodes` and `edges`; ``draw(_:nodes:edges:)`` may draw it more than
    /// once, with other roles and links (a flow's map, then each of its kinds' views).
    static func layout(nodes: [Node], edges: [Edge]) throws -> LayoutResult {
        try GraphvizLayout.layout(graph(nodes: nodes, edges: edges))
    }

    /// What Graphviz is given for `nodes` and `edges`: each box's lines of text and each arrow's
    /// label, which set their sizes.
    static func graph(nodes: [Node], edges: [Edge]) -> LayoutGraph {
        LayoutGraph(
            nodes: nodes.map {
                LayoutGraph.Node(label: ([$0.name, $0.detail] + $0.badges.map(\.text)).joined(separator: "\n"))
            },
            edges: edges.map { LayoutGraph.Edge(from: $0.from, to: $0.to, label: $0.label ?? Self.count($0.links)) },
            direction: .leftToRight
        )
    }

    /// The SVG of `layout`, made from the same nodes and edges in the same order.
    static func draw(_ layout: LayoutResult, nodes: [Node], edges: [Edge]) -> String {
        var out =
            "<svg class=\"flow-graph\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(number(layout.width))\" height=\"\(number(layout.height))\" viewBox=\"\(number(layout.origin.x)) \(number(layout.origin.y)) \(number(layout.width)) \(number(layout.height))\">\n"
        for (edge, path) in zip(edges, layout.edges) {
            out +=
                "<g class=\"transition \(edge.presentation.rawValue)\(edge.faded ? " faded" : "")\(edge.change.map { " " + $0.rawValue } ?? "")\(edge.untested == nil ? "" : " untested")\">"
            // An untested arrow's title is the mark alone: the arrow's ends name its kinds, and
            // kind names are often the app's own words in another language than the page's.
            if let title = edge.title ?? edge.untested { out += "<title>\(HTMLEscaping.escape(title))</title>" }
            out += "<path d=\"\(pathData(path.points))\"/>"
            if let tip = path.arrowTip, let last = path.points.last {
                out += "<path class=\"arrow\" d=\"\(arrowHead(from: last, to: tip))\"/>"
            }
            if let centre = path.labelCentre {
                out +=
                    "<text x=\"\(number(centre.x))\" y=\"\(number(centre.y + 4))\">\(HTMLEscaping.escape(edge.label ?? Self.count(edge.links)))</text>"
            }
            out += "</g>\n"
        }
        for (node, box) in zip(nodes, layout.nodes) {
            let left = box.x - box.width / 2
            let top = box.y - box.height / 2
            // Baselines 16 pt apart, the lines centred on the box.
            let firstLine = box.y - 3 - Double(8 * node.badges.count)
            out +=
                "<a class=\"kind \(node.role.rawValue)\(node.change.map { " " + $0.rawValue } ?? "")\" href=\"\(HTMLEscaping.escape(node.url))\""
            // The source line is the box's tooltip and its description; the name stays the link's.
            if let source = node.source {
                out +=
                    " aria-label=\"\(HTMLEscaping.escape(node.name + " · " + node.detail))\"><title>\(HTMLEscaping.escape(source))</title>"
            } else {
                out += ">"
            }
            out +=
                "<rect x=\"\(number(left))\" y=\"\(number(top))\" width=\"\(number(box.width))\" height=\"\(number(box.height))\" rx=\"6\"/>"
            out += "<text x=\"\(number(box.x))\" y=\"\(number(firstLine))\">\(HTMLEscaping.escape(node.name))</text>"
            out +=
                "<text class=\"detail\" x=\"\(number(box.x))\" y=\"\(number(firstLine + 16))\">\(HTMLEscaping.escape(node.detail))</text>"
            out += "</a>\n"
            // Links of their own over the box: a link can't hold another.
            for (index, badge) in node.badges.enumerated() {
                let middle = firstLine + Double(27 + 16 * index)
                let width = Double(badge.text.count) * 6 + 12
                out +=
                    "<a class=\"badge\" href=\"\(HTMLEscaping.escape(badge.url))\" aria-label=\"\(HTMLEscaping.escape(node.name + ": " + badge.text))\">"
                out +=
                    "<rect x=\"\(number(box.x - width / 2))\" y=\"\(number(middle - 7.5))\" width=\"\(number(width))\" height=\"15\" rx=\"7.5\"/>"
                out +=
                    "<text x=\"\(number(box.x))\" y=\"\(number(middle + 4))\">\(HTMLEscaping.escape(badge.text))</text></a>\n"
            }
        }
        return out + "</svg>"
    }

    /// A count with thousands separators, as every map writes it: "12,480".
    static func count(_ value: Int) -> String {
        var digits = Array(String(value))
        var index = digits.count - 3
        while index > 0 {
            digits.insert(",", at: index)
            index -= 3
        }
        return String(digits)
    }

    /// `M x y C …` for a Graphviz spline: a start point, then triples of points.
    private static func pathData(_ points: [LayoutResult.Point]) -> String {
        guard let first = points.first else { return "" }
        var data = "M\(number(first.x)) \(number(first.y))"
        var rest = points.dropFirst()
        while rest.count >= 3 {
            let triple = rest.prefix(3)
            data += "C" + triple.map { "\(number($0.x)) \(number($0.y))" }.joined(separator: " ")
            rest = rest.dropFirst(3)
        }
        return data
    }

    /// A filled triangle from the spline's end to the arrow's tip.
    private static func arrowHead(from base: LayoutResult.Point, to tip: LayoutResult.Point) -> String {
        let dx = tip.x - base.x
        let dy = tip.y - base.y
        let length = max((dx * dx + dy * dy).squareRoot(), 0.001)
        // Half the width of the arrow's base, across the line.
        let nx = -dy / length * 3.5
        let ny = dx / length * 3.5
        return
            "M\(number(tip.x)) \(number(tip.y))L\(number(base.x + nx)) \(number(base.y + ny))L\(number(base.x - nx)) \(number(base.y - ny))Z"
    }

    /// One decimal, without a trailing `.0`, and never `-0`.
    static func number(_ value: Double) -> String {
        let tenths = (value * 10).rounded()
        let whole = Int(tenths) / 10
        let fraction = abs(Int(tenths) % 10)
        let sign = tenths < 0 && whole == 0 ? "-" : ""
        return fraction == 0 ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
    }
}
