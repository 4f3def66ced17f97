import Foundation

/// Walks an app like a user who follows every link: breadth-first from the root coordinator's
/// start route, each reachable route once, recording the edges and each page's navigation stack.
///
/// Pages are made concurrently, a bounded number at a time, and each is handed to `visit` as
/// soon as it is made. What they link to is taken in the order routes were discovered, whatever
/// order the pages finish in, so the order of routes, edges and stacks depends only on the app,
/// never on timing. A page is started once every page on its breadcrumb trail has a title.
/// What the walker keeps per route is a few numbers and its title (a stack is a parent index),
/// so memory grows slowly with the number of routes and never with page bytes.
package struct SiteWalker<C: RootCoordinator>: Sendable {
    package typealias R = C.R

    /// The app's root coordinator.
    package let coordinator: C
    /// How many pages are made at once.
    var concurrency: Int
    /// Whether the graph keeps every edge (for export); a build only counts them, since a large
    /// site has many times more links than pages.
    var keepsEdges: Bool
    /// Where the time making screens and pages goes, when measured.
    var phases: PhaseClock?
    /// Whether a link whose route no coordinator shows is recorded for flow lint (and left
    /// unfollowed) instead of failing the walk. A build fails on it: its page would link to
    /// nothing.
    var recordsUnhandledLinks = false
    /// Whether the graph keeps what each page read (see ``InputKey``), in ``SiteGraph/inputs``.
    var recordsInputs = false
    /// Where this walk writes down each page for a build in another process (see
    /// ``BuildJournal``); the walk then records what each page read.
    var journal: WalkJournal<R>?

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

    /// The tabs' routes: one the app also presents as a dialog gets a second page, its dialog
    /// copy, so a reader can open it in both places.
    let tabRoots: Set<R>

    /// Whether each page listens for text shown in the fallback language (``StringTable/shownInFallbackLanguage(_:)``).
    let recordsFallbacks: Bool

    /// Walks every reachable route, calling `visit` for each page (concurrently).
    /// - Throws: ``FlowSiteError`` for two routes with one path, a link whose navigation shows
    ///   another route, or whatever `visit` throws (the first in discovery order). Screens that
    ///   fail to build don't throw: they are in the graph's ``SiteGraph/failures``.
    package func walk(visit: @escaping @Sendable (PageVisit<R>) async throws -> Void) async throws -> SiteGraph<R> {
        var graph = SiteGraph<R>()
        try graph.table.discover(coordinator.startRoute, parent: nil, presentation: .root, presenter: nil)
        graph.flow.catchUp(with: graph.table.routes)
        let window = concurrency
        try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
            var inFlight = 0
            var dispatched = 0
            var processed = 0
            var finished: [Int: Outcome] = [:]
            // Where each page in flight stood, for the journal.
            var standing: [Int: JournalContext] = [:]
            while true {
                // Start pages in discovery order, as long as their trail has its titles.
                // Every page on a trail was discovered before the page, so with nothing in flight
                // the next page's trail has its titles; should an app's stacks ever say otherwise,
                // the page goes ahead with the routes' names rather than never being made.
                while inFlight < window, dispatched < graph.table.count,
                    graph.table.trailIsTitled(dispatched) || inFlight == 0
                {
                    let index = dispatched
                    let route = graph.table.routes[index]
                    let table = graph.table
                    func crumb(_ step: Int) -> Breadcrumb<R> {
                        Breadcrumb(
                            title: table.titles[step] ?? "\(table.routes[step])", route: table.routes[step],
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
                    if journal != nil {
                        standing[index] = JournalContext(
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
                finished[index] = outcome
                // Take each page's links in discovery order.
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
        return graph
    }

    /// Records what the page at `index` led to: its failure, and each link's target, discovered
    /// when new.
    private func take(
        _ outcome: Outcome, of index: Int, into graph: inout SiteGraph<R>, standing: JournalContext? = nil
    ) throws {
        let route = graph.table.routes[index]
        // Each link's target by discovery index, for the journal.
        var targetIndices: [Int32] = []
        if journal != nil { targetIndices.reserveCapacity(outcome.targets.count) }
        defer {
            if let journal, let standing, outcome.error == nil {
                journal.record(route, index: index, outcome: outcome, context: standing, targets: targetIndices)
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
                index, location: outcome.location, ownLinks: outcome.ownLinks, ending: outcome.ending,
                isDialog: isDialog,
                labels: outcome.labelProblems
            )
        }
        for link in outcome.unhandled {
            graph.flow.unhandledLink(on: index, label: link.label, target: link.target, shown: link.shown)
        }
        graph.edgeCount += outcome.targets.count
        let firstTab = outcome.targets.count - outcome.tabLinks
        for offset in outcome.targets.indices {
            let target = outcome.targets[offset]
            let presentation = outcome.presentations[offset]
            let isTab = offset >= firstTab
            let location = outcome.locations.isEmpty ? nil : outcome.locations[Int(outcome.linkLocations[offset])]
            let toCopy = outcome.opensDialogCopy(offset)
            if keepsEdges {
                graph.edges.append(
                    Edge(from: route, to: target, label: outcome.labels[offset], presentation: presentation))
            }
            if let known = toCopy ? graph.table.dialogCopyIndex(of: target) : graph.table.index(of: target) {
                graph.flow.link(
                    from: index, to: known, presentation: presentation, location: location, sourceIsDialog: isDialog,
                    isTab: isTab)
                if journal != nil { targetIndices.append(Int32(known)) }
                continue
            }
            switch presentation {
            case .root:
                // Pages on the trail that nothing has linked to yet are reached through it.
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
                // A step reached earlier by another path has a stack of its own: keep this one.
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
                // A dialog that takes a dialog's place is a dialog too, over the same page.
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
            graph.flow.catchUp(with: graph.table.routes)
            if let added = toCopy ? graph.table.dialogCopyIndex(of: target) : graph.table.index(of: target) {
                graph.flow.link(
                    from: index, to: added, presentation: presentation, location: location, sourceIsDialog: isDialog,
                    isTab: isTab)
                if journal != nil { targetIndices.append(Int32(added)) }
            }
        }
    }

    /// The coordinator's root stack for `route`, ending with `route`.
    private func rootStack(for route: R) -> [R] {
        var stack = coordinator.rootStack(for: route)
        if stack.last != route { stack.append(route) }
        return stack
    }

    /// Makes one page, hands it to `visit` and follows its links; runs concurrently with others.
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
        guard recordsInputs || journal != nil else {
            return await makeRecordedPage(route, at: place, visit: visit)
        }
        var (outcome, inputs) = await InputKey.recording {
            await makeRecordedPage(route, at: place, visit: visit)
        }
        outcome.inputs = inputs
        return outcome
    }

    /// Makes one page, under the page's input recorder when there is one.
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
            guard let fallback = coordinator.errorScreen(for: route, error: error) else {
                return Outcome(title: "\(route)", failure: describe(error))
            }
            do {
                page = try await fallback.makePage()
                recovered = describe(error)
            } catch let fallbackError {
                return Outcome(
                    title: "\(route)",
                    failure: "\(describe(error)); its error screen failed too: \(describe(fallbackError))")
            }
        }
        phases?.add(.viewModels, clock.now - started)
        var outcome = Outcome(title: page.breadcrumbTitle, recovered: recovered)
        do {
            // The links are followed first: a link to a tab's root that the app presents as a
            // dialog leads to the root's dialog copy, and the page must say so.
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
            try await visit(pageVisit)
        } catch {
            outcome.error = error
        }
        return outcome
    }

    typealias Outcome = WalkOutcome<R>
}

/// What making one page led to, as the walk takes it in discovery order.
struct WalkOutcome<R: Route>: Sendable {
    var title: String
    var failure: String?
    var recovered: String?
    /// Where the page's links lead, and how each was shown (two arrays, not one of pairs:
    /// unspecialised code looks up a tuple's type at run time on every use).
    var targets: [R] = []
    var presentations: [Presentation] = []
    var labels: [String] = []
    /// The distinct places in the app's code that chose the links' presentations, and for
    /// each link the index of its place.
    var locations: [CodeLocation] = []
    var linkLocations: [Int32] = []
    /// Where the page was made.
    var location: CodeLocation?
    /// The page's own links: its content's and its pagination's, not the site navigation.
    var ownLinks = 0
    /// Why the page may have no way on, as it says.
    var ending: Page<R>.Ending?
    /// How many of the last ``targets`` are tab selections (the start page's turn follows them).
    var tabLinks = 0
    /// The offsets in ``targets`` of links that open a tab's root as a dialog: they lead to its
    /// dialog copy (few pages have any).
    var dialogCopyTargets: [Int32] = []
    var labelProblems: LinkLabelProblems?
    /// Links whose route the app did not show, when the walk records them.
    var unhandled: [UnhandledLink] = []
    /// What `visit` or the app's navigation threw, reported when the page's turn comes.
    var error: (any Error)?
    /// What making the page and following its links read, when the walk records it.
    var inputs: [InputKey] = []

    /// Whether the link at `offset` in ``targets`` leads to its route's dialog copy.
    func opensDialogCopy(_ offset: Int) -> Bool {
        !dialogCopyTargets.isEmpty && dialogCopyTargets.contains(Int32(offset))
    }

    /// The page the link at `offset` in ``targets`` leads to.
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
