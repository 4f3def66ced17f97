/// Flow lint over a walk: one finding per screen kind (or transition) with a count and a few examples, in the
/// site's words (`lint…` labels) and plural forms.
extension SiteGraph {
    /// Runs every rule `configuration` leaves on. `declared` (``Route/screenKindExamples``) is for
    /// `unreachable-screen`; `coverage` for `untested-transition` and the report's counts.
    package func lint(
        _ configuration: FlowLintConfiguration, declared: [ScreenKind], coverage: FlowGraph.Coverage? = nil,
        site: SiteInfo<R>, rules: PluralRules?
    ) -> FlowLintReport {
        var lint = FlowLintRun(graph: self, configuration: configuration)
        let say = LintWords(table: Wording(site.labels, rules: rules), number: site.number)
        let flow = self.flow
        let deepLinks = self.deepLinks
        let journeys = self.journeys
        let kindCount = flow.kinds.count
        func page(_ kind: Int, _ example: FlowGraph.PageReference) -> [String: String] {
            ["kind": flow.kinds[kind].name, "path": example.path.description, "route": example.route]
        }
        for rule in FlowLintRule.all where configuration.runs(rule) {
            switch rule {
            case .unhandledIntent:
                var byKind = Array(
                    repeating: [(route: Int, label: String, target: String, shown: [String])](), count: kindCount)
                for link in flow.unhandled {
                    byKind[Int(flow.kindOfRoute[Int(link.route)])].append(
                        (Int(link.route), link.label, link.target, link.shown))
                }
                for (kind, links) in byKind.enumerated() where !links.isEmpty {
                    let first = links[0]
                    let shown = first.shown.isEmpty ? say("lintShowedNothing") : first.shown.joined(separator: ", ")
                    lint.pagesFinding(rule, kind: kind, routes: links.map(\.route)) { pages, example in
                        var values = page(kind, example).merging([
                            "label": first.label, "target": first.target, "shown": shown
                        ]) { $1 }
                        guard links.count > 1 else { return say("lintUnhandledIntent", values) }
                        values["links"] = say.number(links.count)
                        return say("lintUnhandledIntentOnPages", count: pages, values)
                    }
                }
            case .unreachableScreen:
                guard !declared.isEmpty else {
                    lint.notes.append(say("lintNoScreenKinds"))
                    continue
                }
                let reached = Set(flow.kinds.map(\.id))
                var seen = Set<String>()
                for kind in declared where !reached.contains(kind.id) && seen.insert(kind.id).inserted {
                    lint.add(
                        FlowLintReport.Finding(
                            rule: rule, kind: kind,
                            message: say("lintUnreachableScreen", ["kind": kind.name, "id": kind.id]),
                            count: 1, examples: [], location: kind.location,
                            suppression: lint.kindSuppression(rule, kind.id)
                        ))
                }
            case .deadEnd, .emptyState, .unlinkableRoute, .modalOnly:
                let (key, found): (String, [Int]) =
                    switch rule {
                    // What leads on from a dead end: the tab bar, or else only the trail back (in the app's own
                    // words when it translated only the first).
                    case .deadEnd:
                        (
                            site.navigation.isEmpty
                                && (site.labels["lintDeadEndTrail.other"] != nil
                                    || site.labels["lintDeadEnd.other"] == nil)
                                ? "lintDeadEndTrail" : "lintDeadEnd", flow.deadEnds.map(Int.init)
                        )
                    case .emptyState: ("lintEmptyState", flow.emptyStates.map(Int.init))
                    case .unlinkableRoute: ("lintUnlinkableRoute", deepLinks?.unlinkable ?? [])
                    // Reached only from dialogs.
                    default: ("lintModalOnly", flow.reached.indices.filter { $0 > 0 && flow.reached[$0] & 3 == 1 })
                    }
                for (kind, routes) in lint.byKind(found) {
                    lint.pagesFinding(rule, kind: kind, routes: routes) { pages, example in
                        say(key, count: pages, page(kind, example))
                    }
                }
            case .deepLinkRoundTrip:
                let mismatches = deepLinks?.mismatches ?? []
                for (kind, routes) in lint.byKind(mismatches.map(\.route)) {
                    let first = mismatches.first { $0.route == routes[0] }!
                    lint.pagesFinding(rule, kind: kind, routes: routes) { pages, example in
                        say(
                            "lintDeepLinkRoundTrip", count: pages,
                            page(kind, example).merging(["url": first.url, "parsed": first.parsed]) { $1 })
                    }
                }
            case .unknownDeepLink:
                if let opened = deepLinks?.unknownOpened, let first = opened.first {
                    lint.add(
                        FlowLintReport.Finding(
                            rule: rule, kind: nil,
                            message: say(
                                "lintUnknownDeepLink", count: opened.count, ["url": first.url, "parsed": first.parsed]),
                            count: opened.count, examples: [], location: nil, suppression: nil
                        ))
                }
            case .clickDepth:
                let maximum = Int32(configuration.maximumClickDepth)
                let deep = flow.depth.indices.filter { flow.depth[$0] > maximum }
                for (kind, routes) in lint.byKind(deep) {
                    let deepest = routes.max { flow.depth[$0] < flow.depth[$1] }!
                    // Points at the navigation that makes the path long: a transition taken many times in a row,
                    // else the click that goes past the limit.
                    let repeated = flow.chainStart(to: deepest).flatMap { $0.links > 1 ? $0 : nil }
                    let past = repeated == nil ? flow.step(to: deepest, click: Int(maximum) + 1) : nil
                    let chain = repeated ?? past.map { (key: $0, links: 1) }
                    let run = chain.map { chain in
                        let (from, to, presentation) = FlowRecorder.parts(of: chain.key)
                        let values = [
                            "from": flow.kinds[from].name, "to": flow.kinds[to].name,
                            "presentation": presentation.rawValue
                        ]
                        return repeated == nil
                            ? say("lintClickDepthPast", values) : say("lintClickDepthRun", count: chain.links, values)
                    }
                    let values = [
                        "kind": flow.kinds[kind].name, "run": run ?? "",
                        "maximumClicks": say("lintClicks", count: Int(maximum)),
                        "deepestClicks": say("lintClicks", count: Int(flow.depth[deepest])),
                        "path": table.path(of: deepest).description, "route": table.routes[deepest].shownName
                    ]
                    lint.pagesFinding(
                        rule, kind: kind, routes: routes, location: chain.flatMap { flow.transitions[$0.key]?.location }
                    ) { pages, _ in
                        say("lintClickDepth", count: pages, values)
                    }
                }
            case .modalOverModal:
                for key in flow.transitions.keys.sorted() {
                    let transition = flow.transitions[key]!
                    let (_, to, presentation) = FlowRecorder.parts(of: key)
                    guard presentation == .modal, transition.fromDialogs > 0, let example = transition.dialogExample
                    else { continue }
                    let from = pageReference(Int(example.from))
                    let target = pageReference(Int(example.to))
                    let suppressed =
                        lint.kindSuppression(rule, flow.kinds[to].id) ?? lint.pageSuppression(rule, target.path)
                    let values = page(to, target).merging(["fromPath": from.path.description, "fromRoute": from.route])
                    { $1 }
                    lint.add(
                        FlowLintReport.Finding(
                            rule: rule, kind: flow.kinds[to],
                            message: say("lintModalOverModal", count: transition.fromDialogs, values),
                            count: transition.fromDialogs, examples: [from, target], location: transition.location,
                            suppression: suppressed
                        ))
                }
            case .emptyLinkLabel, .ambiguousLinkLabel:
                let empty = rule == .emptyLinkLabel
                let pages = flow.labelProblems.filter {
                    empty ? $0.problems.emptyCount > 0 : $0.problems.ambiguousCount > 0
                }
                for (kind, routes) in lint.byKind(pages.map { Int($0.route) }) {
                    let firstActive = routes.first { lint.isActive(rule, $0) } ?? routes[0]
                    let problems = pages.first { Int($0.route) == firstActive }?.problems
                    lint.pagesFinding(rule, kind: kind, routes: routes) { count, example in
                        if empty {
                            return say(
                                "lintEmptyLinkLabel", count: count,
                                page(kind, example).merging(["target": problems?.firstEmpty?.description ?? "?"]) { $1 }
                            )
                        }
                        let first = problems?.firstAmbiguous
                        let values = [
                            "label": first?.label ?? "", "first": first?.first.description ?? "?",
                            "second": first?.second.description ?? "?"
                        ]
                        return say("lintAmbiguousLinkLabel", count: count, page(kind, example).merging(values) { $1 })
                    }
                }
            case .journeyBroken:
                for journey in journeys.journeys {
                    guard let broken = journey.broken else { continue }
                    let at = journey.pages.last.map(pageReference)
                    var values = [
                        "journey": journey.name, "step": say.number(broken.step),
                        "page": at.map { table.titles[journey.pages.last!] ?? $0.route } ?? "",
                        "path": at?.path.description ?? ""
                    ]
                    func quoted(_ labels: [String]) -> String {
                        guard !labels.isEmpty else { return say("lintJourneyNothing") }
                        let shown = labels.prefix(6).map { "'\($0)'" }.joined(separator: ", ")
                        return labels.count > 6 ? shown + ", …" : shown
                    }
                    let key: String
                    switch broken.why {
                    case .startNotAPage(let route):
                        key = "lintJourneyStart"
                        values["route"] = route
                    case .noLink(let wanted, let offered):
                        key = "lintJourneyNoLink"
                        values["label"] = wanted
                        values["offered"] = quoted(offered)
                    case .noTab(let wanted, let offered):
                        key = "lintJourneyNoTab"
                        values["label"] = wanted
                        values["offered"] = quoted(offered)
                    case .tabOnDialog(let wanted):
                        key = "lintJourneyTabOnDialog"
                        values["label"] = wanted
                    case .presented(let label, let shown, let expected):
                        key = "lintJourneyPresented"
                        values["label"] = label
                        values["shown"] = shown.rawValue
                        values["expected"] = expected.rawValue
                    case .notShown(let label):
                        key = "lintJourneyNotShown"
                        values["label"] = label
                    case .expectation(let expected):
                        key = "lintJourneyExpectation"
                        values["expected"] =
                            switch expected {
                            case .title(let title): say("lintJourneyTitle", ["title": title])
                            case .emptyState: say("lintJourneyEmptyState")
                            case .ending: say("lintJourneyEnding")
                            }
                    case .failed(let route, let error):
                        key = "lintJourneyFailed"
                        values["route"] = route
                        values["error"] = error
                    }
                    lint.add(
                        FlowLintReport.Finding(
                            rule: rule, kind: nil, message: say(key, values), count: 1,
                            examples: at.map { [$0] } ?? [], location: journey.location, suppression: nil
                        ))
                }
            case .untestedTransition:
                guard let coverage else {
                    lint.notes.append(say("lintNoCoverage"))
                    continue
                }
                // Per transition, on the kind whose pages offer it, at the code that presents it.
                for key in flow.transitions.keys.sorted() {
                    let transition = flow.transitions[key]!
                    let (from, to, presentation) = FlowRecorder.parts(of: key)
                    // Tab selections start from the tab bar, as the map draws them.
                    let onlyTabs = transition.tabs > 0 && transition.tabs == transition.links
                    guard
                        !coverage.covers(
                            from: flow.kinds[from].id, to: flow.kinds[to].id, presentation: presentation,
                            onlyTabs: onlyTabs)
                    else { continue }
                    let source = pageReference(Int(transition.example.from))
                    let target = pageReference(Int(transition.example.to))
                    let values = [
                        "from": onlyTabs ? say("flowTabBar") : flow.kinds[from].name, "to": flow.kinds[to].name,
                        "presentation": presentation.rawValue,
                        "source": source.path.description, "target": target.path.description
                    ]
                    lint.add(
                        FlowLintReport.Finding(
                            rule: rule, kind: flow.kinds[from],
                            message: say("lintUntestedTransition", count: transition.links, values),
                            count: transition.links, examples: [source, target], location: transition.location,
                            suppression: lint.kindSuppression(rule, flow.kinds[from].id)
                                ?? lint.pageSuppression(rule, source.path)
                        ))
                }
            default:
                break
            }
        }
        // Coverage of transitions the flow no longer has counts for nothing: say so.
        let kinds = coverage == nil ? nil : flowGraph(lint: nil, coverage: nil)
        if let coverage, let kinds { lint.notes += coverage.staleNotes(in: kinds, say) }
        if configuration.runs(.unusedSuppression) {
            for suppression in lint.unusedSuppressions() {
                let target =
                    suppression.kind.map { say("lintSuppressionKind", ["kind": $0]) }
                    ?? suppression.page.map { say("lintSuppressionPage", ["page": $0]) }
                    ?? say("lintSuppressionNowhere")
                lint.add(
                    FlowLintReport.Finding(
                        rule: .unusedSuppression, kind: nil,
                        message: say(
                            "lintUnusedSuppression",
                            ["rule": suppression.rule, "target": target, "reason": suppression.reason]),
                        count: 1, examples: [], location: nil, suppression: nil))
            }
        }
        for (id, reason) in configuration.disabledRules.sorted(by: { $0.key < $1.key }) {
            lint.notes.append(say("lintRuleOff", ["rule": id, "reason": reason]))
        }
        var report = FlowLintReport(findings: lint.findings, configuration: configuration, notes: lint.notes)
        if let coverage, let kinds { report.coverage = coverage.counts(in: kinds) }
        return report
    }
}

