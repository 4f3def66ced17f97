/// The app's flow at the level people read it: screen kinds as nodes, and the transitions between them, each with
/// its presentation and the number of page links it stands for.
///
/// A build makes it from the walk (``BuildReport/flow``, or ``FlowLinter/walk()`` without building); the flow
/// map draws it and flow lint reads it, and an app or a tool may read it too: its ``kinds`` and ``transitions``,
/// each with an example page or link and the app's code that made it. Its order depends only on the app: kinds as
/// the walk first reached them, transitions by their kinds and presentation.
public struct FlowGraph: Sendable, Hashable {
    /// One kind of screen and what the walk found of it.
    public struct Kind: Sendable, Hashable, Identifiable {
        /// The kind's stable id, name and flow.
        public let kind: ScreenKind
        /// How many pages of this kind the site has.
        public let pages: Int
        /// The fewest clicks from the start page to its pages: the least, the median and the most.
        public let depth: Depth
        /// The first page of the kind the walk reached: its list, or its first page.
        public let example: PageReference
        /// Where the kind's first page was made in the app's code.
        public let location: CodeLocation?
        /// How many of its pages a deep link opens that the parser reads back as the same route.
        public package(set) var deepLinkedPages = 0
        /// The shortest way from the start page to ``example``, as the kind's flow map page shows it; `nil` for the
        /// start page's kind and one no link reaches.
        package var wayIn: JourneyRecord?

        public var id: String { kind.id }
    }

    /// The least, median and most clicks from the start page over a kind's pages.
    public struct Depth: Sendable, Hashable {
        /// The clicks to the kind's nearest page.
        public let minimum: Int
        /// The median of its pages' clicks: how deep the kind usually is.
        public let median: Int
        /// The clicks to the kind's farthest page, the one `click-depth` judges.
        public let maximum: Int
    }

    /// All the links from pages of one kind to pages of another that share a presentation.
    public struct Transition: Sendable, Hashable {
        /// The id of the kind whose pages hold the links.
        public let from: String
        /// The id of the kind the links lead to.
        public let to: String
        /// How the app presents the target.
        public let presentation: Presentation
        /// How many page links it stands for.
        public internal(set) var links: Int
        /// The app's code that chose the presentation, the first time the walk followed it.
        public let location: CodeLocation?
        /// The first link of the transition the walk followed.
        public let example: Link
        /// How many of its links are tab selections, which the flow map draws from the tab bar.
        public package(set) var tabSelections = 0

        /// Whether every link of it is a tab selection.
        var isTabOnly: Bool { tabSelections > 0 && tabSelections == links }
    }

    /// A link from one page to another.
    public struct Link: Sendable, Hashable {
        /// The page the link is on.
        public let from: PageReference
        /// The page it leads to.
        public let to: PageReference
    }

    /// A page, as the flow names it.
    public struct PageReference: Sendable, Hashable {
        /// The page's path, such as `/characters/luke-skywalker/`.
        public let path: RoutePath
        /// The page's title (its full title, where its breadcrumb shows a short one).
        public let title: String
        /// The route, as the app prints it.
        public let route: String
    }

    /// Every kind the walk reached, in the order it first reached one; the first is the start page's.
    public let kinds: [Kind]
    /// Every transition, ordered by source kind, target kind and presentation.
    public let transitions: [Transition]
    /// The app's journeys as the walk took them, then its tests' (with flow coverage): for `graph --format json`,
    /// the journey pages and the flow record.
    package var journeys: [JourneyRecord] = []

    /// The kind with `id`.
    public func kind(_ id: String) -> Kind? { kinds.first { $0.id == id } }

    /// The flows, in the order their first kind was reached, each with its kinds.
    package var flows: [(name: String, kinds: [Kind])] {
        var order: [String] = []
        var members: [String: [Kind]] = [:]
        for kind in kinds {
            if members[kind.kind.flow] == nil { order.append(kind.kind.flow) }
            members[kind.kind.flow, default: []].append(kind)
        }
        return order.map { ($0, members[$0]!) }
    }
}

