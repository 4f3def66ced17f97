/// Flow lint over a walk: each rule turns the walk's records into findings, one per screen
/// kind (or per transition), so a rule broken by ten thousand pages of one kind reads as one
/// finding with a count and a few examples.
extension SiteGraph {
    /// Runs every rule `configuration` leaves on. `declared` are the kinds the app declares
    /// (``Route/screenKindExamples``), for `unreachable-screen`; `coverage` the transitions the
    /// app's tests take, for `untested-transition` and the report's counts.
    package func lint(_ configuration: FlowLintConfiguration, declared: [ScreenKind], coverage: FlowGraph.Coverage? = nil) -> FlowLintReport {
        var lint = FlowLintRun(graph: self, configuration: configuration)
        let flow = self.flow
        let deepLinks = self.deepLinks
        let kindCount = flow.kinds.count
        for rule in FlowLintRule.all where configuration.runs(rule) {
            switch rule {
            case .unhandledIntent:
                var byKind = Array(repeating: [(route: Int, label: String, target: String, shown: [String])](), count: kindCount)
                for link in flow.unhandled { byKind[Int(flow.kindOfRoute[Int(link.route)])].append((Int(link.route), link.label, link.target, link.shown)) }
                for (kind, links) in byKind.enumerated() where !links.isEmpty {
                    let first = links[0]
                    let shown = first.shown.isEmpty ? "nothing" : first.shown.joined(separator: ", ")
                    lint.pagesFinding(rule, kind: kind, routes: links.map(\.route)) { pages, example in
                        "The link '\(first.label)' on \(example.path) (\(example.route)) leads to \(first.target), but following it showed \(shown)"
                            + (links.count > 1 ? "; \(links.count) such links on \(pages) \(flow.kinds[kind].name) page(s)" : "")
                    }
                }
            case .unreachableScreen:
                guard !declared.isEmpty else {
                    lint.notes.append("unreachable-screen: the route type declares no screenKindExamples, so there is nothing to compare the reached kinds with.")
                    continue
                }
                let reached = Set(flow.kinds.map(\.id))
                var seen = Set<String>()
                for kind in declared where !reached.contains(kind.id) && seen.insert(kind.id).inserted {
                    lint.add(FlowLintReport.Finding(
                        rule: rule, kind: kind,
                        message: "No page of the kind \(kind.name) (\(kind.id)) is reachable: no link from the start page leads to one.",
                        count: 1, examples: [], location: kind.location, suppression: lint.kindSuppression(rule, kind.id)
                    ))
                }
            case .deadEnd:
                for (kind, routes) in lint.byKind(flow.deadEnds.map(Int.init)) {
                    lint.pagesFinding(rule, kind: kind, routes: routes) { pages, example in
                        "\(pages) \(flow.kinds[kind].name) page(s) have no link of their own, only the site-wide navigation: e.g. \(example.path) (\(example.route))"
                    }
                }
            case .emptyState:
                for (kind, routes) in lint.byKind(flow.emptyStates.map(Int.init)) {
                    lint.pagesFinding(rule, kind: kind, routes: routes) { pages, example in
                        "\(pages) \(flow.kinds[kind].name) page(s) show their empty state: e.g. \(example.path) (\(example.route))"
                    }
                }
            case .unlinkableRoute:
                for (kind, routes) in lint.byKind(deepLinks?.unlinkable ?? []) {
                    lint.pagesFinding(rule, kind: kind, routes: routes) { pages, example in
                        "\(pages) \(flow.kinds[kind].name) page(s) have no deep link: e.g. \(example.path) (\(example.route))"
                    }
                }
            case .deepLinkRoundTrip:
                let mismatches = deepLinks?.mismatches ?? []
                for (kind, routes) in lint.byKind(mismatches.map(\.route)) {
                    let first = mismatches.first { $0.route == routes[0] }!
                    lint.pagesFinding(rule, kind: kind, routes: routes) { pages, example in
                        "\(pages) \(flow.kinds[kind].name) page(s) don't come back from their deep link: e.g. \(example.route) links to \(first.url), which the app's parser reads as \(first.parsed)"
                    }
                }
            case .unknownDeepLink:
                if let opened = deepLinks?.unknownOpened, let first = opened.first {
                    lint.add(FlowLintReport.Finding(
                        rule: rule, kind: nil,
                        message: "\(opened.count) unknown link(s) open a screen instead of the not-found one: e.g. \(first.url) opens \(first.parsed)",
                        count: opened.count, examples: [], location: nil, suppression: nil
                    ))
                }
            case .clickDepth:
                let maximum = Int32(configuration.maximumClickDepth)
                let deep = flow.depth.indices.filter { flow.depth[$0] > maximum }
                for (kind, routes) in lint.byKind(deep) {
                    let deepest = routes.max { flow.depth[$0] < flow.depth[$1] }!
                    // The finding points at the navigation that makes the path long.
                    let chain = flow.chainStart(to: deepest)
                    let run = chain.map { chain in
                        let (from, to, presentation) = FlowRecorder.parts(of: chain.key)
                        return ", \(chain.links) of them \(flow.kinds[from].name) → \(flow.kinds[to].name) (\(presentation.rawValue)) in a row"
                    }
                    lint.pagesFinding(rule, kind: kind, routes: routes, location: chain.flatMap { flow.transitions[$0.key]?.location }) { pages, example in
                        "\(pages) \(flow.kinds[kind].name) page(s) are more than \(maximum) clicks from the start page, the deepest \(flow.depth[deepest]) clicks\(run ?? ""): \(self.table.routes[deepest].path) (\(self.table.routes[deepest]))"
                    }
                }
            case .modalOverModal:
                for key in flow.transitions.keys.sorted() {
                    let transition = flow.transitions[key]!
                    let (_, to, presentation) = FlowRecorder.parts(of: key)
                    guard presentation == .modal, transition.fromDialogs > 0, let example = transition.dialogExample else { continue }
                    let from = pageReference(Int(example.from)), target = pageReference(Int(example.to))
                    let suppressed = lint.kindSuppression(rule, flow.kinds[to].id) ?? lint.pageSuppression(rule, target.path)
                    lint.add(FlowLintReport.Finding(
                        rule: rule, kind: flow.kinds[to],
                        message: "\(flow.kinds[to].name) is presented as a dialog over a dialog \(transition.fromDialogs) time(s): e.g. \(target.path) (\(target.route)) over \(from.path) (\(from.route))",
                        count: transition.fromDialogs, examples: [from, target], location: transition.location, suppression: suppressed
                    ))
                }
            case .modalOnly:
                let onlyDialogs = flow.reached.indices.filter { $0 > 0 && flow.reached[$0] == 1 }
                for (kind, routes) in lint.byKind(onlyDialogs) {
                    lint.pagesFinding(rule, kind: kind, routes: routes) { pages, example in
                        "\(pages) \(flow.kinds[kind].name) page(s) are reached only from dialogs: e.g. \(example.path) (\(example.route))"
                    }
                }
            case .emptyLinkLabel, .ambiguousLinkLabel:
                let empty = rule == .emptyLinkLabel
                let pages = flow.labelProblems.filter { empty ? $0.problems.emptyCount > 0 : $0.problems.ambiguousCount > 0 }
                for (kind, routes) in lint.byKind(pages.map { Int($0.route) }) {
                    let firstActive = routes.first { lint.isActive(rule, $0) } ?? routes[0]
                    let problems = pages.first { Int($0.route) == firstActive }?.problems
                    lint.pagesFinding(rule, kind: kind, routes: routes) { count, example in
                        if empty {
                            return "\(count) \(flow.kinds[kind].name) page(s) have links without text: e.g. \(example.path) links to \(problems?.firstEmpty?.description ?? "?") with no text"
                        }
                        let first = problems?.firstAmbiguous
                        return "\(count) \(flow.kinds[kind].name) page(s) use one link text for different pages: e.g. on \(example.path), '\(first?.label ?? "")' leads to \(first?.first.description ?? "?") and to \(first?.second.description ?? "?")"
                    }
                }
            case .untestedTransition:
                guard let coverage else {
                    lint.notes.append("untested-transition: no flow coverage was given (FlowLinter.coverage, SiteBuilder.flowCoverage), so there is nothing to compare the transitions with.")
                    continue
                }
                // One finding per transition, on the kind whose pages offer it, located at the
                // code that presents it: what a coordinator test would drive.
                for key in flow.transitions.keys.sorted() {
                    let transition = flow.transitions[key]!
                    let (from, to, presentation) = FlowRecorder.parts(of: key)
                    let taken = FlowGraph.Coverage.Transition(from: flow.kinds[from].id, to: flow.kinds[to].id, presentation: presentation)
                    guard !coverage.transitions.contains(taken) else { continue }
                    let source = pageReference(Int(transition.example.from)), target = pageReference(Int(transition.example.to))
                    lint.add(FlowLintReport.Finding(
                        rule: rule, kind: flow.kinds[from],
                        message: "No test takes \(flow.kinds[from].name) → \(flow.kinds[to].name) (\(presentation.rawValue)), \(transition.links) link(s): e.g. \(source.path) → \(target.path)",
                        count: transition.links, examples: [source, target], location: transition.location,
                        suppression: lint.kindSuppression(rule, flow.kinds[from].id) ?? lint.pageSuppression(rule, source.path)
                    ))
                }
            default:
                break
            }
        }
        // Coverage of transitions the flow no longer has counts for nothing: say so, by file.
        if let coverage { lint.notes += coverage.staleNotes(in: flowGraph) }
        for (id, reason) in configuration.disabledRules.sorted(by: { $0.key < $1.key }) {
            lint.notes.append("\(id) is off: \(reason)")
        }
        var report = FlowLintReport(findings: lint.findings, configuration: configuration, notes: lint.notes)
        report.coverage = coverage.map { $0.counts(in: flowGraph) }
        return report
    }
}

