import FlowMapLayout

/// The journeys' pages, beside the flow map: an index at `flow/journeys/` and a story per journey below it, each
/// page of the journey a card with the link taken from it, and the journey drawn strong on the whole app's map.
extension FlowMapPages {
    /// The whole app's map as ``whole(_:trail:)`` laid it out, for the journeys to draw their ways on.
    struct WholeMap {
        let nodes: [FlowMapSVG.Node]
        let edges: [FlowMapSVG.Edge]
        let layout: LayoutResult
        /// The tab bar's box, when the map has one.
        let tabBar: Int?
    }

    func journeyPages(
        _ places: Places, map: WholeMap, trail: [(title: String, path: RoutePath)]
    ) throws -> [Page] {
        guard let index = places.journeyIndex else { return [] }
        let trail = trail + [(label("journeys", [:]), index)]
        return [journeyIndex(places, trail: Array(trail.dropLast()))]
            + graph.journeys.indices.map { story($0, places, map: map, trail: trail) }
    }

    private func journeyIndex(_ places: Places, trail: [(title: String, path: RoutePath)]) -> Page {
        let here = places.journeyIndex!
        let declared = graph.journeys.count { $0.source == JourneyRecord.declared }
        var html = paragraph(
            label(
                "journeysIntro",
                ["declared": number(declared), "tested": number(graph.journeys.count - declared)]))
        let title = label("journeys", [:])
        html += """
            <div class="table-scroll" tabindex="0" role="region" aria-label="\(escape(title))">\n\
            <table class="flow-table journeys">\n<thead><tr>
            """
        for column in ["journeyName", "journeyPages", "journeyTapsColumn", "flowSource", "journeyState"] {
            html += "<th scope=\"col\">" + escape(label(column, [:])) + "</th>"
        }
        html += "</tr></thead>\n<tbody>\n"
        for (offset, journey) in graph.journeys.enumerated() {
            html +=
                "<tr><th scope=\"row\">" + link(journey.name, here.relativeURL(to: places.journeys[offset])) + "</th>"
            html += "<td>" + pageList(journey) + "</td>"
            html += "<td class=\"number\">" + number(journey.taps) + "</td>"
            html += "<td>" + escape(sourceWords(journey)) + "</td>"
            html += stateCell(journey) + "</tr>\n"
        }
        html += "</tbody>\n</table>\n</div>\n"
        return Page(
            path: here, title: title, summary: label("journeysSummary", [:]), trail: trail, content: html)
    }

    /// One journey as a story: its pages in order, each a card with the link taken from it.
    private func story(
        _ offset: Int, _ places: Places, map: WholeMap, trail: [(title: String, path: RoutePath)]
    ) -> Page {
        let journey = graph.journeys[offset]
        let here = places.journeys[offset]
        let taps = counted("journeyTaps", journey.taps, ["count": number(journey.taps)])
        var html: String
        if journey.source == JourneyRecord.declared {
            html = paragraph(
                label(
                    "journeyIntroDeclared",
                    [
                        "taps": taps, "start": journey.titles.first ?? "", "end": journey.titles.last ?? "",
                        "location": journey.location ?? ""
                    ]))
        } else {
            html = paragraph(
                label("journeyIntroTest", ["taps": taps, "test": journey.location ?? ""]))
        }
        if let step = journey.brokenAtStep {
            html +=
                "<p class=\"journey-break\"><strong>"
                + escape(label("journeyBreaksAt", ["step": number(step)])) + "</strong> "
                + escape(journey.broken ?? "") + "</p>\n"
        }
        html += cards(journey, places, here: here)
        html += figure(highlighted(journey, on: map, here: here, places), caption: label("journeyCaption", [:]))
        return Page(
            path: here, title: journey.name, summary: label("journeySummary", ["journey": journey.name]),
            trail: trail, content: html)
    }

    /// The journey's pages in order, each a card: its title linked to the page, its kind linked to its map page,
    /// and the step taken from it; a declared or test journey's last card says where it ends. The cards' titles
    /// are `level` headings, under the page's own.
    func cards(_ journey: JourneyRecord, _ places: Places, here: RoutePath, level: Int = 2) -> String {
        var html = "<ol class=\"journey\">\n"
        for (position, path) in journey.pages.enumerated() {
            let kind = graph.kind(journey.kinds[position])
            let page = RoutePath(parsing: path)
            let isPage = journey.source != JourneyRecord.test || journey.titles[position] != path
            html += "<li class=\"journey-card\">\n<h\(level)>"
            html += isPage ? link(journey.titles[position], here.relativeURL(to: page)) : escape(path)
            html += "</h\(level)>\n<p class=\"journey-where\">"
            html += kind.map { link($0.kind.name, here.relativeURL(to: places.kind[$0.id]!)) + " · " } ?? ""
            html += "<code>" + escape(path) + "</code></p>\n"
            if position > 0, let elsewhere = journey.steps[position - 1].elsewhere {
                html += cameFrom(elsewhere, presentation: journey.steps[position - 1].presentation, places, here: here)
            }
            // The step that leaves this page, or the steps of a test that opened several links of it.
            let leaving = journey.steps.indices.filter { step in
                (journey.steps[step].from ?? step) == position && journey.steps[step].elsewhere == nil
            }
            for step in leaving { html += tap(journey, step: step) }
            if position == journey.pages.count - 1, journey.source != JourneyRecord.shortest {
                let ends = journey.brokenAtStep == nil ? "journeyEnds" : "journeyStops"
                html += "<p class=\"journey-end\">" + escape(label(ends, [:])) + "</p>\n"
            }
            html += "</li>\n"
        }
        return html + "</ol>\n"
    }

