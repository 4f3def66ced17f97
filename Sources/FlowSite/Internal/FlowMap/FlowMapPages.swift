import FlowMapLayout

/// The flow map's pages: the whole app at `flow/`, one map per flow at `flow/<flow>/`, and each kind's
/// neighbourhood at `flow/<flow>/<kind>/` (at `flow/<flow>/` for a flow of one kind).
///
/// Each SVG comes with the same facts as tables, so the map reads without the picture. Flow lint findings are
/// badges on their kinds; unreachable kinds are drawn apart. With flow coverage, untested transitions are
/// drawn faint with a hollow arrow and named "untested".
struct FlowMapPages {
    struct Page {
        let path: RoutePath
        let title: String
        let summary: String
        /// The breadcrumbs above this page, from the start page.
        let trail: [(title: String, path: RoutePath)]
        let content: String
        /// The whole app's map only: where it drew each kind, in the graph's order.
        var boxes: [FlowRecord.Box]? = nil
    }

    let graph: FlowGraph
    let lint: FlowLintReport
    /// The transitions the app's tests take, when the build was given them.
    var coverage: FlowGraph.Coverage? = nil
    let label: @Sendable (String, [String: String]) -> String
    /// A counted word in the form the count takes.
    let counted: @Sendable (String, Int, [String: String]) -> String
    let number: @Sendable (Int) -> String

    /// Where each page of ``pages()`` goes, in the same order, without laying anything out.
    func paths() -> [RoutePath] {
        let places = Places(graph, lint)
        var paths = [RoutePath([SiteLayout.flowMapFolder])]
        for flow in graph.flows {
            if flow.kinds.count > 1 { paths.append(places.flow[flow.name]!) }
            for kind in flow.kinds { paths.append(places.kind[kind.id]!) }
        }
        if let index = places.journeyIndex { paths += [index] + places.journeys }
        return paths
    }

    /// The whole app's map first.
    func pages() throws -> [Page] {
        let places = Places(graph, lint)
        let home = (title: graph.kinds.first?.example.title ?? "", path: RoutePath.root)
        let mapTitle = label("flowMap", [:])
        let root = RoutePath([SiteLayout.flowMapFolder])
        let (wholePage, map) = try whole(places, trail: [home])
        var pages = [wholePage]
        for flow in graph.flows {
            // A flow of one kind is that kind's view.
            guard flow.kinds.count > 1 else {
                pages.append(try focus(flow.kinds[0], places, trail: [home, (mapTitle, root)]))
                continue
            }
            let flowPath = places.flow[flow.name]!
            let (page, view) = try flowPage(flow, places, trail: [home, (mapTitle, root)])
            pages.append(page)
            for kind in flow.kinds {
                pages.append(
                    try focus(
                        kind, places, trail: [home, (mapTitle, root), (label("flowOf", ["flow": flow.name]), flowPath)],
                        within: view))
            }
        }
        return pages + (try journeyPages(places, map: map, trail: [home, (mapTitle, root)]))
    }

    // MARK: Pages

