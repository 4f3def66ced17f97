import FlowSiteUtilities

/// The parts of the flow map's pages: boxes, arrows, tables, lists and links.
extension FlowMapPages {
    /// A kind's box with its source line and a badge per rule it breaks, linked to the first such finding.
    func node(
        _ kind: FlowGraph.Kind, role: FlowMapSVG.Role, url: String, _ places: Places, here: RoutePath
    ) -> FlowMapSVG.Node {
        let list = here.relativeURL(to: RoutePath([SiteLayout.flowMapFolder])) + "#"
        var badges: [(rule: FlowLintRule, pages: Int, anchor: String)] = []
        for (finding, anchor) in places.findings where finding.isActive && finding.kind?.id == kind.id {
            if let known = badges.firstIndex(where: { $0.rule == finding.rule }) {
                badges[known].pages += finding.count
            } else {
                badges.append((finding.rule, finding.count, anchor))
            }
        }
        let linked = kind.deepLinkedPages > 0 ? " · " + label("flowDeepLinked", [:]) : ""
        return FlowMapSVG.Node(
            name: kind.kind.name, detail: pages(kind.pages) + linked, url: url, role: role,
            source: (kind.location ?? kind.kind.location)?.description,
            badges: badges.map { ("\($0.rule.id) \(number($0.pages))", list + $0.anchor) }
        )
    }

    /// The tab bar's box: where the tabs' arrows start; it leads to the start page.
    func tabBarNode(here: RoutePath) -> FlowMapSVG.Node {
        let tabs = graph.transitions.reduce(0) { $0 + $1.tabSelections }
        return FlowMapSVG.Node(
            name: label("flowTabBar", [:]), detail: counted("flowTabs", tabs, ["count": number(tabs)]),
            url: here.relativeURL(to: .root),
            role: .context
        )
    }

    /// Arrows between `kinds` by index; tab selections start at box `tabBar`. `merging` makes one arrow per pair,
    /// styled by the presentation with the most links: the tables keep every presentation apart.
    func edges(
        _ transitions: [FlowGraph.Transition], kinds: [FlowGraph.Kind], merging: Bool, tabBar: Int
    ) -> [FlowMapSVG.Edge] {
        let index = Dictionary(uniqueKeysWithValues: kinds.enumerated().map { ($1.id, $0) })
        var parts: [(from: Int?, transition: FlowGraph.Transition)] = []
        for transition in transitions {
            var own = transition
            if transition.tabSelections > 0 {
                own.links -= transition.tabSelections
                var tabs = transition
                tabs.links = transition.tabSelections
                parts.append((tabBar, tabs))
            }
            if own.links > 0 { parts.append((index[transition.from], own)) }
        }
        var edges: [FlowMapSVG.Edge] = []
        var merged: [[Int]: (edge: Int, most: Int)] = [:]
        for (from, transition) in parts {
            guard let from, let to = index[transition.to] else { continue }
            // Untested when any transition it stands for is.
            let untested = coverage.map { !$0.covers(transition) } == true ? label("flowUntested", [:]) : nil
            if merging, let known = merged[[from, to]] {
                edges[known.edge].links += transition.links
                edges[known.edge].untested = edges[known.edge].untested ?? untested
                if transition.links > known.most {
                    edges[known.edge].presentation = transition.presentation
                    merged[[from, to]]!.most = transition.links
                }
                continue
            }
            merged[[from, to]] = (edges.count, transition.links)
            edges.append(
                FlowMapSVG.Edge(
                    from: from, to: to, presentation: transition.presentation, links: transition.links,
                    untested: untested))
        }
        return edges
    }

    /// The map, scrollable on its own on a narrow screen, with its caption.
    func figure(_ svg: String, caption: String) -> String {
        """
        <figure class="flow-map">\n<div class="flow-map-scroll" tabindex="0" role="region" \
        aria-labelledby="flow-map-caption">\n
        """
            + svg + "\n</div>\n<figcaption id=\"flow-map-caption\">" + escape(caption) + "</figcaption>\n</figure>\n"
    }

    /// The arrows' styles; with `neighbours` (the key of its words), the short-dashed box of a view's neighbour,
    /// which the whole map's "no way in" box (long dashes, no fill) is not.
    func legend(neighbours: String? = nil) -> String {
        var items = Presentation.allCases.map { presentation in
            """
            <li class="\(presentation.rawValue)"><svg width="36" height="10" aria-hidden="true">\
            <path d="M2 5H34"/></svg> \

            """
                + escape(label("presentation." + presentation.rawValue, [:])) + "</li>\n"
        }
        if coverage != nil {
            // The untested arrow's line and hollow head, as the map draws them.
            items.append(
                """
                <li class="untested"><svg width="36" height="10" aria-hidden="true"><path d="M2 5H27"/>\
                <path class="arrow" d="M34 5L27 8.5L27 1.5Z"/></svg> \

                """
                    + escape(label("flowLegendUntested", ["untested": label("flowUntested", [:])])) + "</li>\n")
        }
        if let neighbours {
            items.append(
                """
                <li class="neighbour"><svg width="36" height="14" aria-hidden="true">\
                <rect x="2" y="2" width="32" height="10" rx="3"/></svg> \

                """
                    + escape(label(neighbours, [:])) + "</li>\n")
        }
        return "<ul class=\"flow-legend\">\n" + items.joined() + "</ul>\n"
    }

    /// "tests take 3 of 5 transitions" for one flow.
    func coverageCount(_ count: FlowGraph.Coverage.FlowCount) -> String {
        label("flowCoverageCount", ["tested": number(count.tested), "total": number(count.total)])
    }