extension SiteGraph {
    /// The kind-level graph of what the walk found, with the journeys: the declared ones, each broken one with its
    /// `lint` finding's words, then the tests' in `coverage`.
    func flowGraph(lint: FlowLintReport?, coverage: FlowGraph.Coverage?) -> FlowGraph {
        let recorder = flow
        var pagesByKind = Array(repeating: 0, count: recorder.kinds.count)
        var examples: [Int?] = Array(repeating: nil, count: recorder.kinds.count)
        // Click depths per kind as counts per depth: a kind of 100,000 pages needs no sort.
        var histograms = Array(repeating: [Int](), count: recorder.kinds.count)
        var linked = Array(repeating: 0, count: recorder.kinds.count)
        for route in routes.indices {
            let kind = Int(recorder.kindOfRoute[route])
            pagesByKind[kind] += 1
            if deepLinks?.roundTrips[route] == true { linked[kind] += 1 }
            if examples[kind] == nil { examples[kind] = route }
            let depth = Int(
                max(0, recorder.depth[route] < 0 ? Int32(table.stack(of: route).count - 1) : recorder.depth[route]))
            if histograms[kind].count <= depth {
                histograms[kind] += Array(repeating: 0, count: depth + 1 - histograms[kind].count)
            }
            histograms[kind][depth] += 1
        }
        let kinds = recorder.kinds.indices.map { index in
            var kind = FlowGraph.Kind(
                kind: recorder.kinds[index], pages: pagesByKind[index], depth: Self.depth(histograms[index]),
                example: pageReference(examples[index]!), location: recorder.kindLocations[index]
            )
            kind.deepLinkedPages = linked[index]
            kind.wayIn = wayIn(to: examples[index]!, kind: recorder.kinds[index])
            return kind
        }
        let transitions = recorder.transitions.keys.sorted().map { key in
            let (from, to, presentation) = FlowRecorder.parts(of: key)
            let transition = recorder.transitions[key]!
            var drawn = FlowGraph.Transition(
                from: recorder.kinds[from].id, to: recorder.kinds[to].id, presentation: presentation,
                links: transition.links,
                location: transition.location,
                example: .init(
                    from: pageReference(Int(transition.example.from)), to: pageReference(Int(transition.example.to)))
            )
            drawn.tabSelections = transition.tabs
            return drawn
        }
        var graph = FlowGraph(kinds: kinds, transitions: transitions)
        // Flow lint words each broken journey's finding, in the journeys' order.
        var reasons = (lint?.findings ?? []).filter { $0.rule == .journeyBroken }.map(\.message).makeIterator()
        graph.journeys = journeys.journeys.map { taken in
            JourneyRecord(
                name: taken.name, source: JourneyRecord.declared, location: taken.location.description,
                pages: taken.pages.map { table.path(of: $0).description }, titles: taken.pages.map(pageTitle),
                kinds: taken.pages.map { recorder.kinds[Int(recorder.kindOfRoute[$0])].id },
                steps: taken.presentations.indices.map { step in
                    JourneyRecord.Step(
                        label: taken.labels[step], presentation: taken.presentations[step].rawValue,
                        tab: taken.tabs[step])
                },
                brokenAtStep: taken.broken?.step, broken: taken.broken == nil ? nil : reasons.next(),
                wanted: taken.wanted)
        }
        for journey in coverage?.journeys ?? [] {
            let pages = journey.steps.map(\.path)
            graph.journeys.append(
                JourneyRecord(
                    name: Self.sentence(fromTestName: journey.test), source: JourneyRecord.test,
                    location: journey.suite + "." + journey.test, pages: pages,
                    titles: pages.map { path in table.index(ofPath: RoutePath(parsing: path)).map(pageTitle) ?? path },
                    kinds: journey.steps.map(\.kind),
                    steps: journey.steps.indices.dropFirst().map { step in
                        let shown = journey.steps[step]
                        return JourneyRecord.Step(
                            label: nil, presentation: shown.presentation ?? Presentation.push.rawValue,
                            tab: shown.tab == true,
                            from: shown.from.flatMap { from in pages[..<step].lastIndex(of: from) },
                            elsewhere: shown.from.flatMap { from in
                                pages[..<step].contains(from) ? nil : elsewhere(from)
                            })
                    }))
        }
        return graph
    }

