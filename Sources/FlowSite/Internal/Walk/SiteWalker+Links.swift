import Foundation

/// Where a page stands in the walk when it is made: what its visit and its links depend on.
struct PagePlace<R: Route>: Sendable {
    let trail: [Breadcrumb<R>]
    let presentation: Presentation
    let presenter: Breadcrumb<R>?
    let depth: Int
    let kind: Int32
    let discovered: Int
    let index: Int
    let isDialogCopy: Bool
}

extension SiteWalker {
    /// Follows every link of `page` through the app's navigation code (in parallel with other pages).
    func followLinks(
        of page: Page<R>, from route: R, at place: PagePlace<R>, into outcome: inout Outcome, clock: ContinuousClock
    ) throws {
        let routes = page.document.routes
        let actions = PaginationLinks(page.pagination)?.linkedActions ?? []
        // A tab selection doesn't depend on the page: tabs are followed once, on the start page's turn.
        let tabs = route == coordinator.startRoute ? coordinator.siteInfo.navigation : []
        let document = page.document
        outcome.location = page.location
        outcome.ending = page.ending
        outcome.ownLinks = routes.count + actions.count
        outcome.externalLinks = document.externalURLs.count
        // Timed with the flow: its one cost per page.
        let checking = clock.now
        outcome.labelProblems = document.linkLabelProblems(extra: actions)
        phases?.add(.flow, clock.now - checking)
        outcome.targets = routes
        let capacity = routes.count + actions.count + tabs.count
        outcome.targets.reserveCapacity(capacity)
        outcome.presentations.reserveCapacity(capacity)
        outcome.linkLocations.reserveCapacity(capacity)
        let navigator = WalkNavigator(expecting: route)
        // A tab root presented as a dialog (or in a dialog's place) opens its dialog copy.
        let isDialog = place.presentation == .modal
        func opensCopy(_ target: R, _ shown: Presentation) -> Bool {
            (shown == .modal || (shown == .replace && isDialog)) && !tabRoots.isEmpty && tabRoots.contains(target)
        }
        // Links the app did not show (only when recording them).
        var dropped: [Int] = []
        let linkLabels = keepsEdges ? document.linkLabels : []
        for offset in routes.indices {
            let action = NavigationAction("", to: routes[offset])
            if let shown = follow(action, from: route, with: navigator) {
                if opensCopy(action.route, shown.presentation) {
                    outcome.dialogCopyTargets.append(Int32(offset - dropped.count))
                }
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
                if opensCopy(action.route, shown.presentation) {
                    outcome.dialogCopyTargets.append(Int32(outcome.targets.count))
                }
                outcome.targets.append(action.route)
                outcome.presentations.append(shown.presentation)
                outcome.record(shown.location)
                if keepsEdges { outcome.labels.append(action.label) }
            } else {
                outcome.unhandled.append(try unhandled(action, label: action.label, from: route))
            }
        }
        for tab in tabs {
            if let shown = follow(tab, from: nil, with: navigator) {
                outcome.targets.append(tab.route)
                outcome.presentations.append(shown.presentation)
                outcome.record(shown.location)
                outcome.tabLinks += 1
                if keepsEdges { outcome.labels.append(tab.label) }
            } else {
                outcome.unhandled.append(try unhandled(tab, label: tab.label, from: nil))
            }
        }
    }

    /// Follows `action` as a tap does (a tab selection when `source` is `nil`); `nil` unless the app showed exactly
    /// the action's route, once.
    func follow(_ action: NavigationAction<R>, from source: R?, with navigator: WalkNavigator<R>) -> ShownLink? {
        navigator.expect(action.route)
        if let source {
            coordinator.navigate(action, from: source, in: navigator)
        } else {
            coordinator.selectTab(action, in: navigator)
        }
        return navigator.shown
    }

    /// What the app showed instead, for flow lint when the walk records it; otherwise the error that fails the walk.
    func unhandled(_ action: NavigationAction<R>, label: String, from source: R?) throws -> UnhandledLink {
        let list = ShowList<R>()
        if let source {
            coordinator.navigate(action, from: source, in: list)
        } else {
            coordinator.selectTab(action, in: list)
        }
        guard recordsUnhandledLinks else {
            let page = source.map(\.shownPathAndName) ?? "the tab bar"
            throw FlowSiteError(
                .navigationMismatch(page: page, label: label, route: action.route.shownPathAndName, shown: list.shown))
        }
        return UnhandledLink(label: label, target: action.route.shownPathAndName, shown: list.shown)
    }

}