    /// `unreachable` kinds last, linked to their findings.
    func kindTable(
        _ kinds: [FlowGraph.Kind], _ places: Places, here: RoutePath,
        unreachable: [(kind: ScreenKind, anchor: String)] = []
    ) -> String {
        var html = heading(label("flowKinds", [:]))
        html += """
            <div class="table-scroll" tabindex="0" role="region" aria-label="\(escape(label("flowKinds", [:])))">\n\
            <table class="flow-table">\n<thead><tr>
            """
        for column in ["flowKind", "flowFlow", "flowPages", "flowDepth", "flowExample", "flowSource"] {
            html += "<th scope=\"col\">" + escape(label(column, [:])) + "</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for kind in kinds {
            html +=
                "<tr><th scope=\"row\">" + link(kind.kind.name, here.relativeURL(to: places.kind[kind.id]!)) + "</th>"
            html += "<td>" + escape(kind.kind.flow) + "</td>"
            html += "<td class=\"number\">" + number(kind.pages) + "</td>"
            html += "<td class=\"number\">\(kind.depth.minimum) / \(kind.depth.median) / \(kind.depth.maximum)</td>"
            html +=
                "<td>" + link(kind.example.title, here.relativeURL(to: kind.example.path)) + "</td>"
                + source(kind.location ?? kind.kind.location) + "</tr>\n"
        }
        for (kind, anchor) in unreachable {
            html +=
                "<tr class=\"unreachable\"><th scope=\"row\">" + link(kind.name, "#" + anchor) + "</th><td>"
                + escape(kind.flow) + "</td>"
            html +=
                "<td class=\"number\">" + number(0) + "</td><td class=\"number\">–</td><td>"
                + escape(label("flowNoWayIn", [:])) + "</td>" + source(kind.location) + "</tr>\n"
        }
        return html + "</tbody>\n</table>\n</div>\n"
    }

    func transitionTable(
        _ transitions: [FlowGraph.Transition], here: RoutePath, places: Places, title: String? = nil
    ) -> String {
        let title = title ?? label("flowTransitions", [:])
        var html = heading(title)
        guard !transitions.isEmpty else { return html + paragraph(label("flowNoTransitions", [:])) }
        html += """
            <div class="table-scroll" tabindex="0" role="region" aria-label="\(escape(title))">\n\
            <table class="flow-table">\n<thead><tr>
            """
        for column in ["flowFrom", "flowTo", "flowPresentation", "flowLinks"] + (coverage == nil ? [] : ["flowTests"]) {
            html += "<th scope=\"col\">" + escape(label(column, [:])) + "</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for transition in transitions {
            let from = graph.kind(transition.from)!
            let to = graph.kind(transition.to)!
            let tabBar = transition.tabSelections > 0 ? escape(label("flowTabBar", [:])) : ""
            let source = transition.isTabOnly ? "" : link(from.kind.name, here.relativeURL(to: places.kind[from.id]!))
            html += "<tr><td>" + [source, tabBar].filter { !$0.isEmpty }.joined(separator: ", ") + "</td>"
            html += "<td>" + link(to.kind.name, here.relativeURL(to: places.kind[to.id]!)) + "</td>"
            html += "<td>" + escape(label("presentation." + transition.presentation.rawValue, [:])) + "</td>"
            html += "<td class=\"number\">" + number(transition.links) + "</td>"
            if let coverage {
                if coverage.covers(transition) {
                    html += "<td>" + escape(label("flowTested", [:])) + "</td>"
                } else {
                    html += "<td class=\"untested\">" + escape(label("flowUntested", [:])) + "</td>"
                }
            }
            html += "</tr>\n"
        }
        return html + "</tbody>\n</table>\n</div>\n"
    }

    /// Flow lint's findings for the whole map, suppressed ones with their reasons, each with its badge's anchor.
    func findingList(_ places: Places, here: RoutePath) -> String {
        var html = heading(label("flowFindings", [:]))
        guard !places.findings.isEmpty else { return html + paragraph(label("flowNoFindings", [:])) }
        html += "<ul class=\"flow-findings\">\n"
        for (finding, anchor) in places.findings {
            html += """
                <li id="\(anchor)"\(finding.isActive ? "" : " class=\"suppressed\"")>\
                <code>\(escape(finding.rule.id))</code> \

                """
            if let kind = finding.kind {
                html +=
                    (places.kind[kind.id].map { link(kind.name, here.relativeURL(to: $0)) } ?? escape(kind.name)) + ": "
            }
            // In the site's language (its `lint…` labels).
            html += escape(finding.message)
            if let location = finding.location { html += " <code>" + escape(location.description) + "</code>" }
            if let reason = finding.suppression { html += " " + escape(label("flowSuppressed", ["reason": reason])) }
            html += "</li>\n"
        }
        return html + "</ul>\n"
    }

    /// A table cell of `Module/File.swift:42`, which may break after the module's slash.
    func source(_ location: CodeLocation?) -> String {
        "<td>"
            + (location.map {
                "<code>" + escape($0.description).replacingOccurrences(of: "/", with: "/<wbr>") + "</code>"
            } ?? "") + "</td>"
    }

    /// "1 page", "82 pages".
    func pages(_ count: Int) -> String {
        counted("kindPages", count, ["count": number(count)])
    }

    func heading(_ text: String) -> String { "<h2>" + escape(text) + "</h2>\n" }
    func paragraph(_ text: String) -> String { "<p>" + escape(text) + "</p>\n" }
    func link(_ text: String, _ url: String) -> String {
        "<a href=\"" + escape(url) + "\">" + escape(text) + "</a>"
    }
    func escape(_ text: String) -> String { HTMLEscaping.escape(text) }
}
