import Foundation

/// Walks an app breadth-first from the start route, each reachable route once, recording edges and stacks.
///
/// Pages are made concurrently, a bounded number at a time; their links are taken in discovery order, so the
/// result depends only on the app, never on timing. A page starts once its breadcrumb trail has titles.
/// Per route it keeps a few numbers and a title, so memory never grows with page bytes.
package struct SiteWalker<C: RootCoordinator>: Sendable {
    package typealias R = C.R

    /// The app's root coordinator.
    package let coordinator: C
    var concurrency: Int
    /// Whether the graph keeps every edge (for export); a build only counts them.
    var keepsEdges: Bool
    var phases: PhaseClock?
    /// Whether a link no coordinator shows is recorded for flow lint instead of failing the walk (a build fails:
    /// its page would link to nothing).
    var recordsUnhandledLinks = false
    /// Whether ``SiteGraph/inputs`` keeps what each page read.
    var recordsInputs = false
    /// Called with each page the walk takes, in discovery order, with where it stood and its links' targets by
    /// discovery index: how the pipeline records the walk in a journal (``BuildJournal``) without the walk
    /// knowing it. A page that failed to be made is not passed.
    var takesPage: (@Sendable (_ page: TakenPage<R>) -> Void)?

    package init(
        coordinator: C, concurrency: Int = max(2, ProcessInfo.processInfo.activeProcessorCount * 2),
        keepsEdges: Bool = true
    ) {
        self.coordinator = coordinator
        self.concurrency = max(1, concurrency)
        self.keepsEdges = keepsEdges
        self.recordsFallbacks = coordinator.siteInfo.fallbackLanguage != nil
        self.tabRoots = Set(coordinator.siteInfo.navigation.map(\.route))
    }

    /// A tab root the app also presents as a dialog gets a second page, its dialog copy.
    let tabRoots: Set<R>

    /// Whether pages record text shown in the fallback language (``StringTable/shownInFallbackLanguage(_:)``).
    let recordsFallbacks: Bool

    /// Walks every reachable route, calling `visit` for each page (concurrently).
    /// - Throws: ``FlowSiteError`` for two routes with one path, a link whose navigation shows another route, or
    ///   the first error `visit` throws. Screens that fail to build are in ``SiteGraph/failures``.
    package func walk(visit: @escaping @Sendable (PageVisit<R>) async throws -> Void) async throws -> SiteGraph<R> {
        var graph = SiteGraph<R>()
        try graph.table.discover(coordinator.startRoute, parent: nil, presentation: .root, presenter: nil)
        graph.flow.assignKinds(to: graph.table.routes)
        let window = concurrency
        try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
            var inFlight = 0
            var dispatched = 0
            var processed = 0
            var finished: [Int: Outcome] = [:]
            var standing: [Int: PageStanding] = [:]
            while true {
                // Start pages in discovery order once their trail has titles. With nothing in flight the next
                // trail should have them; if not, the page goes ahead with the routes' names.
                while inFlight < window, dispatched < graph.table.count,
                    graph.table.trailIsTitled(dispatched) || inFlight == 0
                {
                    let index = dispatched
                    let route = graph.table.routes[index]
                    let table = graph.table
                    func crumb(_ step: Int) -> Breadcrumb<R> {
                        Breadcrumb(
                            title: table.titles[step] ?? table.routes[step].shownName, route: table.routes[step],
                            isDialogCopy: table.isDialogCopy(step)
                        )
                    }
                    let stack = graph.table.stack(of: index).dropLast()
                    let trail = stack.map(crumb)
                    let presenterIndex = graph.table.presenter(of: index)
                    let presenter = presenterIndex.map(crumb)
                    let presentation = graph.table.presentation(of: index)
                    let discovered = graph.table.count
                    let depth = graph.flow.depth[index]
                    let kind = graph.flow.kindOfRoute[index]
                    let isCopy = graph.table.isDialogCopy(index)
                    if takesPage != nil {
                        standing[index] = PageStanding(
                            trail: stack.map { Int32($0) }, presenter: presenterIndex.map { Int32($0) } ?? -1,
                            presentation: presentation,
                            depth: depth < 0 ? trail.count : Int(depth), kind: kind, isDialogCopy: isCopy
                        )
                    }
                    group.addTask {
                        let outcome = await makePage(
                            route, trail: trail, presentation: presentation, presenter: presenter,
                            depth: depth < 0 ? trail.count : Int(depth), kind: kind, discovered: discovered,
                            index: index,
                            asDialogCopy: isCopy, visit: visit
                        )
                        return (index, outcome)
                    }
                    dispatched += 1
                    inFlight += 1
                }
                guard inFlight > 0 else { break }
                let (index, outcome) = try await group.next()!
                inFlight -= 1
                graph.table.titles[index] = outcome.title
                if let full = outcome.fullTitle { graph.table.fullTitles[Int32(index)] = full }
                finished[index] = outcome
                while let outcome = finished.removeValue(forKey: processed) {
                    try take(outcome, of: processed, into: &graph, standing: standing.removeValue(forKey: processed))
                    processed += 1
                }
            }
        }
        if let deepLinks = coordinator.deepLinks {
            let kinds = graph.flow.kindOfRoute
            let table = graph.table
            graph.deepLinks = DeepLinkCheck(deepLinks, routes: table.routes, skipping: table.isDialogCopy) { kinds[$0] }
        }
        let journeys = coordinator.journeys
        if !journeys.isEmpty { graph.journeys = await takeJourneys(journeys, in: graph.table) }
        return graph
    }

    /// Records what the page at `index` led to, discovering new link targets.
    private func take(
        _ outcome: Outcome, of index: Int, into graph: inout SiteGraph<R>, standing: PageStanding? = nil
    ) throws {
        let route = graph.table.routes[index]
        var targetIndices: [Int32] = []
        if takesPage != nil { targetIndices.reserveCapacity(outcome.targets.count) }
        defer {
            if let takesPage, let standing, outcome.error == nil {
                takesPage(
                    TakenPage(route: route, index: index, outcome: outcome, standing: standing, targets: targetIndices))
            }
        }
        if let error = outcome.error { throw error }
        if recordsInputs {
            if graph.inputs.count <= index {
                graph.inputs.append(contentsOf: repeatElement([], count: index + 1 - graph.inputs.count))
            }
            graph.inputs[index] = outcome.inputs
        }
        if let failure = outcome.failure {
            graph.failures.append(ScreenFailure(route: route, error: failure))
        } else if let recovered = outcome.recovered {
            graph.recovered.append(ScreenFailure(route: route, error: recovered))
        }
        let isDialog = graph.table.presentation(of: index) == .modal
        if outcome.failure == nil {
            graph.flow.page(
                index, location: outcome.location, ownLinks: outcome.ownLinks + outcome.externalLinks,
                ending: outcome.ending,
                isDialog: isDialog,
                labels: outcome.labelProblems
            )
        }
        for link in outcome.unhandled {
            graph.flow.unhandledLink(on: index, label: link.label, target: link.target, shown: link.shown)
        }
        graph.edgeCount += outcome.targets.count
        graph.externalLinkCount += outcome.externalLinks
        let firstTab = outcome.targets.count - outcome.tabLinks
        for offset in outcome.targets.indices {
            let target = outcome.targets[offset]
            let presentation = outcome.presentations[offset]
            let isTab = offset >= firstTab
            // A transition FlowSite's own default shows (the default selectTab or navigate) has no place in the app.
            let shownAt = outcome.locations.isEmpty ? nil : outcome.locations[Int(outcome.linkLocations[offset])]
            let location = shownAt?.isFlowSites == true ? nil : shownAt
            let toCopy = outcome.opensDialogCopy(offset)
            if keepsEdges {
                graph.edges.append(
                    Edge(from: route, to: target, label: outcome.labels[offset], presentation: presentation))
                if isTab { graph.tabEdges.append(graph.edges.count - 1) }
            }
            if let known = toCopy ? graph.table.dialogCopyIndex(of: target) : graph.table.index(of: target) {
                graph.flow.link(
                    from: index, to: known, presentation: presentation, location: location, sourceIsDialog: isDialog,
                    isTab: isTab)
                if takesPage != nil { targetIndices.append(Int32(known)) }
                if keepsEdges { graph.edgeTargets.append(Int32(known)) }
                continue
            }
            switch presentation {
            case .root, .back:
                // Going back to a page the walk has not met yet: it is reached as a deep link to it would be.
                // Trail pages nothing has linked to yet are reached through it.
                let stack = rootStack(for: target)
                var parent: Int?
                for (depth, step) in stack.dropLast().enumerated() {
                    if let known = graph.table.index(of: step) {
                        parent = known
                    } else {
                        parent = try graph.table.discover(
                            step, parent: parent, presentation: depth == 0 ? .root : .push, presenter: nil)
                    }
                }
                let added = try graph.table.discover(target, parent: parent, presentation: .root, presenter: nil)
                // A step reached earlier by another path has its own stack: keep this one.
                let trail = stack.dropLast().map { graph.table.index(of: $0)! }
                if !graph.table.stack(of: added).dropLast().elementsEqual(trail) {
                    graph.table.setStack(trail + [added], of: added)
                }
            case .push, .modal:
                try graph.table.discover(
                    target, parent: index, presentation: presentation, presenter: presentation == .modal ? index : nil,
                    asDialogCopy: toCopy
                )
            case .replace where isDialog:
                // Replacing a dialog makes a dialog over the same page.
                try graph.table.discover(
                    target, parent: graph.table.parent(of: index), presentation: .modal,
                    presenter: graph.table.presenter(of: index),
                    asDialogCopy: toCopy
                )
            case .replace:
                let added = try graph.table.discover(
                    target, parent: graph.table.parent(of: index), presentation: .replace, presenter: nil)
                let stack = Array(graph.table.stack(of: index).dropLast()) + [added]
                if graph.table.stack(of: added) != stack { graph.table.setStack(stack, of: added) }
            }
            graph.flow.assignKinds(to: graph.table.routes)
            let added = toCopy ? graph.table.dialogCopyIndex(of: target) : graph.table.index(of: target)
            if let added {
                graph.flow.link(
                    from: index, to: added, presentation: presentation, location: location, sourceIsDialog: isDialog,
                    isTab: isTab)
                if takesPage != nil { targetIndices.append(Int32(added)) }
            }
            if keepsEdges { graph.edgeTargets.append(Int32(added ?? -1)) }
        }
    }

    private func rootStack(for route: R) -> [R] {
        var stack = coordinator.rootStack(for: route)
        if stack.last != route { stack.append(route) }
        return stack
    }

    /// Makes one page, hands it to `visit` and follows its links.
    func makePage(
        _ route: R, trail: [Breadcrumb<R>], presentation: Presentation, presenter: Breadcrumb<R>?,
        depth: Int, kind: Int32, discovered: Int, index: Int = -1, asDialogCopy: Bool = false,
        visit: @Sendable (PageVisit<R>) async throws -> Void
    ) async -> Outcome {
        let place = PagePlace(
            trail: trail, presentation: presentation, presenter: presenter, depth: depth, kind: kind,
            discovered: discovered, index: index,
            isDialogCopy: asDialogCopy
        )
        guard recordsInputs || takesPage != nil else {
            return await makeRecordedPage(route, at: place, visit: visit)
        }
        var (outcome, inputs) = await InputKey.recording {
            await makeRecordedPage(route, at: place, visit: visit)
        }
        outcome.inputs = inputs
        return outcome
    }

    private func makeRecordedPage(
        _ route: R, at place: PagePlace<R>, visit: @Sendable (PageVisit<R>) async throws -> Void
    ) async -> Outcome {
        var page: Page<R>
        var recovered: String?
        let clock = ContinuousClock()
        let started = clock.now
        let fallbacks = recordsFallbacks ? FallbackRecorder() : nil
        do {
            if let fallbacks {
                page = try await FallbackRecorder.$current.withValue(fallbacks) {
                    try await coordinator.makeScreen(for: route).makePage()
                }
            } else {
                page = try await coordinator.makeScreen(for: route).makePage()
            }
        } catch {
            // A route handed to the wrong coordinator is the app's wiring, not a page's data: no error screen.
            let misrouted = (error as? FlowSiteError).map { if case .routeNotOwned = $0.reason { true } else { false } }
            if misrouted == true {
                var outcome = Outcome(title: route.shownName)
                outcome.error = error
                return outcome
            }
            guard let fallback = coordinator.errorScreen(for: route, error: error) else {
                return Outcome(title: route.shownName, failure: describe(error))
            }
            do {
                page = try await fallback.makePage()
                recovered = describe(error)
            } catch let fallbackError {
                return Outcome(
                    title: route.shownName,
                    failure: "\(describe(error)); its error screen failed too: \(describe(fallbackError))")
            }
        }
        phases?.add(.viewModels, clock.now - started)
        var outcome = Outcome(title: page.breadcrumbTitle, recovered: recovered)
        if page.shortTitle != nil, page.shortTitle != page.title { outcome.fullTitle = page.title }
        do {
            // Links first: a tab root the app presents as a dialog leads to its dialog copy, and the page says so.
            try Self.checkExternalLinks(of: page, at: route.pagePath(dialogCopy: place.isDialogCopy))
            try followLinks(of: page, from: route, at: place, into: &outcome, clock: clock)
            var pageVisit = PageVisit(
                route: route, page: page,
                breadcrumbs: place.trail + [
                    Breadcrumb(title: page.breadcrumbTitle, route: route, isDialogCopy: place.isDialogCopy)
                ],
                presentation: place.presentation, presenter: place.presenter, recoveredError: recovered,
                clickDepth: place.depth,
                kind: place.kind, discovered: place.discovered
            )
            if let fallbacks { pageVisit.fallbackTexts = fallbacks.shown }
            pageVisit.index = place.index
            pageVisit.isDialogCopy = place.isDialogCopy
            for offset in outcome.dialogCopyTargets { pageVisit.dialogLinks.insert(outcome.targets[Int(offset)]) }
            for offset in 0..<outcome.ownLinks where offset < outcome.targets.count {
                switch outcome.presentations[offset] {
                case .modal: pageVisit.opensAsDialog.insert(outcome.targets[offset])
                case .back: pageVisit.goesBackTo.insert(outcome.targets[offset])
                default: break
                }
            }
            try await visit(pageVisit)
        } catch {
            outcome.error = error
        }
        return outcome
    }

    typealias Outcome = WalkOutcome<R>
}

