import Foundation
import Synchronization

extension SiteWalker {
    /// Makes again only the pages of `routes`, each in the place `graph` has it and with the
    /// context the previous walk kept, handing each to `visit`: the walk of an edit that touched
    /// a few pages.
    ///
    /// The other pages stand where they stood only when the graph does, so this returns `false`
    /// as soon as a page made again leads elsewhere than before: another title (which other
    /// pages' breadcrumbs show), other links, a failure. Then the caller walks the whole app.
    /// On `true`, the memory holds the pages' new outcomes and `graph` what they read.
    /// - Throws: whatever a page's `visit` or the app's navigation threw, the first in `routes`.
    @_spi(Engine) public func remake(
        _ routes: [R], in graph: inout SiteGraph<R>, visit: @escaping @Sendable (PageVisit<R>) async throws -> Void
    ) async throws -> Bool {
        guard let previous else { return false }
        var kept: [(index: Int, route: R, page: WalkMemory<R>.Kept)] = []
        for route in routes {
            guard let index = graph.table.index(of: route), let page = previous.memory.kept(route) else { return false }
            kept.append((index, route, page))
        }
        let discovered = graph.routes.count
        // The pages are handed to `visit` only once every one of them is known to lead where it
        // led: a page that moved may not be in the site at all, and must leave no file behind.
        let made = Mutex<[PageVisit<R>]>([])
        let keep: @Sendable (PageVisit<R>) async throws -> Void = { visit in made.withLock { $0.append(visit) } }
        let outcomes = try await withThrowingTaskGroup(of: (Int, Outcome).self) { group in
            var outcomes = [Outcome?](repeating: nil, count: kept.count)
            var next = 0
            func start() {
                let (offset, (_, route, page)) = (next, kept[next])
                let context = page.context
                group.addTask {
                    let outcome = await makePage(
                        route, trail: context.trail, presentation: context.presentation, presenter: context.presenter,
                        depth: context.depth, kind: context.kind, discovered: discovered, visit: keep
                    )
                    return (offset, outcome)
                }
                next += 1
            }
            while next < min(kept.count, concurrency) { start() }
            while let (offset, outcome) = try await group.next() {
                outcomes[offset] = outcome
                if next < kept.count { start() }
            }
            return outcomes.map { $0! }
        }
        for outcome in outcomes {
            if let error = outcome.error { throw error }
        }
        for (outcome, page) in zip(outcomes, kept) where !outcome.leadsLike(page.page.outcome) { return false }
        let visits = made.withLock { $0 }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (offset, page) in visits.enumerated() {
                if offset >= concurrency { try await group.next() }
                group.addTask { try await visit(page) }
            }
            try await group.waitForAll()
        }
        for (outcome, page) in zip(outcomes, kept) {
            memory?.keep(page.route, context: page.page.context, outcome: outcome)
            if recordsInputs && graph.inputs.indices.contains(page.index) { graph.inputs[page.index] = outcome.inputs }
        }
        return true
    }
}

extension WalkOutcome {
    /// Whether a walk takes this outcome into its graph as it takes `other`: the same title,
    /// failures, links (targets, presentations, labels, the code that chose them) and what flow
    /// lint reads. What the page read may differ.
    func leadsLike(_ other: Self) -> Bool {
        title == other.title && failure == other.failure && recovered == other.recovered
            && targets == other.targets && presentations == other.presentations && labels == other.labels
            && locations == other.locations && linkLocations == other.linkLocations && location == other.location
            && ownLinks == other.ownLinks && labelProblems == other.labelProblems && unhandled == other.unhandled
            && (error == nil) == (other.error == nil)
    }
}
