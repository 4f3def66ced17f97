import Foundation
import Synchronization

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
    package var concurrency: Int
    /// Whether the graph keeps every edge (for export); a build only counts them, since a large
    /// site has many times more links than pages.
    package var keepsEdges: Bool
    /// Where the time making screens and pages goes, when measured.
    package var phases: PhaseClock?
    /// Whether a link whose route no coordinator shows is recorded for flow lint (and left
    /// unfollowed) instead of failing the walk. A build fails on it: its page would link to
    /// nothing.
    package var recordsUnhandledLinks = false
    /// Whether the graph keeps what each page read (see ``InputKey``), in ``SiteGraph/inputs``.
    package var recordsInputs = false
    /// Where this walk leaves what it learnt of each page (its place, what it read, what it
    /// led to), for the next walk to replay.
    package var memory: WalkMemory<R>?
    /// The previous walk's memory and the inputs that changed since: a page in the same place
    /// that read none of them is replayed, not made again, when `replay` says its products are
    /// still there.
    package var previous: (memory: WalkMemory<R>, changed: Set<InputKey>)?

    package init(coordinator: C, concurrency: Int = max(2, ProcessInfo.processInfo.activeProcessorCount * 2), keepsEdges: Bool = true) {
        self.coordinator = coordinator
        self.concurrency = max(1, concurrency)
        self.keepsEdges = keepsEdges
    }

    /// Walks every reachable route, calling `visit` for each page (concurrently).
    /// - Throws: ``FlowSiteError`` for two routes with one path, a link whose navigation shows
    ///   another route, or whatever `visit` throws (the first in discovery order). Screens that
    ///   fail to build don't throw: they are in the graph's ``SiteGraph/failures``.
    /// - Parameter replay: called for a page the previous walk made in the same place from
    ///   inputs that did not change; returns whether the page's products are still there (then
    ///   the page is not made and `visit` is not called for it).
    package func walk(
        visit: @escaping @Sendable (PageVisit<R>) async throws -> Void,
        replay: @escaping @Sendable (R, PageContext<R>) async throws -> Bool = { _, _ in false }
    ) async throws -> SiteGraph<R> {
        var graph = SiteGraph<R>()
        try graph.table.discover(coordinator.startRoute, parent: nil, presentation: .root, presenter: nil)
        graph.flow.catchUp(with: graph.table.routes)
        let window = concurrency
        try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
            var inFlight = 0
            var dispatched = 0
            var processed = 0
            var finished: [Int: Outcome] = [:]
            while true {
                // Start pages in discovery order, as long as their trail has its titles.
                // Every page on a trail was discovered before the page, so with nothing in flight
                // the next page's trail has its titles; should an app's stacks ever say otherwise,
                // the page goes ahead with the routes' names rather than never being made.
                while inFlight < window, dispatched < graph.table.count, graph.table.trailIsTitled(dispatched) || inFlight == 0 {
                    let index = dispatched
                    let route = graph.table.routes[index]
                    let table = graph.table
                    func crumb(_ step: Int) -> Breadcrumb<R> {
                        Breadcrumb(title: table.titles[step] ?? "\(table.routes[step])", route: table.routes[step])
                    }
                    let trail = graph.table.stack(of: index).dropLast().map(crumb)
                    let presenter = graph.table.presenter(of: index).map(crumb)
                    let presentation = graph.table.presentation(of: index)
                    let discovered = graph.table.count
                    let depth = graph.flow.depth[index]
                    let kind = graph.flow.kindOfRoute[index]
                    group.addTask {
                        let context = PageContext(
                            trail: trail, presenter: presenter, presentation: presentation, depth: depth < 0 ? trail.count : Int(depth), kind: kind
                        )
                        if let outcome = await replayed(route, context: context, replay: replay) { return (index, outcome) }
                        let outcome = await makePage(
                            route, trail: trail, presentation: presentation, presenter: presenter,
                            depth: context.depth, kind: kind, discovered: discovered, visit: visit
                        )
                        if outcome.error == nil { memory?.keep(route, context: context, outcome: outcome) }
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
                    try take(outcome, of: processed, into: &graph)
                    processed += 1
                }
            }
        }
        return graph
    }

    /// Records what the page at `index` led to: its failure, and each link's target, discovered
    /// when new.
    private func take(_ outcome: Outcome, of index: Int, into graph: inout SiteGraph<R>) throws {
        let route = graph.table.routes[index]
        if let error = outcome.error { throw error }
        if recordsInputs {
            if graph.inputs.count <= index { graph.inputs.append(contentsOf: repeatElement([], count: index + 1 - graph.inputs.count)) }
            graph.inputs[index] = outcome.inputs
        }
        if let failure = outcome.failure {
            graph.failures.append(ScreenFailure(route: route, error: failure))
        } else if let recovered = outcome.recovered {
            graph.recovered.append(ScreenFailure(route: route, error: recovered))
        }
        let isDialog = graph.table.presentation(of: index) == .modal
        if outcome.failure == nil {
            graph.flow.page(index, location: outcome.location, ownLinks: outcome.ownLinks, isDialog: isDialog, labels: outcome.labelProblems)
        }
        for link in outcome.unhandled {
            graph.flow.unhandledLink(on: index, label: link.label, target: link.target, shown: link.shown)
        }
        graph.edgeCount += outcome.targets.count
        for offset in outcome.targets.indices {
            let target = outcome.targets[offset]
            let presentation = outcome.presentations[offset]
            let location = outcome.locations.isEmpty ? nil : outcome.locations[Int(outcome.linkLocations[offset])]
            if keepsEdges {
                graph.edges.append(Edge(from: route, to: target, label: outcome.labels[offset], presentation: presentation))
            }
            if let known = graph.table.index(of: target) {
                graph.flow.link(from: index, to: known, presentation: presentation, location: location, sourceIsDialog: isDialog)
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
                        parent = try graph.table.discover(step, parent: parent, presentation: depth == 0 ? .root : .push, presenter: nil)
                    }
                }
                let added = try graph.table.discover(target, parent: parent, presentation: .root, presenter: nil)
                // A step reached earlier by another path has a stack of its own: keep this one.
                let trail = stack.dropLast().map { graph.table.index(of: $0)! }
                if !graph.table.stack(of: added).dropLast().elementsEqual(trail) {
                    graph.table.setStack(trail + [added], of: added)
                }
            case .push, .modal:
                try graph.table.discover(target, parent: index, presentation: presentation, presenter: presentation == .modal ? index : nil)
            case .replace:
                let added = try graph.table.discover(target, parent: graph.table.parent(of: index), presentation: .replace, presenter: nil)
                let stack = Array(graph.table.stack(of: index).dropLast()) + [added]
                if graph.table.stack(of: added) != stack { graph.table.setStack(stack, of: added) }
            }
            graph.flow.catchUp(with: graph.table.routes)
            if let added = graph.table.index(of: target) {
                graph.flow.link(from: index, to: added, presentation: presentation, location: location, sourceIsDialog: isDialog)
            }
        }
    }

    /// Follows `action` the way a tap does: the coordinator runs the app's navigation code with
    /// the walker as its navigator. `nil` when the app did not show exactly the action's route,
    /// once: see ``unhandled(_:label:from:)``.
    private func follow(_ action: NavigationAction<R>, from source: R, with navigator: WalkNavigator<R>) -> ShownLink? {
        navigator.expect(action.route)
        coordinator.navigate(action, from: source, in: navigator)
        return navigator.shown
    }

    /// A link the app's navigation did not show as its route: what it showed instead, as a
    /// finding for flow lint when the walk records them, or else the error that fails the walk.
    private func unhandled(_ action: NavigationAction<R>, label: String, from source: R) throws -> UnhandledLink {
        let list = ShowList<R>()
        coordinator.navigate(action, from: source, in: list)
        guard recordsUnhandledLinks else {
            throw FlowSiteError(.navigationMismatch(page: "\(source)", label: label, route: "\(action.route)", shown: list.shown))
        }
        return UnhandledLink(label: label, target: "\(action.route)", shown: list.shown)
    }

    /// The coordinator's root stack for `route`, ending with `route`.
    private func rootStack(for route: R) -> [R] {
        var stack = coordinator.rootStack(for: route)
        if stack.last != route { stack.append(route) }
        return stack
    }

    /// The previous walk's outcome for `route`, when its page is in the same place, read
    /// nothing that changed, was made without failing, and `replay` found its products.
    private func replayed(_ route: R, context: PageContext<R>, replay: @Sendable (R, PageContext<R>) async throws -> Bool) async -> Outcome? {
        guard let previous, let kept = previous.memory.kept(route), kept.context == context,
            kept.outcome.failure == nil, kept.outcome.recovered == nil,
            !kept.outcome.inputs.contains(where: previous.changed.contains)
        else { return nil }
        do {
            guard try await replay(route, context) else { return nil }
        } catch {
            var outcome = kept.outcome
            outcome.error = error
            return outcome
        }
        // The memory is the previous one, updated in place: a replayed page's entry stands.
        if memory !== previous.memory { memory?.keep(route, context: context, outcome: kept.outcome) }
        return kept.outcome
    }

    /// Makes one page, hands it to `visit` and follows its links; runs concurrently with others.
    func makePage(
        _ route: R, trail: [Breadcrumb<R>], presentation: Presentation, presenter: Breadcrumb<R>?,
        depth: Int, kind: Int32, discovered: Int, visit: @Sendable (PageVisit<R>) async throws -> Void
    ) async -> Outcome {
        guard recordsInputs || memory != nil else {
            return await makeRecordedPage(route, trail: trail, presentation: presentation, presenter: presenter, depth: depth, kind: kind, discovered: discovered, visit: visit)
        }
        var (outcome, inputs) = await InputKey.recording {
            await makeRecordedPage(route, trail: trail, presentation: presentation, presenter: presenter, depth: depth, kind: kind, discovered: discovered, visit: visit)
        }
        outcome.inputs = inputs
        return outcome
    }

    /// Makes one page, under the page's input recorder when there is one.
    private func makeRecordedPage(
        _ route: R, trail: [Breadcrumb<R>], presentation: Presentation, presenter: Breadcrumb<R>?,
        depth: Int, kind: Int32, discovered: Int, visit: @Sendable (PageVisit<R>) async throws -> Void
    ) async -> Outcome {
        var page: Page<R>
        var recovered: String?
        let clock = ContinuousClock()
        let started = clock.now
        do {
            page = try await coordinator.makeScreen(for: route).makePage()
        } catch {
            guard let fallback = coordinator.errorScreen(for: route, error: error) else {
                return Outcome(title: "\(route)", failure: describe(error))
            }
            do {
                page = try await fallback.makePage()
                recovered = describe(error)
            } catch let fallbackError {
                return Outcome(title: "\(route)", failure: "\(describe(error)); its error screen failed too: \(describe(fallbackError))")
            }
        }
        phases?.add(.viewModels, clock.now - started)
        var outcome = Outcome(title: page.breadcrumbTitle, recovered: recovered)
        do {
            try await visit(PageVisit(
                route: route, page: page, breadcrumbs: trail + [Breadcrumb(title: page.breadcrumbTitle, route: route)],
                presentation: presentation, presenter: presenter, recoveredError: recovered, clickDepth: depth,
                kind: kind, discovered: discovered
            ))
            // Every link goes through the app's navigation code, here where pages are made in
            // parallel; a link's label is only made when it is needed.
            let routes = page.document.routes
            let pagination = PaginationLinks(page.pagination)?.linkedActions ?? []
            var actions = pagination
            if route == coordinator.startRoute { actions += coordinator.siteInfo.navigation }
            let document = page.document
            outcome.location = page.location
            outcome.ownLinks = routes.count + pagination.count
            outcome.labelProblems = document.linkLabelProblems(extra: pagination)
            outcome.targets = routes
            outcome.targets.reserveCapacity(routes.count + actions.count)
            outcome.presentations.reserveCapacity(routes.count + actions.count)
            outcome.linkLocations.reserveCapacity(routes.count + actions.count)
            let navigator = WalkNavigator(expecting: route)
            // Links the app did not show, left out of the targets (only when recording them).
            var dropped: [Int] = []
            let linkLabels = keepsEdges ? document.linkLabels : []
            for offset in routes.indices {
                let action = NavigationAction("", to: routes[offset])
                if let shown = follow(action, from: route, with: navigator) {
                    outcome.presentations.append(shown.presentation)
                    outcome.record(shown.location)
                    if keepsEdges { outcome.labels.append(linkLabels[offset]) }
                } else {
                    outcome.unhandled.append(try unhandled(action, label: document.linkLabels[offset], from: route))
                    dropped.append(offset)
                }
            }
            if !dropped.isEmpty {
                let keep = Set(routes.indices).subtracting(dropped)
                outcome.targets = routes.indices.filter(keep.contains).map { routes[$0] }
            }
            for action in actions {
                if let shown = follow(action, from: route, with: navigator) {
                    outcome.targets.append(action.route)
                    outcome.presentations.append(shown.presentation)
                    outcome.record(shown.location)
                    if keepsEdges { outcome.labels.append(action.label) }
                } else {
                    outcome.unhandled.append(try unhandled(action, label: action.label, from: route))
                }
            }

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
    var labelProblems: LinkLabelProblems?
    /// Links whose route the app did not show, when the walk records them.
    var unhandled: [UnhandledLink] = []
    /// What `visit` or the app's navigation threw, reported when the page's turn comes.
    var error: (any Error)?
    /// What making the page and following its links read, when the walk records it.
    var inputs: [InputKey] = []

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

/// The walker's navigator: it checks that the app showed one route, the one a followed action
/// leads to, and how. A page's task uses one for all its links, arming it before each.
///
/// It holds no list of what was shown: when the check fails, the walker follows the action
/// again with a ``ShowList`` for the error message. Plain fields behind a lock of no generic
/// type keep the runtime from looking up generic type metadata on each of a build's links.
final class WalkNavigator<R: Route>: Navigator, @unchecked Sendable {
    private let lock = Mutex(())
    private var expected: R
    private var count = 0
    private var matched = false
    private var shownPresentation = Presentation.push
    private var shownLocation: CodeLocation?

    init(expecting route: R) { expected = route }

    /// Forgets what was shown, and expects `route`.
    func expect(_ route: R) {
        lock.withLock { _ in
            expected = route
            count = 0
            matched = false
        }
    }

    func show(_ route: R, as presentation: Presentation, at location: CodeLocation) {
        lock.withLock { _ in
            count += 1
            if count == 1 {
                matched = route == expected
                shownPresentation = presentation
                shownLocation = location
            }
        }
    }

    /// How the expected route was shown and by which code, when the app showed exactly that,
    /// once.
    var shown: ShownLink? {
        lock.withLock { _ in count == 1 && matched ? ShownLink(presentation: shownPresentation, location: shownLocation!) : nil }
    }
}

/// How the app showed a followed link, and the code that did. (A struct, not a tuple: the
/// walker's code is generic, and a tuple's type would be looked up at run time on every link.)
struct ShownLink: Sendable {
    let presentation: Presentation
    let location: CodeLocation
}

/// A link whose route the app's navigation did not show, as flow lint reports it.
struct UnhandledLink: Sendable, Equatable {
    let label: String
    let target: String
    let shown: [String]
}

/// A navigator that lists everything the app shows, for an error message.
final class ShowList<R: Route>: Navigator, Sendable {
    private let list = Mutex<[String]>([])

    func show(_ route: R, as presentation: Presentation, at location: CodeLocation) {
        list.withLock { $0.append("\(route) (\(presentation))") }
    }

    var shown: [String] { list.withLock { $0 } }
}

/// Where a page stands in the walk: what its layout shows around its content. A page replayed
/// from a previous walk must stand where it stood.
package struct PageContext<R: Route>: Sendable, Hashable {
    package let trail: [Breadcrumb<R>]
    package let presenter: Breadcrumb<R>?
    package let presentation: Presentation
    package let depth: Int
    package let kind: Int32
}

/// What a walk learnt of each page it made or replayed, by route.
package final class WalkMemory<R: Route>: Sendable {
    typealias Outcome = WalkOutcome<R>
    struct Kept: Sendable {
        let context: PageContext<R>
        let outcome: Outcome
    }
    private let pages: Mutex<[R: Kept]>
    /// The routes whose page read each input, made when an edit first asks and kept while no
    /// page's inputs change (taken under `pages`' lock).
    private let readers = Mutex<[InputKey: [R]]?>(nil)

    /// - Parameter capacity: how many pages to make room for (the last walk's count).
    package init(capacity: Int = 0) {
        pages = Mutex(Dictionary(minimumCapacity: capacity))
    }

    func kept(_ route: R) -> Kept? { pages.withLock { $0[route] } }
    func keep(_ route: R, context: PageContext<R>, outcome: Outcome) {
        pages.withLock { pages in
            let before = pages.updateValue(Kept(context: context, outcome: outcome), forKey: route)
            readers.withLock { readers in
                if readers != nil, before?.outcome.inputs != outcome.inputs { readers = nil }
            }
        }
    }
    package var count: Int { pages.withLock { $0.count } }

    /// Forgets every page but those of `routes`.
    func keepOnly(_ routes: Set<R>) {
        pages.withLock { pages in
            pages = pages.filter { routes.contains($0.key) }
            readers.withLock { $0 = nil }
        }
    }

    /// The routes whose page read one of `inputs`, in no particular order.
    func routes(reading inputs: Set<InputKey>) -> [R] {
        pages.withLock { pages in
            readers.withLock { readers in
                if readers == nil {
                    var index: [InputKey: [R]] = [:]
                    for (route, kept) in pages {
                        for input in kept.outcome.inputs { index[input, default: []].append(route) }
                    }
                    readers = index
                }
                var found = Set<R>()
                for input in inputs { found.formUnion(readers?[input] ?? []) }
                return Array(found)
            }
        }
    }
}

/// One page the walker made, with what the renderer needs to place it in the site.
package struct PageVisit<R: Route>: Sendable {
    /// The page's route.
    package let route: R
    /// The page.
    package let page: Page<R>
    /// The navigation stack from the start route to this page, this page last.
    package let breadcrumbs: [Breadcrumb<R>]
    /// How the page was first reached.
    package let presentation: Presentation
    /// For a modal page, the page that presented it (where Close leads).
    package let presenter: Breadcrumb<R>?
    /// When the page is the app's error screen for a failed screen, that failure.
    package let recoveredError: String?
    /// The fewest clicks that lead from the start page to this one (0 for the start page).
    package let clickDepth: Int
    /// The page's screen kind, as the number the walk's ``FlowRecorder`` gave it.
    package let kind: Int32
    /// How many routes the walk had discovered when this page was started (for progress).
    package let discovered: Int

    package init(
        route: R, page: Page<R>, breadcrumbs: [Breadcrumb<R>], presentation: Presentation = .push,
        presenter: Breadcrumb<R>? = nil, recoveredError: String? = nil, clickDepth: Int = 0, kind: Int32 = 0, discovered: Int = 0
    ) {
        self.discovered = discovered
        self.kind = kind
        self.clickDepth = clickDepth
        self.route = route
        self.page = page
        self.breadcrumbs = breadcrumbs
        self.presentation = presentation
        self.presenter = presenter
        self.recoveredError = recoveredError
    }
}

/// A step of a navigation stack: a title and the route it leads to.
package struct Breadcrumb<R: Route>: Sendable, Hashable {
    package let title: String
    package let route: R

    package init(title: String, route: R) {
        self.title = title
        self.route = route
    }
}

/// What the walk found: every route, every edge, and the screens that failed.
package struct SiteGraph<R: Route>: Sendable {
    /// Every route with its place in the walk, in breadth-first discovery order.
    var table = RouteTable<R>()
    /// Every link followed, in discovery order (when the walker keeps them).
    package var edges: [Edge<R>] = []
    /// How many links were followed.
    package var edgeCount = 0
    /// Screens that could not be built; the build fails when there are any.
    package var failures: [ScreenFailure<R>] = []
    /// Screens that failed but were replaced by the app's error screen.
    package var recovered: [ScreenFailure<R>] = []
    /// Kinds, click depths and transitions, for the flow graph and flow lint.
    var flow = FlowRecorder()
    /// What each route's page read, by the route's place in ``routes`` (when the walker
    /// records inputs).
    package var inputs: [[InputKey]] = []

    /// Every reachable route in breadth-first discovery order.
    package var routes: [R] { table.routes }

    /// Each route's stack and presentation.
    package var records: [R: RouteRecord<R>] {
        var records: [R: RouteRecord<R>] = [:]
        for index in table.routes.indices {
            records[table.routes[index]] = RouteRecord(
                stack: table.stack(of: index).map { table.routes[$0] },
                presentation: table.presentation(of: index),
                presenter: table.presenter(of: index).map { table.routes[$0] }
            )
        }
        return records
    }

    /// Each route's page title as its breadcrumb shows it.
    package var titles: [R: String] {
        var titles: [R: String] = [:]
        for (route, title) in zip(table.routes, table.titles) { titles[route] = title }
        return titles
    }

    /// The navigation stack of `route` on its first, shortest path.
    package func stack(of route: R) -> [R]? {
        table.index(of: route).map { table.stack(of: $0).map { table.routes[$0] } }
    }

    /// Throws when screens failed that the app has no error screen for.
    /// - Throws: ``FlowSiteError`` listing each failed route, its path and its error.
    package func requireNoFailures() throws {
        guard failures.isEmpty else {
            throw FlowSiteError(.screensFailed(failures.map { ("\($0.route) (\($0.route.path))", $0.error) }))
        }
    }
}

/// The walk's routes, kept compact: per route its parent on the navigation stack, how it was
/// first presented, its presenter and its title, all by index. A stack is followed through
/// parents; only one that isn't its parent's plus the route (a root presentation's trail through
/// pages reached another way) is kept whole.
struct RouteTable<R: Route>: Sendable {
    /// Every route, in discovery order.
    private(set) var routes: [R] = []
    /// Each route's page title, once its page is made.
    var titles: [String?] = []
    /// Each route's index, found by the route's hash (four bytes a route, not a dictionary
    /// entry holding a copy of the route).
    private var indexes = IndexTable()
    private var parents: [Int32] = []
    private var presentations: [Presentation] = []
    private var presenters: [Int32: Int32] = [:]
    private var stacks: [Int32: [Int32]] = [:]
    /// Each route's index by its path's hash, to find two routes with one path without keeping
    /// every path.
    private var owners = IndexTable()

    var count: Int { routes.count }

    func index(of route: R) -> Int? {
        indexes.find(hash: route.hashValue) { routes[$0] == route }
    }

    func parent(of index: Int) -> Int? {
        let parent = parents[index]
        return parent < 0 ? nil : Int(parent)
    }

    func presentation(of index: Int) -> Presentation { presentations[index] }

    func presenter(of index: Int) -> Int? { presenters[Int32(index)].map(Int.init) }

    /// The indexes of the routes on `index`'s navigation stack, `index` last.
    func stack(of index: Int) -> [Int] {
        var reversed = [index]
        var current = index
        while true {
            if let whole = stacks[Int32(current)] {
                return whole.map(Int.init) + reversed.dropFirst().reversed()
            }
            guard let parent = parent(of: current) else { break }
            reversed.append(parent)
            current = parent
        }
        return reversed.reversed()
    }

    mutating func setStack(_ stack: [Int], of index: Int) {
        stacks[Int32(index)] = stack.map { Int32($0) }
    }

    /// Whether every page on `index`'s trail and its presenter have titles.
    func trailIsTitled(_ index: Int) -> Bool {
        if let presenter = presenter(of: index), titles[presenter] == nil { return false }
        return stack(of: index).dropLast().allSatisfy { titles[$0] != nil }
    }

    /// Adds a route and returns its index.
    /// - Throws: ``FlowSiteError`` when another route has its path, or it is the assets folder.
    @discardableResult
    mutating func discover(_ route: R, parent: Int?, presentation: Presentation, presenter: Int?) throws -> Int {
        let path = route.path
        if let first = path.slugs.first, first.rawValue == SiteWriter.assetsFolder || first == FlowMapPages.folder {
            throw FlowSiteError(.reservedPath(path: path.description, route: "\(route)"))
        }
        var key = Hasher()
        for slug in path.slugs { key.combine(slug) }
        let pathHash = key.finalize()
        let index = routes.count
        if let owner = owners.find(hash: pathHash, where: { routes[$0].path == path }) {
            throw FlowSiteError(.pathConflict(path: path.description, first: "\(routes[owner])", second: "\(route)"))
        }
        owners.insert(index, hash: pathHash)
        indexes.insert(index, hash: route.hashValue)
        routes.append(route)
        titles.append(nil)
        parents.append(parent.map { Int32($0) } ?? -1)
        presentations.append(presentation)
        if let presenter { presenters[Int32(index)] = Int32(presenter) }
        return index
    }
}

/// Indexes into an array, found by a hash of what they index: open addressing over `Int32`
/// slots and their hashes, so a table of 280,000 routes takes about seven megabytes, where a
/// dictionary holding a copy of each route took about four times that. The caller keeps the
/// elements and says which one matches.
struct IndexTable: Sendable {
    private var slots: [Int32] = []
    /// The low 32 bits of each slot's hash, to skip most non-matching elements unseen.
    private var hashes: [UInt32] = []
    private(set) var count = 0

    /// The index whose element `matches`, among those stored with `hash`.
    func find(hash: Int, where matches: (Int) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        let short = UInt32(truncatingIfNeeded: hash)
        var slot = hash & mask
        while slots[slot] >= 0 {
            let index = Int(slots[slot])
            if hashes[slot] == short && matches(index) { return index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Stores `index` under `hash`.
    mutating func insert(_ index: Int, hash: Int) {
        // At most three quarters full.
        if (count + 1) * 4 > slots.count * 3 { grow() }
        put(Int32(index), hash: hash)
        count += 1
    }

    private mutating func put(_ index: Int32, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = index
        hashes[slot] = UInt32(truncatingIfNeeded: hash)
    }

    private mutating func grow() {
        let old = zip(slots, hashes).filter { $0.0 >= 0 }
        let capacity = max(64, slots.count * 2)
        slots = Array(repeating: -1, count: capacity)
        hashes = Array(repeating: 0, count: capacity)
        // Only the low bits place a slot, and those are the bits kept.
        for (index, hash) in old { put(index, hash: Int(hash)) }
    }
}

/// How a route was first reached.
package struct RouteRecord<R: Route>: Sendable, Hashable {
    /// The navigation stack on the shortest path from the start route, the route itself last.
    package let stack: [R]
    /// The presentation of the edge that first reached the route.
    package let presentation: Presentation
    /// The presenting route, for a modal.
    package let presenter: R?
}

/// A followed link: from one route to another, with the presentation the coordinator chose.
package struct Edge<R: Route>: Sendable, Hashable {
    package let from: R
    package let to: R
    package let label: String
    package let presentation: Presentation
}

/// A screen that failed to build.
package struct ScreenFailure<R: Route>: Sendable {
    package let route: R
    package let error: String
}

extension MarkdownDocument {
    /// Every route link in the document as a navigation action, labelled with its link text.
    package var linkedActions: [NavigationAction<R>] {
        zip(linkLabels, routes).map { NavigationAction($0, to: $1) }
    }

    /// The text of each route link, in the order of ``routes``.
    package var linkLabels: [String] {
        var labels: [String] = []
        labels.reserveCapacity(routes.count)
        MarkdownBlock.collectLinkLabels(blocks, into: &labels)
        return labels
    }
}

extension MarkdownBlock {
    static func collectLinkLabels(_ blocks: [MarkdownBlock], into labels: inout [String]) {
        for block in blocks {
            switch block {
            case .heading(_, let inlines), .paragraph(let inlines): MarkdownInline.collectLinkLabels(inlines, into: &labels)
            case .list(let items), .orderedList(let items): for item in items { MarkdownInline.collectLinkLabels(item, into: &labels) }
            case .linkList(let items, _): labels += items
            case .attributes(let pairs): for pair in pairs { MarkdownInline.collectLinkLabels(pair.value, into: &labels) }
            case .section(_, let inner): collectLinkLabels(inner, into: &labels)
            case .thematicBreak: break
            }
        }
    }
}

extension MarkdownInline {
    static func collectLinkLabels(_ inlines: [MarkdownInline], into labels: inout [String]) {
        for inline in inlines {
            switch inline {
            case .link(let label, _):
                labels.append(plainText(label))
            case .emphasis(let inner), .strong(let inner), .siteFile(let inner, _): collectLinkLabels(inner, into: &labels)
            case .text, .code, .lineBreak: break
            }
        }
    }

    /// The text of inlines without markup.
    static func plainText(_ inlines: [MarkdownInline]) -> String {
        inlines.map { inline -> String in
            switch inline {
            case .text(let text), .code(let text): text
            case .emphasis(let inner), .strong(let inner), .link(let inner, _), .siteFile(let inner, _): plainText(inner)
            case .lineBreak: " "
            }
        }.joined()
    }
}
