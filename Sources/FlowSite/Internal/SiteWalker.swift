import Foundation
import Synchronization

/// Walks an app like a user who follows every link: breadth-first from the root coordinator's
/// start route, each reachable route once, recording the edges and each page's navigation stack.
///
/// Pages of one breadth-first level are made concurrently, and each is handed to `visit` as soon
/// as it is made; what the walker keeps per route is small (its stack and title), so memory grows
/// with the number of routes, not with page bytes. The order of routes, edges and stacks depends
/// only on the app, never on timing.
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

    package init(coordinator: C, concurrency: Int = max(2, ProcessInfo.processInfo.activeProcessorCount * 2), keepsEdges: Bool = true) {
        self.coordinator = coordinator
        self.concurrency = max(1, concurrency)
        self.keepsEdges = keepsEdges
    }

    /// Walks every reachable route, calling `visit` for each page (concurrently).
    /// - Throws: ``FlowSiteError`` for two routes with one path, or whatever `visit` throws.
    ///   Screens that fail to build don't throw: they are in the graph's ``SiteGraph/failures``.
    package func walk(visit: @escaping @Sendable (PageVisit<R>) async throws -> Void) async throws -> SiteGraph<R> {
        let start = coordinator.startRoute
        var graph = SiteGraph<R>()
        var records: [R: RouteRecord<R>] = [:]
        var owners: [RoutePath: R] = [:]

        func discover(_ route: R, record: RouteRecord<R>) throws {
            if let owner = owners[route.path] {
                throw FlowSiteError(.pathConflict(path: route.path.description, first: "\(owner)", second: "\(route)"))
            }
            if route.path.slugs.first?.rawValue == SiteWriter.assetsFolder {
                throw FlowSiteError(.reservedPath(path: route.path.description, route: "\(route)"))
            }
            owners[route.path] = route
            records[route] = record
            graph.routes.append(route)
        }

        try discover(start, record: RouteRecord(stack: [start], presentation: .root, presenter: nil))
        var level = [start]
        var titles: [R: String] = [:]

        while !level.isEmpty {
            // A page is made once every page on its breadcrumb trail has a title; a trail from
            // a root presentation may name pages of the same level, which then go first.
            var ready = level.filter { route in records[route]!.stack.dropLast().allSatisfy { titles[$0] != nil } }
            if ready.isEmpty { ready = level }  // a trail that loops: use what is known
            let readySet = Set(ready)
            var next = level.filter { !readySet.contains($0) }

            let known = records
            let knownTitles = titles
            let outcomes = try await makePages(ready, records: known, titles: knownTitles, visit: visit)
            for (route, outcome) in zip(ready, outcomes) {
                switch outcome.result {
                case .made(let title, let recovered):
                    titles[route] = title
                    if let recovered { graph.recovered.append(ScreenFailure(route: route, error: recovered)) }
                case .failed(let error):
                    titles[route] = "\(route)"
                    graph.failures.append(ScreenFailure(route: route, error: error))
                }
                for action in outcome.actions {
                    let target = action.route
                    let presentation = try follow(action, from: route)
                    graph.edgeCount += 1
                    if keepsEdges { graph.edges.append(Edge(from: route, to: target, label: action.label, presentation: presentation)) }
                    guard records[target] == nil else { continue }
                    let stack = presentation == .root
                        ? rootStack(for: target)
                        : presentation.stack(presenting: target, over: records[route]!.stack)
                    // Pages on the trail that nothing has linked to yet are reached through it.
                    for (depth, step) in stack.dropLast().enumerated() where records[step] == nil {
                        try discover(step, record: RouteRecord(stack: Array(stack[...depth]), presentation: depth == 0 ? .root : .push, presenter: nil))
                        next.append(step)
                    }
                    let presenter = presentation == .modal ? route : nil
                    try discover(target, record: RouteRecord(stack: stack, presentation: presentation, presenter: presenter))
                    next.append(target)
                }
            }
            level = next
        }
        graph.records = records
        graph.titles = titles
        return graph
    }

    /// Follows `action` the way a tap does: the coordinator runs the app's navigation code with
    /// the walker as its navigator, and what it shows is the link's target and presentation.
    private func follow(_ action: NavigationAction<R>, from source: R) throws -> Presentation {
        let navigator = WalkNavigator<R>()
        coordinator.navigate(action, from: source, in: navigator)
        let shown = navigator.shown
        guard shown.count == 1, let only = shown.first, only.route == action.route else {
            throw FlowSiteError(.navigationMismatch(
                page: "\(source)", label: action.label, route: "\(action.route)",
                shown: shown.map { "\($0.route) (\($0.presentation))" }
            ))
        }
        return only.presentation
    }

    /// The coordinator's root stack for `route`, ending with `route`.
    private func rootStack(for route: R) -> [R] {
        var stack = coordinator.rootStack(for: route)
        if stack.last != route { stack.append(route) }
        return stack
    }

    private func makePages(
        _ level: [R], records: [R: RouteRecord<R>], titles: [R: String],
        visit: @escaping @Sendable (PageVisit<R>) async throws -> Void
    ) async throws -> [Outcome] {
        try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
            var outcomes = [Outcome?](repeating: nil, count: level.count)
            var index = 0
            func add() {
                let i = index
                let route = level[i]
                group.addTask {
                    (i, try await makePage(route, record: records[route]!, titles: titles, visit: visit))
                }
                index += 1
            }
            while index < min(concurrency, level.count) { add() }
            while let (i, outcome) = try await group.next() {
                outcomes[i] = outcome
                if index < level.count { add() }
            }
            return outcomes.map { $0! }
        }
    }

    private func makePage(
        _ route: R, record: RouteRecord<R>, titles: [R: String],
        visit: @Sendable (PageVisit<R>) async throws -> Void
    ) async throws -> Outcome {
        var page: Page<R>
        var recovered: String?
        let clock = ContinuousClock()
        let started = clock.now
        do {
            page = try await coordinator.makeScreen(for: route).makePage()
        } catch {
            guard let fallback = coordinator.errorScreen(for: route, error: error) else {
                return Outcome(result: .failed(describe(error)), actions: [])
            }
            do {
                page = try await fallback.makePage()
                recovered = describe(error)
            } catch let fallbackError {
                return Outcome(result: .failed("\(describe(error)); its error screen failed too: \(describe(fallbackError))"), actions: [])
            }
        }
        phases?.add(.viewModels, clock.now - started)
        let breadcrumbs = record.stack.map { step in
            Breadcrumb(title: step == route ? page.breadcrumbTitle : titles[step] ?? "\(step)", route: step)
        }
        let presenter = record.presenter.map { Breadcrumb(title: titles[$0] ?? "\($0)", route: $0) }
        try await visit(PageVisit(
            route: route, page: page, breadcrumbs: breadcrumbs, presentation: record.presentation,
            presenter: presenter, recoveredError: recovered
        ))
        var actions = page.document.linkedActions
        actions += PaginationLinks(page.pagination)?.linkedActions ?? []
        if route == coordinator.startRoute { actions += coordinator.siteInfo.navigation }
        return Outcome(result: .made(title: page.breadcrumbTitle, recovered: recovered), actions: actions)
    }

    private struct Outcome: Sendable {
        enum Result: Sendable {
            case made(title: String, recovered: String?)
            case failed(String)
        }
        var result: Result
        var actions: [NavigationAction<R>]
    }
}