/// The state of one lint run: the findings so far and the suppressions to apply.
private struct FlowLintRun<R: Route> {
    let graph: SiteGraph<R>
    let configuration: FlowLintConfiguration
    var findings: [FlowLintReport.Finding] = []
    var notes: [String] = []
    /// The page suppressions by rule, with each page's path, so a page is matched once.
    private let pageSuppressions: [String: [(path: String, reason: String)]]

    init(graph: SiteGraph<R>, configuration: FlowLintConfiguration) {
        self.graph = graph
        self.configuration = configuration
        var pages: [String: [(String, String)]] = [:]
        for suppression in configuration.suppressions {
            guard let page = suppression.page else { continue }
            let slugs = page.split(separator: "/")
            pages[suppression.rule, default: []].append(("/" + slugs.map { $0 + "/" }.joined(), suppression.reason))
        }
        pageSuppressions = pages
    }

    mutating func add(_ finding: FlowLintReport.Finding) { findings.append(finding) }

    /// `routes` grouped by their kind, kinds in walk order, routes in walk order.
    func byKind(_ routes: [Int]) -> [(Int, [Int])] {
        var groups: [Int: [Int]] = [:]
        for route in routes { groups[Int(graph.flow.kindOfRoute[route]), default: []].append(route) }
        return groups.keys.sorted().map { ($0, groups[$0]!) }
    }

