import Foundation

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
    let clickDepth: Int
    /// The page's screen kind, as the number the walk's ``FlowRecorder`` gave it.
    package let kind: Int32
    /// How many routes the walk had discovered when this page was started (for progress).
    package let discovered: Int
    /// The texts the page showed in ``SiteInfo/fallbackLanguage`` (see ``StringTable/shownInFallbackLanguage(_:)``).
    var fallbackTexts: [String] = []
    /// The page's place in the walk's discovery order (-1 when not made by a walk).
    package var index = -1
    /// Whether the page is a tab's root shown as a dialog: its route's own page is the tab's,
    /// and this one is written at ``Route/pagePath(dialogCopy:)``.
    package var isDialogCopy = false
    /// The tab roots this page opens as dialogs: its links to them lead to their dialog copies.
    package var dialogLinks: Set<R> = []

    /// Where the page is written.
    package var path: RoutePath { route.pagePath(dialogCopy: isDialogCopy) }

    /// Where the page's links to `route` lead.
    package func linkPath(to route: R) -> RoutePath {
        route.pagePath(dialogCopy: !dialogLinks.isEmpty && dialogLinks.contains(route))
    }

    package init(
        route: R, page: Page<R>, breadcrumbs: [Breadcrumb<R>], presentation: Presentation = .push,
        presenter: Breadcrumb<R>? = nil, recoveredError: String? = nil, clickDepth: Int = 0, kind: Int32 = 0,
        discovered: Int = 0
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
    /// Whether the step is a tab's root shown as a dialog (see ``PageVisit/isDialogCopy``).
    package let isDialogCopy: Bool

    package init(title: String, route: R, isDialogCopy: Bool = false) {
        self.title = title
        self.route = route
        self.isDialogCopy = isDialogCopy
    }

    /// The step's page.
    package var path: RoutePath { route.pagePath(dialogCopy: isDialogCopy) }
}
