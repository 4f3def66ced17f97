import Foundation

/// The formats a ``SiteGraph`` can be written in.
package enum GraphFormat: String, Sendable, CaseIterable {
    /// Graphviz: `dot -Tsvg graph.dot -o graph.svg`.
    case dot
    /// A Mermaid flowchart, which GitHub and many wikis draw inline.
    case mermaid
    /// Plain data for other tools: routes with their titles and stacks, and edges.
    case json
}

extension SiteGraph {
    /// Pages by path and title; one edge per pair of pages and presentation, labelled by the first action.
    /// The text depends only on the graph, so it can be committed and diffed.
    package func export(_ format: GraphFormat) -> String {
        switch format {
        case .dot: dot
        case .mermaid: mermaid
        case .json: json
        }
    }

    /// How many distinct links the exported graph draws.
    package var distinctEdgeCount: Int { distinctEdges.count }

    /// The first of each (from, to, presentation), in discovery order.
    var distinctEdges: [Edge<R>] {
        var seen = Set<EdgeKey>()
        return edges.filter { seen.insert(EdgeKey(from: $0.from, to: $0.to, presentation: $0.presentation)).inserted }
    }

    private struct EdgeKey: Hashable {
        let from: R
        let to: R
        let presentation: Presentation
    }

    func title(of route: R) -> String { titles[route] ?? route.shownName }

    // MARK: Graphviz

    private var dot: String {
        var lines = [
            "digraph site {",
            "  rankdir=LR;",
            #"  node [shape=box, style=rounded, fontname="Helvetica"];"#,
            #"  edge [fontname="Helvetica", fontsize=10];"#
        ]
        for route in distinctRoutes {
            let failed = failures.contains { $0.route == route } ? ", color=red" : ""
            lines.append(
                """
                  \(dotQuoted(route.path.description)) \
                [label=\(dotQuoted(title(of: route) + "\n" + route.path.description))\(failed)];
                """
            )
        }
        for edge in distinctEdges {
            lines.append(
                """
                  \(dotQuoted(edge.from.path.description)) -> \(dotQuoted(edge.to.path.description)) \
                [label=\(dotQuoted(edge.label))\(edge.presentation.dotStyle)];
                """
            )
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Mermaid

    private var mermaid: String {
        var ids: [R: String] = [:]
        var lines = ["flowchart LR"]
        for (index, route) in distinctRoutes.enumerated() {
            let id = "p\(index)"
            ids[route] = id
            lines.append("  \(id)[\"\(mermaidText(title(of: route)))<br/>\(mermaidText(route.path.description))\"]")
        }
        for edge in distinctEdges {
            guard let from = ids[edge.from], let to = ids[edge.to] else { continue }
            lines.append("  \(from) \(edge.presentation.mermaidArrow)|\"\(mermaidText(edge.label))\"| \(to)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: JSON

    private var json: String {
        let document = GraphDocument(
            pages: distinctRoutes.map { route in
                let record = records[route]
                return GraphDocument.Page(
                    path: route.path.description,
                    title: title(of: route),
                    presentation: record?.presentation.rawValue ?? Presentation.push.rawValue,
                    stack: record?.stack.map(\.path.description) ?? [],
                    failure: failures.first { $0.route == route }?.error
                )
            },
            edges: distinctEdges.map {
                GraphDocument.Link(
                    from: $0.from.path.description, to: $0.to.path.description, label: $0.label,
                    presentation: $0.presentation.rawValue)
            }
        )
        return FlowJSON.encode(document)
    }
}

extension Presentation {
    /// Push solid, modal dashed, root bold, replace dotted; a return ends in a dot (as Mermaid's in a circle) and
    /// leaves the ranks alone.
    var dotStyle: String {
        switch self {
        case .push: ""
        case .modal: ", style=dashed"
        case .root: ", style=bold"
        case .replace: ", style=dotted"
        case .back: ", arrowhead=dot, constraint=false"
        }
    }

    /// Modals dotted, roots thick, returns ending in a circle.
    var mermaidArrow: String {
        switch self {
        case .push, .replace: "-->"
        case .modal: "-.->"
        case .root: "==>"
        case .back: "--o"
        }
    }
}

func dotQuoted(_ text: String) -> String { "\"" + replacing(text, dotEscapes) + "\"" }

func mermaidText(_ text: String) -> String { replacing(text, mermaidEscapes) }

/// "\r\n" is one Character in Swift.
let dotEscapes: [Character: String] = ["\\": "\\\\", "\"": "\\\"", "\n": "\\n", "\r": "\\n", "\r\n": "\\n"]

/// Entity codes for what Mermaid or HTML would read; line breaks become spaces.
let mermaidEscapes: [Character: String] = [
    "\"": "#quot;", "#": "#35;", "<": "#lt;", ">": "#gt;", "&": "#amp;", "|": "#124;", "\n": " ", "\r": " ", "\r\n": " "
]

func replacing(_ text: String, _ table: [Character: String]) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for character in text {
        if let replacement = table[character] { out += replacement } else { out.append(character) }
    }
    return out
}

private struct GraphDocument: Encodable {
    struct Page: Encodable {
        let path, title, presentation: String
        let stack: [String]
        let failure: String?
    }

    struct Link: Encodable { let from, to, label, presentation: String }

    let pages: [Page]
    let edges: [Link]
}
