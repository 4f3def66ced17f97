import FlowMapLayout
import FlowSiteUtilities
import Foundation

/// Draws a screen-kind graph as inline SVG laid out by Graphviz: a linked box per kind, a spline per transition.
/// Classes only, no colours: the stylesheet paints light and dark mode. Texts are escaped and numbers have one
/// decimal, so the same graph always gives the same bytes.
enum FlowMapSVG {
    /// A kind's box; `source` is its tooltip (on a drawn diff, what changed).
    struct Node {
        var name: String
        var detail: String
        var url: String
        var role: Role
        var source: String? = nil
        var badges: [(text: String, url: String)] = []
        /// On a drawn diff.
        var change: Change? = nil
    }

    /// On a drawn diff: a class the review page's stylesheet draws with a shape or line style.
    enum Change: String {
        case added, removed, renamed
        /// A page count, presentation or link count changed.
        case changed
    }

    /// How a box relates to the map it is drawn on.
    enum Role: String {
        case member
        /// The kind a focused view is about.
        case focus
        /// Outside the flow, linked to or from one of its kinds.
        case neighbour
        /// Drawn for its place in a shared layout, not connected to the focus.
        case context
        /// Declared by the app, reached by no link.
        case unreachable
    }

    struct Edge {
        var from: Int
        var to: Int
        var presentation: Presentation
        var links: Int
        /// Not a transition of the view's focus.
        var faded = false
        /// On a drawn diff: the change, the tooltip, and the label in place of the link count.
        var change: Change? = nil
        var title: String? = nil
        var label: String? = nil
        /// The word for "untested", with flow coverage, when no test takes the transition.
        var untested: String? = nil
    }

    /// No role of its own: the region around it is labelled by the caption, and its boxes are links.
    static func svg(nodes: [Node], edges: [Edge]) throws -> String {
        draw(try layout(nodes: nodes, edges: edges), nodes: nodes, edges: edges)
    }

    /// ``draw(_:nodes:edges:)`` may draw one layout more than once, with other roles and links.
    static func layout(nodes: [Node], edges: [Edge]) throws -> LayoutResult {
        try GraphvizLayout.layout(graph(nodes: nodes, edges: edges))
    }

    /// Each box's lines and each arrow's label, which set their sizes.
    static func graph(nodes: [Node], edges: [Edge]) -> LayoutGraph {
        LayoutGraph(
            nodes: nodes.map {
                LayoutGraph.Node(label: ([$0.name, $0.detail] + $0.badges.map(\.text)).joined(separator: "\n"))
            },
            edges: edges.map {
                LayoutGraph.Edge(
                    from: $0.from, to: $0.to, label: $0.label ?? Self.count($0.links),
                    isReturn: $0.presentation == .back)
            },
            direction: .leftToRight
        )
    }

    /// `layout` must come from the same nodes and edges, in the same order.
    static func draw(_ layout: LayoutResult, nodes: [Node], edges: [Edge]) -> String {
        var out = """
            <svg class="flow-graph" xmlns="http://www.w3.org/2000/svg" width="\(number(layout.width))" \
            height="\(number(layout.height))" viewBox="\(number(layout.origin.x)) \(number(layout.origin.y)) \
            \(number(layout.width)) \(number(layout.height))">\n
            """
        for (edge, path) in zip(edges, layout.edges) {
            out += """
                <g class="transition \(edge.presentation.rawValue)\(edge.faded ? " faded" : "")\
                \(edge.change.map { " " + $0.rawValue } ?? "")\(edge.untested == nil ? "" : " untested")">
                """
            // The mark alone: kind names are often in another language than the page's.
            if let title = edge.title ?? edge.untested { out += "<title>\(HTMLEscaping.escape(title))</title>" }
            out += "<path d=\"\(pathData(path.points))\"/>"
            if let tip = path.arrowTip, let last = path.points.last {
                out += "<path class=\"arrow\" d=\"\(arrowHead(from: last, to: tip))\"/>"
            }
            if let centre = path.labelCentre {
                out += """
                    <text x="\(number(centre.x))" y="\(number(centre.y + 4))">\
                    \(HTMLEscaping.escape(edge.label ?? Self.count(edge.links)))</text>
                    """
            }
            out += "</g>\n"
        }
        for (node, box) in zip(nodes, layout.nodes) {
            let left = box.x - box.width / 2
            let top = box.y - box.height / 2
            // Baselines 16 pt apart, the lines centred on the box.
            let firstLine = box.y - 3 - Double(8 * node.badges.count)
            out += """
                <a class="kind \(node.role.rawValue)\(node.change.map { " " + $0.rawValue } ?? "")" \
                href="\(HTMLEscaping.escape(node.url))"
                """
            // The source line is the tooltip and description; the name stays the link's. Starts with a space.
            if let source = node.source {
                out += """
                     aria-label="\(HTMLEscaping.escape(node.name + " · " + node.detail))">\
                    <title>\(HTMLEscaping.escape(source))</title>
                    """
            } else {
                out += ">"
            }
            out += """
                <rect x="\(number(left))" y="\(number(top))" width="\(number(box.width))" \
                height="\(number(box.height))" rx="6"/>
                """
            out += "<text x=\"\(number(box.x))\" y=\"\(number(firstLine))\">\(HTMLEscaping.escape(node.name))</text>"
            out += """
                <text class="detail" x="\(number(box.x))" y="\(number(firstLine + 16))">\
                \(HTMLEscaping.escape(node.detail))</text>
                """
            out += "</a>\n"
            // Links of their own over the box: a link can't hold another.
            for (index, badge) in node.badges.enumerated() {
                let middle = firstLine + Double(27 + 16 * index)
                let width = Double(badge.text.count) * 6 + 12
                out += """
                    <a class="badge" href="\(HTMLEscaping.escape(badge.url))" \
                    aria-label="\(HTMLEscaping.escape(node.name + ": " + badge.text))">
                    """
                out += """
                    <rect x="\(number(box.x - width / 2))" y="\(number(middle - 7.5))" width="\(number(width))" \
                    height="15" rx="7.5"/>
                    """
                out += """
                    <text x="\(number(box.x))" y="\(number(middle + 4))">\
                    \(HTMLEscaping.escape(badge.text))</text></a>\n
                    """
            }
        }
        return out + "</svg>"
    }

    /// "12,480".
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
        return """
            M\(number(tip.x)) \(number(tip.y))L\(number(base.x + nx)) \(number(base.y + ny))\
            L\(number(base.x - nx)) \(number(base.y - ny))Z
            """
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