    private func whole(_ places: Places, trail: [(title: String, path: RoutePath)]) throws -> (Page, WholeMap) {
        let here = RoutePath([SiteLayout.flowMapFolder])
        let pages = graph.kinds.reduce(0) { $0 + $1.pages }
        let kinds = graph.kinds.count
        let flows = graph.flows.count
        var html = paragraph(
            label(
                "flowMapIntro",
                [
                    "kinds": counted("flowKindsOfScreen", kinds, ["count": number(kinds)]),
                    "flows": counted("flowFlowsCount", flows, ["count": number(flows)]), "pages": self.pages(pages)
                ]))
        html += paragraph(label("flowMapMarks", ["noWayIn": label("flowNoWayIn", [:])]))
        if let coverage {
            let tested = graph.transitions.count { coverage.covers($0) }
            html += paragraph(
                label(
                    "flowCoverageIntro",
                    [
                        "tested": number(tested), "total": number(graph.transitions.count),
                        "untested": label("flowUntested", [:])
                    ]))
        }
        html += legend()
        let unreachable = places.unreachable.map { kind, anchor in
            FlowMapSVG.Node(
                name: kind.name, detail: label("flowNoWayIn", [:]), url: "#" + anchor, role: .unreachable,
                source: kind.location?.description)
        }
        var nodes =
            graph.kinds.map { node($0, role: .member, url: here.relativeURL(to: $0.example.path), places, here: here) }
            + unreachable
        let edges = edges(graph.transitions, kinds: graph.kinds, merging: true, tabBar: nodes.count)
        let tabBar = edges.contains(where: { $0.from == nodes.count }) ? nodes.count : nil
        if tabBar != nil { nodes.append(tabBarNode(here: here)) }
        let layout = try FlowMapSVG.layout(nodes: nodes, edges: edges)
        html += figure(FlowMapSVG.draw(layout, nodes: nodes, edges: edges), caption: label("flowMapCaption", [:]))
        if let journeys = places.journeyIndex {
            html += heading(label("journeys", [:]))
            let count = graph.journeys.count
            html += paragraph(
                label(
                    "flowJourneysIntro",
                    ["journeys": counted("flowJourneysCount", count, ["count": number(count)])]))
            html += "<p>" + link(label("flowJourneysLink", [:]), here.relativeURL(to: journeys)) + "</p>\n"
        }
        html += findingList(places, here: here)
        html += heading(label("flowFlows", [:]))
        let counts = Dictionary(uniqueKeysWithValues: (coverage?.counts(in: graph) ?? []).map { ($0.flow, $0) })
        html += "<ul>\n"
        for flow in graph.flows {
            html += "<li>" + link(flow.name, here.relativeURL(to: places.flow[flow.name]!)) + " "
            html += escape(counted("flowKindsCount", flow.kinds.count, ["count": number(flow.kinds.count)]))
            if let count = counts[flow.name], count.total > 0 { html += " · " + escape(coverageCount(count)) }
            html += "</li>\n"
        }
        html += "</ul>\n"
        html += kindTable(graph.kinds, places, here: here, unreachable: places.unreachable)
        html += transitionTable(graph.transitions, here: here, places: places)
        let boxes = layout.nodes.prefix(graph.kinds.count).map {
            FlowRecord.Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height)
        }
        let page = Page(
            path: here, title: label("flowMap", [:]), summary: label("flowMapSummary", [:]), trail: trail,
            content: html, boxes: boxes)
        return (page, WholeMap(nodes: nodes, edges: edges, layout: layout, tabBar: tabBar))
    }

    /// A flow's map, laid out once: its kinds' views draw the same layout.
    private struct FlowView {
        let kinds: [FlowGraph.Kind]
        let edges: [FlowMapSVG.Edge]
        let layout: LayoutResult
    }

    private func flowPage(
        _ flow: (name: String, kinds: [FlowGraph.Kind]), _ places: Places, trail: [(title: String, path: RoutePath)]
    ) throws -> (Page, FlowView) {
        let here = places.flow[flow.name]!
        let members = Set(flow.kinds.map(\.id))
        let transitions = graph.transitions.filter { members.contains($0.from) || members.contains($0.to) }
        let kinds = graph.kinds.filter { kind in
            members.contains(kind.id)
                || transitions.contains { ($0.from == kind.id && !$0.isTabOnly) || $0.to == kind.id }
        }
        var nodes = kinds.map {
            node(
                $0, role: members.contains($0.id) ? .member : .neighbour,
                url: here.relativeURL(to: places.kind[$0.id]!), places, here: here)
        }
        let edges = self.edges(transitions, kinds: kinds, merging: true, tabBar: nodes.count)
        if edges.contains(where: { $0.from == nodes.count }) { nodes.append(tabBarNode(here: here)) }
        let layout = try FlowMapSVG.layout(nodes: nodes, edges: edges)
        var html = paragraph(label("flowIntro", ["flow": flow.name, "kinds": number(flow.kinds.count)]))
        // A flow none of whose transitions start in it has nothing to count.
        if let count = coverage?.counts(in: graph).first(where: { $0.flow == flow.name }), count.total > 0 {
            html += paragraph(
                label(
                    "flowCoverageOfFlow",
                    ["flow": flow.name, "tested": number(count.tested), "total": number(count.total)]))
        }
        html += legend(neighbours: nodes.contains { $0.role == .neighbour } ? "flowLegendNeighbour" : nil)
        html += figure(
            FlowMapSVG.draw(layout, nodes: nodes, edges: edges), caption: label("flowCaption", ["flow": flow.name]))
        html += kindTable(flow.kinds, places, here: here)
        html += transitionTable(transitions, here: here, places: places)
        let title = label("flowOf", ["flow": flow.name])
        let page = Page(
            path: here, title: title, summary: label("flowSummary", ["flow": flow.name]), trail: trail, content: html)
        return (page, FlowView(kinds: kinds, edges: edges, layout: layout))
    }

    /// A kind and its neighbours, on its flow's layout when it has one (other kinds faded), else on its own.
    private func focus(
        _ kind: FlowGraph.Kind, _ places: Places, trail: [(title: String, path: RoutePath)],
        within view: FlowView? = nil
    ) throws -> Page {
        let here = places.kind[kind.id]!
        let out = graph.transitions.filter { $0.from == kind.id }
        let into = graph.transitions.filter { $0.to == kind.id && $0.from != kind.id }
        let neighbourIDs = Set(out.map(\.to) + into.filter { !$0.isTabOnly }.map(\.from))
        let kinds = view?.kinds ?? graph.kinds.filter { $0.id == kind.id || neighbourIDs.contains($0.id) }
        var nodes = kinds.map { other in
            if other.id == kind.id {
                return node(other, role: .focus, url: here.relativeURL(to: other.example.path), places, here: here)
            }
            return node(
                other, role: neighbourIDs.contains(other.id) ? .neighbour : .context,
                url: here.relativeURL(to: places.kind[other.id]!), places, here: here)
        }
        let svg: String
        if let view {
            let focusIndex = kinds.firstIndex { $0.id == kind.id }!
            var edges = view.edges
            for index in edges.indices {
                edges[index].faded = edges[index].from != focusIndex && edges[index].to != focusIndex
            }
            if edges.contains(where: { $0.from == nodes.count }) { nodes.append(tabBarNode(here: here)) }
            svg = FlowMapSVG.draw(view.layout, nodes: nodes, edges: edges)
        } else {
            let edges = self.edges(out + into, kinds: kinds, merging: false, tabBar: nodes.count)
            if edges.contains(where: { $0.from == nodes.count }) { nodes.append(tabBarNode(here: here)) }
            svg = try FlowMapSVG.svg(nodes: nodes, edges: edges)
        }
        let sameDepth = kind.depth.minimum == kind.depth.maximum
        // One depth: "each 2 clicks" for several pages, "2 clicks" for one, "1 click" counted as such.
        let clicks = counted("lintClicks", kind.depth.minimum, ["count": number(kind.depth.minimum)])
        var html = paragraph(
            label(
                sameDepth ? (kind.pages == 1 ? "kindIntroOnePage" : "kindIntroOneDepth") : "kindIntro",
                [
                    "kind": kind.kind.name, "pages": pages(kind.pages), "flow": kind.kind.flow,
                    "minimum": "\(kind.depth.minimum)", "median": "\(kind.depth.median)",
                    "maximum": "\(kind.depth.maximum)", "clicks": clicks
                ]))
        html +=
            "<p>" + escape(label("kindExample", [:])) + " "
            + link(kind.example.title, here.relativeURL(to: kind.example.path)) + "</p>\n"
        html += legend(neighbours: neighbourIDs.isEmpty ? nil : "kindLegendNeighbour")
        html += figure(svg, caption: label("kindCaption", ["kind": kind.kind.name]))
        if let way = kind.wayIn {
            html += heading(label("kindWayIn", [:]))
            html += paragraph(
                label(
                    "kindWayInIntro",
                    [
                        "taps": counted("journeyTaps", way.taps, ["count": number(way.taps)]),
                        "start": way.titles[0], "page": way.titles[way.titles.count - 1]
                    ]))
            html += cards(way, places, here: here, level: 3)
        }
        if !out.isEmpty {
            html += transitionTable(
                out, here: here, places: places, title: label("kindLeadsTo", ["kind": kind.kind.name]))
        }
        if !into.isEmpty {
            html += transitionTable(
                into, here: here, places: places, title: label("kindReachedFrom", ["kind": kind.kind.name]))
        }
        html += journeysThrough(kind, places, here: here)
        return Page(
            path: here, title: label("kindTitle", ["kind": kind.kind.name]),
            summary: label("kindSummary", ["kind": kind.kind.name]), trail: trail, content: html)
    }

    /// Each flow's and kind's page path (slugs made unique with suffixes), and each finding's anchor.
    struct Places {
        var flow: [String: RoutePath] = [:]
        var kind: [String: RoutePath] = [:]
        var findings: [(finding: FlowLintReport.Finding, anchor: String)] = []
        /// With their findings' anchors.
        var unreachable: [(kind: ScreenKind, anchor: String)] = []
        /// The journeys' index, when the app has journeys, and each journey's story, in the graph's order.
        var journeyIndex: RoutePath? = nil
        var journeys: [RoutePath] = []

        init(_ graph: FlowGraph, _ lint: FlowLintReport) {
            var anchors = Set<Slug>()
            for finding in lint.findings {
                let anchor =
                    "finding-"
                    + Self.unique(Slug(finding.rule.id + " " + (finding.kind?.id ?? "")), in: &anchors).rawValue
                findings.append((finding, anchor))
                if finding.rule == .unreachableScreen, let kind = finding.kind { unreachable.append((kind, anchor)) }
            }
            // The journeys' folder is no flow's.
            var flowSlugs: Set<Slug> = [SiteLayout.journeysFolder]
            for group in graph.flows {
                let slug = Self.unique(Slug(group.name), in: &flowSlugs)
                let flowPath = RoutePath([SiteLayout.flowMapFolder, slug])
                flow[group.name] = flowPath
                if group.kinds.count == 1 {
                    kind[group.kinds[0].id] = flowPath
                    continue
                }
                var kindSlugs = Set<Slug>()
                for member in group.kinds {
                    kind[member.id] = flowPath.appending(Self.unique(Slug(member.id), in: &kindSlugs))
                }
            }
            guard !graph.journeys.isEmpty else { return }
            let index = RoutePath([SiteLayout.flowMapFolder, SiteLayout.journeysFolder])
            journeyIndex = index
            var journeySlugs = Set<Slug>()
            journeys = graph.journeys.map { index.appending(Self.unique(Slug($0.name), in: &journeySlugs)) }
        }

        private static func unique(_ slug: Slug, in taken: inout Set<Slug>) -> Slug {
            var candidate = slug
            var number = 2
            while !taken.insert(candidate).inserted {
                candidate = slug.suffixed(number)
                number += 1
            }
            return candidate
        }
    }
}