    /// A test's name as a journey's: `aFilmOpensItsPlanets()` reads "A film opens its planets"; a run of capitals
    /// (`URL`) stays one word, and a name that is not camel case stays as it is, without its `()`.
    static func sentence(fromTestName name: String) -> String {
        let bare = name.hasSuffix("()") ? String(name.dropLast(2)) : name
        let letters = Array(bare)
        guard letters.allSatisfy({ $0.isLetter || $0.isNumber }), letters.first?.isLowercase == true else {
            return bare
        }
        var words: [String] = []
        var word = ""
        for (index, letter) in letters.enumerated() {
            let previous = index > 0 ? letters[index - 1] : nil
            let next = index + 1 < letters.count ? letters[index + 1] : nil
            // A capital starts a word after a small letter or digit, or ends a run of capitals before a small one.
            if letter.isUppercase, let previous,
                !previous.isUppercase || next?.isLowercase == true
            {
                words.append(word)
                word = ""
            }
            word.append(letter)
        }
        words.append(word)
        let shown = words.enumerated().map { index, word in
            // "URL" stays; "Film" and a lone "A" inside the sentence read in small letters.
            let isAcronym = word.count > 1 && word.allSatisfy { $0.isUppercase || $0.isNumber }
            if isAcronym { return word }
            return index == 0 ? word.prefix(1).uppercased() + word.dropFirst() : word.lowercased()
        }
        return shown.joined(separator: " ")
    }

    /// The shortest way in to `route`, the first page of `kind`: its pages' titles and how each was reached (a
    /// page is reached by one link, so the way has no link texts). `nil` for the start page and an unreached one.
    private func wayIn(to route: Int, kind: ScreenKind) -> JourneyRecord? {
        guard route > 0, let way = flow.wayIn(to: route) else { return nil }
        return JourneyRecord(
            name: kind.name, source: JourneyRecord.shortest, location: nil,
            pages: way.map { table.path(of: $0.page).description }, titles: way.map { pageTitle($0.page) },
            kinds: way.map { flow.kinds[Int(flow.kindOfRoute[$0.page])].id },
            steps: way.dropFirst().map {
                JourneyRecord.Step(label: nil, presentation: $0.presentation.rawValue, tab: $0.tab)
            })
    }

    /// A page a test started a step from without showing it first.
    private func elsewhere(_ path: String) -> JourneyRecord.Elsewhere {
        guard let index = table.index(ofPath: RoutePath(parsing: path)) else {
            return JourneyRecord.Elsewhere(path: path, title: path)
        }
        return JourneyRecord.Elsewhere(
            path: path, title: pageTitle(index), kind: flow.kinds[Int(flow.kindOfRoute[index])].id)
    }

    private func pageTitle(_ index: Int) -> String { table.fullTitle(index) ?? table.routes[index].shownName }

    /// The page of the route at `index`.
    func pageReference(_ index: Int) -> FlowGraph.PageReference {
        FlowGraph.PageReference(
            path: table.path(of: index), title: pageTitle(index), route: table.routes[index].shownName)
    }

    private static func depth(_ histogram: [Int]) -> FlowGraph.Depth {
        let total = histogram.reduce(0, +)
        let minimum = histogram.firstIndex { $0 > 0 } ?? 0
        let maximum = histogram.lastIndex { $0 > 0 } ?? 0
        // The lower median: the depth of page (total - 1) / 2 in depth order.
        var seen = 0
        var median = minimum
        for (depth, count) in histogram.enumerated() {
            seen += count
            if seen > (total - 1) / 2 {
                median = depth
                break
            }
        }
        return FlowGraph.Depth(minimum: minimum, median: median, maximum: maximum)
    }
}