/// What making one page led to.
struct WalkOutcome<R: Route>: Sendable {
    var title: String
    /// The page's title when its breadcrumb shows a short one.
    var fullTitle: String?
    var failure: String?
    var recovered: String?
    /// Parallel arrays, not one of tuples: unspecialised code looks up a tuple's type at run time on every use.
    var targets: [R] = []
    var presentations: [Presentation] = []
    var labels: [String] = []
    /// The distinct code places that chose the links' presentations, and each link's index into them.
    var locations: [CodeLocation] = []
    var linkLocations: [Int32] = []
    /// Where the page was made.
    var location: CodeLocation?
    /// Content and pagination links, not the site navigation.
    var ownLinks = 0
    /// The app's links out of the site: a way on for a reader, though the walk does not follow them.
    var externalLinks = 0
    var ending: Page<R>.Ending?
    /// How many of the last ``targets`` are tab selections.
    var tabLinks = 0
    /// Offsets in ``targets`` of links that open a tab's root as a dialog: they lead to its dialog copy.
    var dialogCopyTargets: [Int32] = []
    var labelProblems: LinkLabelProblems?
    var unhandled: [UnhandledLink] = []
    /// What `visit` or the app's navigation threw, reported when the page's turn comes.
    var error: (any Error)?
    var inputs: [InputKey] = []