    func kindSuppression(_ rule: FlowLintRule, _ kind: String) -> String? {
        configuration.suppressions.first { $0.covers(rule: rule.id, kind: kind) }?.reason
    }

    func pageSuppression(_ rule: FlowLintRule, _ path: RoutePath) -> String? {
        guard let pages = pageSuppressions[rule.id] else { return nil }
        let text = path.description
        return pages.first { $0.path == text }?.reason
    }

    /// Whether the page at `route` is not suppressed for `rule`.
    func isActive(_ rule: FlowLintRule, _ route: Int) -> Bool {
        pageSuppressions[rule.id] == nil || pageSuppression(rule, graph.table.routes[route].path) == nil
    }

    /// A finding for the pages `routes` of `kind` (located at `location`, else at the kind's
    /// first page), without the pages suppressed one by one;
    /// suppressed whole when its kind is, or when every page is. `message` gets the number of
    /// pages that count and the first of them.
    mutating func pagesFinding(
        _ rule: FlowLintRule, kind: Int, routes: [Int], location: CodeLocation? = nil, message: (Int, FlowGraph.PageReference) -> String
    ) {
        let screenKind = graph.flow.kinds[kind]
        var active = routes
        var reasons: [String] = []
        if pageSuppressions[rule.id] != nil {
            active = routes.filter { route in
                guard let reason = pageSuppression(rule, graph.table.routes[route].path) else { return true }
                if !reasons.contains(reason) { reasons.append(reason) }
                return false
            }
        }
        let kindReason = kindSuppression(rule, screenKind.id)
        let shown = active.isEmpty || kindReason != nil ? routes : active
        let examples = shown.prefix(3).map { graph.pageReference($0) }
        findings.append(FlowLintReport.Finding(
            rule: rule, kind: screenKind, message: message(shown.count, examples[0]), count: shown.count, examples: examples,
            location: location ?? graph.flow.kindLocations[kind],
            suppression: kindReason ?? (active.isEmpty ? reasons.joined(separator: "; ") : nil)
        ))
    }
}