    /// "Shown from A New Hope, a page this journey does not reach · push", the page linked: a test's step from a
    /// page it never showed, written on the card of the page it shows.
    private func cameFrom(
        _ elsewhere: JourneyRecord.Elsewhere, presentation: String, _ places: Places, here: RoutePath
    ) -> String {
        let page =
            elsewhere.kind == nil
            ? "<code>" + escape(elsewhere.path) + "</code>"
            : link(elsewhere.title, here.relativeURL(to: RoutePath(parsing: elsewhere.path)))
        return tapParagraph("journeyFromElsewhere", holding: page, presentation: presentation)
    }

    /// "Follows «Tatooine» · push: opens over the page", the link text marked; a test's step names the page shown,
    /// as a way in's does.
    private func tap(_ journey: JourneyRecord, step: Int) -> String {
        let taken = journey.steps[step]
        let key: String
        let text: String
        if let label = taken.label {
            key = taken.tab == true ? "journeyTab" : "journeyFollows"
            text = label
        } else if journey.source == JourneyRecord.shortest {
            // One link reached each page, so the way names the pages, not link texts.
            key = taken.tab == true ? "journeyTab" : "journeyOpens"
            text = journey.titles[step + 1]
        } else {
            key = "journeyShows"
            text = journey.titles[step + 1]
        }
        return tapParagraph(key, holding: "<mark>" + escape(text) + "</mark>", presentation: taken.presentation)
    }

    /// The words of `key` with `html` in the place of its `{label}` or `{page}`, in the language's order, then the
    /// presentation (a ``Presentation``'s raw value) in words.
    private func tapParagraph(_ key: String, holding html: String, presentation: String) -> String {
        let marker = "\u{1}"
        let parts = label(key, ["label": marker, "page": marker]).components(separatedBy: marker)
        return "<p class=\"journey-tap\">" + parts.map(escape).joined(separator: html) + " · "
            + escape(label("presentation." + presentation, [:])) + "</p>\n"
    }

    /// The whole app's map with the journey's kinds and transitions drawn strong and the rest faded.
    private func highlighted(_ journey: JourneyRecord, on map: WholeMap, here: RoutePath, _ places: Places) -> String {
        let position = Dictionary(graph.kinds.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { a, _ in a })
        var ways = Set<[Int]>()
        for (step, taken) in journey.steps.enumerated() {
            guard let to = position[journey.kinds[step + 1]] else { continue }
            let from =
                taken.tab == true
                ? map.tabBar : position[taken.elsewhere.map { $0.kind ?? "" } ?? journey.kinds[taken.from ?? step]]
            if let from { ways.insert([from, to]) }
        }
        let on = Set(journey.kinds.compactMap { position[$0] })
        var nodes = map.nodes
        for index in nodes.indices {
            if index < graph.kinds.count {
                nodes[index].role = on.contains(index) ? .focus : .context
                nodes[index].url = here.relativeURL(to: places.kind[graph.kinds[index].id]!)
            } else if nodes[index].role == .unreachable {
                // Its finding's anchor is on the whole map's page.
                nodes[index].url = here.relativeURL(to: RoutePath([SiteLayout.flowMapFolder])) + nodes[index].url
            } else {
                nodes[index].url = here.relativeURL(to: .root)
            }
            // The way, not the code: findings and source lines are on the kinds' own pages.
            nodes[index].badges = []
            nodes[index].source = nil
        }
        var edges = map.edges
        for index in edges.indices { edges[index].faded = !ways.contains([edges[index].from, edges[index].to]) }
        return FlowMapSVG.draw(map.layout, nodes: nodes, edges: edges)
    }

    /// "Home › Luke Skywalker › Tatooine"; pages a test opened from one page are listed after it with commas, and one
    /// it opened from a page off the way after an ellipsis.
    private func pageList(_ journey: JourneyRecord) -> String {
        var text = escape(journey.titles.first ?? "")
        for (step, taken) in journey.steps.enumerated() {
            // A step from a page off the way jumps there.
            let join = taken.elsewhere != nil ? " … " : taken.from == nil ? " › " : ", "
            text += join + escape(journey.titles[step + 1])
        }
        return text
    }

    private func sourceWords(_ journey: JourneyRecord) -> String {
        journey.source == JourneyRecord.declared
            ? label("journeyDeclared", [:]) : label("journeyTest", [:])
    }

    private func stateCell(_ journey: JourneyRecord) -> String {
        guard let step = journey.brokenAtStep else { return "<td>" + escape(label("journeyHolds", [:])) + "</td>" }
        return "<td class=\"untested\">" + escape(label("journeyBreaksAt", ["step": number(step)])) + "</td>"
    }

    /// "Journeys through here" on a kind's page: each journey that reaches a page of the kind, at which page.
    func journeysThrough(_ kind: FlowGraph.Kind, _ places: Places, here: RoutePath) -> String {
        var items: [String] = []
        for (offset, journey) in graph.journeys.enumerated() {
            guard let position = journey.kinds.firstIndex(of: kind.id) else { continue }
            items.append(
                "<li>" + link(journey.name, here.relativeURL(to: places.journeys[offset])) + " "
                    + escape(
                        label(
                            "journeyThrough",
                            [
                                "page": journey.titles[position], "position": number(position + 1),
                                "count": number(journey.pages.count)
                            ])) + "</li>\n")
        }
        guard !items.isEmpty else { return "" }
        return heading(label("journeysThroughHere", [:])) + "<ul>\n" + items.joined() + "</ul>\n"
    }
}