    func opensDialogCopy(_ offset: Int) -> Bool {
        !dialogCopyTargets.isEmpty && dialogCopyTargets.contains(Int32(offset))
    }

    func path(ofTarget offset: Int) -> RoutePath {
        targets[offset].pagePath(dialogCopy: opensDialogCopy(offset))
    }

    /// Adds the place that chose the next link's presentation.
    mutating func record(_ location: CodeLocation) {
        if let last = locations.indices.last, locations[last] == location {
            linkLocations.append(Int32(last))
        } else if let known = locations.firstIndex(of: location) {
            linkLocations.append(Int32(known))
        } else {
            linkLocations.append(Int32(locations.count))
            locations.append(location)
        }
    }
}

private func describe(_ error: any Error) -> String {
    String(describing: error)
}

/// Where a page stood when made, by discovery index: what a journal keeps to make it again in place.
struct PageStanding: Sendable {
    var trail: [Int32]
    var presenter: Int32
    var presentation: Presentation
    var depth: Int
    var kind: Int32
    /// Stored in the presentation's top bit.
    var isDialogCopy = false
}

/// A page the walk took: what ``SiteWalker/takesPage`` is given.
struct TakenPage<R: Route>: Sendable {
    var route: R
    var index: Int
    var outcome: WalkOutcome<R>
    var standing: PageStanding
    /// Where its links lead, by discovery index.
    var targets: [Int32]
}