/// Flow lint's words, `{count}` written as the site writes numbers.
struct LintWords {
    let table: Wording
    let number: (Int) -> String

    func callAsFunction(_ key: String, _ values: [String: String] = [:]) -> String {
        table.text(key, values)
    }

    func callAsFunction(_ key: String, count: Int, _ values: [String: String] = [:]) -> String {
        var values = values
        values["count"] = number(count)
        return table.text(key, count: count, values)
    }
}

private struct FlowLintRun<R: Route> {
    let graph: SiteGraph<R>
    let configuration: FlowLintConfiguration
    var findings: [FlowLintReport.Finding] = []
    var notes: [String] = []
    /// By rule, with each page's path.
    private let pageSuppressions: [String: [(path: String, reason: String)]]
    /// The page suppressions (rule and path) that left out a page, for `unused-suppression`.
    private let usedPages = UsedPages()

    final class UsedPages {
        var keys: Set<[String]> = []
    }

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

    /// Kinds and routes in walk order.
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
        guard let reason = pages.first(where: { $0.path == text })?.reason else { return nil }
        usedPages.keys.insert([rule.id, text])
        return reason
    }

    /// The suppressions that left out nothing: for a kind, no finding of its rule on that kind; for a page, no
    /// finding of its rule on that page; one naming neither never applies.
    func unusedSuppressions() -> [FlowLintConfiguration.Suppression] {
        configuration.suppressions.filter { suppression in
            if let kind = suppression.kind {
                return !findings.contains { $0.rule.id == suppression.rule && $0.kind?.id == kind }
            }
            if let page = suppression.page {
                let path = "/" + page.split(separator: "/").map { $0 + "/" }.joined()
                return !usedPages.keys.contains([suppression.rule, path])
            }
            return true
        }
    }

    func isActive(_ rule: FlowLintRule, _ route: Int) -> Bool {
        pageSuppressions[rule.id] == nil || pageSuppression(rule, graph.table.path(of: route)) == nil
    }

    /// A finding for `routes` of `kind`, without pages suppressed one by one; suppressed whole when its kind or
    /// every page is. `message` gets the number of pages that count and the first of them.
    mutating func pagesFinding(
        _ rule: FlowLintRule, kind: Int, routes: [Int], location: CodeLocation? = nil,
        message: (Int, FlowGraph.PageReference) -> String
    ) {
        let screenKind = graph.flow.kinds[kind]
        var active = routes
        var reasons: [String] = []
        if pageSuppressions[rule.id] != nil {
            active = routes.filter { route in
                guard let reason = pageSuppression(rule, graph.table.path(of: route)) else { return true }
                if !reasons.contains(reason) { reasons.append(reason) }
                return false
            }
        }
        let kindReason = kindSuppression(rule, screenKind.id)
        let shown = active.isEmpty || kindReason != nil ? routes : active
        let examples = shown.prefix(3).map { graph.pageReference($0) }
        findings.append(
            FlowLintReport.Finding(
                rule: rule, kind: screenKind, message: message(shown.count, examples[0]), count: shown.count,
                examples: examples,
                location: location ?? graph.flow.kindLocations[kind],
                suppression: kindReason ?? (active.isEmpty ? reasons.joined(separator: "; ") : nil)
            ))
    }
}
