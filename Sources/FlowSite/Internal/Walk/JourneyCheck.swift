import Foundation

/// The app's journeys (``RootCoordinator/journeys``) taken over a finished walk: each step's link looked up on the
/// page the step before reached, its presentation asked of the app's navigation as the walk asks it, and the page
/// it reaches checked against the step's expectation. Only the journeys' own pages are made again (a few per
/// journey), never the site.
struct JourneyCheck: Sendable {
    /// One journey as far as it goes.
    struct Taken: Sendable, Equatable {
        var name: String
        var location: CodeLocation
        /// Each page reached by discovery index, the start first; one more than the steps taken.
        var pages: [Int]
        /// How each step's link was presented.
        var presentations: [Presentation]
        /// The steps' link texts, as the pages show them.
        var labels: [String]
        /// Whether each step was a tab bar selection.
        var tabs: [Bool] = []
        /// The link text the breaking step looks for on the last page, when it names one.
        var wanted: String?
        var broken: Break?
    }

    /// Where and why a journey stops.
    struct Break: Sendable, Equatable {
        /// The step that fails, from 1; 0 when the start is not a page.
        var step: Int
        var why: Why
    }

    enum Why: Sendable, Equatable {
        /// The start route is not a page of the site.
        case startNotAPage(route: String)
        /// The page has no such link; `offered` are the labels it has, in order, each once.
        case noLink(wanted: String, offered: [String])
        /// The tab bar has no such item.
        case noTab(wanted: String, offered: [String])
        /// A tab step on a dialog, which has no tab bar.
        case tabOnDialog(wanted: String)
        /// The link is presented otherwise than stated.
        case presented(label: String, shown: Presentation, expected: Presentation)
        /// The app's navigation shows nothing (or something else) for the link: `unhandled-intent` says more.
        case notShown(label: String)
        /// The page reached does not show what the step expects.
        case expectation(Expected)
        /// The page could not be made.
        case failed(route: String, error: String)
    }

    /// What a step expected and the page reached did not show.
    enum Expected: Sendable, Equatable {
        case title(String), emptyState, ending
    }

    var journeys: [Taken] = []
}

extension SiteWalker {
    /// Takes each of the app's journeys over the walk's route table.
    func takeJourneys(_ journeys: [Journey<R>], in table: RouteTable<R>) async -> JourneyCheck {
        var check = JourneyCheck()
        // A page or why it could not be made, each route once.
        var made: [R: (page: Page<R>?, error: String)] = [:]
        func page(_ route: R) async -> (page: Page<R>?, error: String) {
            if let known = made[route] { return known }
            let result: (page: Page<R>?, error: String)
            do {
                result = (try await coordinator.makeScreen(for: route).makePage(), "")
            } catch {
                result = (nil, String(describing: error))
            }
            made[route] = result
            return result
        }
        let tabs = coordinator.siteInfo.navigation
        for journey in journeys {
            var taken = JourneyCheck.Taken(
                name: journey.name, location: journey.location, pages: [], presentations: [], labels: [])
            defer { check.journeys.append(taken) }
            guard let start = table.index(of: journey.start) else {
                taken.broken = .init(step: 0, why: .startNotAPage(route: journey.start.shownPathAndName))
                continue
            }
            taken.pages.append(start)
            var route = journey.start
            var isDialog = table.presentation(of: start) == .modal
            for (offset, step) in journey.steps.enumerated() {
                let number = offset + 1
                func stop(_ why: JourneyCheck.Why) {
                    taken.broken = .init(step: number, why: why)
                    if case .label(let label) = step.link { taken.wanted = label }
                }
                let made = await page(route)
                guard let current = made.page else {
                    stop(.failed(route: route.shownPathAndName, error: made.error))
                    break
                }
                let document = current.document
                let links =
                    zip(document.linkLabels, document.routes).map { NavigationAction($0, to: $1) }
                    + (PaginationLinks(current.pagination)?.linkedActions ?? [])
                let action: NavigationAction<R>?
                switch step.link {
                case .label(let label): action = links.first { $0.label == label }
                case .route(let target): action = links.first { $0.route == target }
                case .tab(let label): action = tabs.first { $0.label == label }
                }
                guard let action else {
                    var seen = Set<String>()
                    switch step.link {
                    case .tab(let label):
                        stop(.noTab(wanted: label, offered: tabs.map { $0.label }.filter { seen.insert($0).inserted }))
                    case .label(let label):
                        stop(
                            .noLink(wanted: label, offered: links.map { $0.label }.filter { seen.insert($0).inserted }))
                    case .route(let target):
                        stop(
                            .noLink(
                                wanted: target.shownPathAndName,
                                offered: links.map { $0.label }.filter { seen.insert($0).inserted }))
                    }
                    break
                }
                let isTab = if case .tab = step.link { true } else { false }
                if isTab, isDialog {
                    stop(.tabOnDialog(wanted: action.label))
                    break
                }
                guard
                    let shown = follow(
                        action, from: isTab ? nil : route, with: WalkNavigator(expecting: route))
                else {
                    stop(.notShown(label: action.label))
                    break
                }
                if let expected = step.presentation, expected != shown.presentation {
                    stop(.presented(label: action.label, shown: shown.presentation, expected: expected))
                    break
                }
                let opensCopy =
                    (shown.presentation == .modal || (shown.presentation == .replace && isDialog))
                    && tabRoots.contains(action.route)
                guard let next = opensCopy ? table.dialogCopyIndex(of: action.route) : table.index(of: action.route)
                else {
                    stop(.notShown(label: action.label))
                    break
                }
                taken.pages.append(next)
                taken.presentations.append(shown.presentation)
                taken.labels.append(action.label)
                taken.tabs.append(isTab)
                route = action.route
                isDialog = table.presentation(of: next) == .modal
                if step.title != nil || step.ending != nil {
                    let made = await page(route)
                    guard let reached = made.page else {
                        stop(.failed(route: route.shownPathAndName, error: made.error))
                        break
                    }
                    if let title = step.title, reached.title != title {
                        stop(.expectation(.title(title)))
                        break
                    }
                    if let ending = step.ending, reached.ending != ending {
                        stop(.expectation(ending == .emptyState ? .emptyState : .ending))
                        break
                    }
                }
            }
        }
        return check
    }
}
