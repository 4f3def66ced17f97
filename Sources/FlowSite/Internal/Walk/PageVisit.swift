import Foundation

/// One page the walker made, with what the renderer needs to place it in the site.
package struct PageVisit<R: Route>: Sendable {
    /// The page's route.
    package let route: R
    /// The page.
    package let page: Page<R>
    /// From the start route, this page last.
    package let breadcrumbs: [Breadcrumb<R>]
    /// How the page was first reached.
    package let presentation: Presentation
    /// For a modal page, the page that presented it (where Close leads).
    package let presenter: Breadcrumb<R>?
    /// The failure, when the page is the app's error screen.
    package let recoveredError: String?
    /// Fewest clicks from the start page.
    let clickDepth: Int
    /// The number ``FlowRecorder`` gave the page's screen kind.
    package let kind: Int32
    /// Routes discovered when this page was started (for progress).
    package let discovered: Int
    /// Texts shown in ``SiteInfo/fallbackLanguage``.
    var fallbackTexts: [String] = []
    /// Discovery index (-1 when not made by a walk).
    package var index = -1
    /// A tab root shown as a dialog, written at ``Route/pagePath(dialogCopy:)``.
    package var isDialogCopy = false
    /// Tab roots this page opens as dialogs: links to them lead to their dialog copies.
    package var dialogLinks: Set<R> = []
    /// Every route this page's own links open as a dialog: the page marks those links.
    package var opensAsDialog: Set<R> = []
    /// Every route this page's own links go back to (``Presentation/back``): in a browser they go back in history.
    package var goesBackTo: Set<R> = []

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
    /// See ``PageVisit/isDialogCopy``.
    package let isDialogCopy: Bool

    package init(title: String, route: R, isDialogCopy: Bool = false) {
        self.title = title
        self.route = route
        self.isDialogCopy = isDialogCopy
    }

    /// The step's page.
    package var path: RoutePath { route.pagePath(dialogCopy: isDialogCopy) }
}