private func describe(_ error: any Error) -> String {
    String(describing: error)
}

/// The walker's navigator for one followed action: it records what the app shows.
final class WalkNavigator<R: Route>: Navigator, Sendable {
    private let steps = Mutex<[(route: R, presentation: Presentation)]>([])

    func show(_ route: R, as presentation: Presentation) {
        steps.withLock { $0.append((route, presentation)) }
    }

    var shown: [(route: R, presentation: Presentation)] { steps.withLock { $0 } }
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

    package init(
        route: R, page: Page<R>, breadcrumbs: [Breadcrumb<R>], presentation: Presentation = .push,
        presenter: Breadcrumb<R>? = nil, recoveredError: String? = nil
    ) {
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
    /// Every reachable route in breadth-first discovery order.
    package var routes: [R] = []
    /// Every link followed, in discovery order (when the walker keeps them).
    package var edges: [Edge<R>] = []
    /// How many links were followed.
    package var edgeCount = 0
    /// Screens that could not be built; the build fails when there are any.
    package var failures: [ScreenFailure<R>] = []
    /// Screens that failed but were replaced by the app's error screen.
    package var recovered: [ScreenFailure<R>] = []
    /// Each route's stack and presentation.
    package var records: [R: RouteRecord<R>] = [:]
    /// Each route's page title as its breadcrumb shows it.
    package var titles: [R: String] = [:]

    /// The navigation stack of `route` on its first, shortest path.
    package func stack(of route: R) -> [R]? { records[route]?.stack }

    /// Throws when screens failed that the app has no error screen for.
    /// - Throws: ``FlowSiteError`` listing each failed route, its path and its error.
    package func requireNoFailures() throws {
        guard failures.isEmpty else {
            throw FlowSiteError(.screensFailed(failures.map { ("\($0.route) (\($0.route.path))", $0.error) }))
        }
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
