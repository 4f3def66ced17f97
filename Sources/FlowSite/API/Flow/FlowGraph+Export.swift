extension FlowGraph {
    /// The graph in Graphviz's language: a box per kind (name, pages, click depths, source line), an arrow per
    /// transition (presentation, links, source line); push solid, modal dashed, root bold, replace dotted, back ending
    /// in a dot.
    public func dot() -> String {
        var lines = [
            "digraph flow {",
            "  rankdir=LR;",
            #"  node [shape=box, style=rounded, fontname="Helvetica"];"#,
            #"  edge [fontname="Helvetica", fontsize=10];"#
        ]
        for kind in kinds {
            var label =
                "\(kind.kind.name)\n" + Wording.english("countPages", count: kind.pages)
                + ", \(kind.depth.minimum)–\(kind.depth.maximum) clicks"
            if let location = kind.location { label += "\n\(location)" }
            lines.append(
                "  \(dotQuoted(kind.id)) [label=\(dotQuoted(label)), tooltip=\(dotQuoted("flow: " + kind.kind.flow))];")
        }
        // Tab selections start from the tab bar, as on the map, not from the start page's kind.
        if transitions.contains(where: { $0.tabSelections > 0 }) {
            lines.append("  \(dotQuoted(Coverage.tabBar)) [label=\"Tab bar\", shape=plain];")
        }
        for transition in transitions {
            for (from, links) in transition.sources() {
                var label = "\(transition.presentation) ×\(links)"
                if let location = transition.location { label += "\n\(location)" }
                lines.append(
                    """
                      \(dotQuoted(from)) -> \(dotQuoted(transition.to)) \
                    [label=\(dotQuoted(label))\(transition.presentation.dotStyle)];
                    """
                )
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as a Mermaid flowchart (GitHub draws these inline): dotted arrows are modals,
    /// thick ones roots, circle-ended ones returns; each kind's and transition's source line follows it as a `%%`
    /// comment.
    public func mermaid() -> String {
        var lines = ["flowchart LR"]
        var ids: [String: String] = [:]
        for (index, kind) in kinds.enumerated() {
            ids[kind.id] = "k\(index)"
            lines.append(
                "  k\(index)[\"\(mermaidText(kind.kind.name))<br/>" + Wording.english("countPages", count: kind.pages)
                    + "\"]")
            if let location = kind.location { lines.append("  %% k\(index) \(kind.id): \(location)") }
        }
        if transitions.contains(where: { $0.tabSelections > 0 }) {
            ids[Coverage.tabBar] = "tabs"
            lines.append("  tabs[\"Tab bar\"]")
        }
        for transition in transitions {
            for (source, links) in transition.sources() {
                guard let from = ids[source], let to = ids[transition.to] else { continue }
                lines.append(
                    """
                      \(from) \(transition.presentation.mermaidArrow)|\"\(transition.presentation) \
                    ×\(links)\"| \(to)
                    """
                )
                if let location = transition.location { lines.append("  %% \(from) -> \(to): \(location)") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The graph as JSON for tools: kinds and transitions with their counts, example pages and source locations
    /// (`Module/File.swift:line`, the same on every machine), and the app's journeys with each page they reach.
    public func json() -> String {
        struct Document: Encodable {
            struct Page: Encodable { let path, title, route: String }
            struct Depth: Encodable { let minimum, median, maximum: Int }
            struct Kind: Encodable {
                let id, name, flow: String
                let pages: Int
                let clickDepth: Depth
                let example: Page
                let location: String?
            }
            struct Transition: Encodable {
                let from, to, presentation: String
                let links: Int
                let location: String?
                let example: [Page]
            }
            let kinds: [Kind]
            let transitions: [Transition]
            /// Left out for an app that declares none.
            let journeys: [JourneyRecord]?
        }
        func page(_ reference: PageReference) -> Document.Page {
            Document.Page(path: reference.path.description, title: reference.title, route: reference.route)
        }
        return FlowJSON.encode(
            Document(
                kinds: kinds.map {
                    .init(
                        id: $0.id, name: $0.kind.name, flow: $0.kind.flow, pages: $0.pages,
                        clickDepth: .init(
                            minimum: $0.depth.minimum, median: $0.depth.median, maximum: $0.depth.maximum),
                        example: page($0.example), location: $0.location?.description)
                },
                transitions: transitions.map {
                    .init(
                        from: $0.from, to: $0.to, presentation: $0.presentation.rawValue, links: $0.links,
                        location: $0.location?.description, example: [page($0.example.from), page($0.example.to)])
                },
                journeys: journeys.isEmpty ? nil : journeys
            ))
    }
}

extension FlowGraph.Transition {
    /// Where the transition's links start, with how many: its kind for its own links, the tab bar
    /// (``FlowGraph/Coverage/tabBar``) for tab selections.
    func sources() -> [(from: String, links: Int)] {
        let own = links - tabSelections
        return (own > 0 ? [(from, own)] : []) + (tabSelections > 0 ? [(FlowGraph.Coverage.tabBar, tabSelections)] : [])
    }
}
