import Foundation

/// A screen as the site sees it: something that makes one ``Page``. Most screens conform to ``StatefulScreen``.
public protocol Screen<R>: Sendable {
    /// The app's route type, which the page's links carry.
    associatedtype R: Route
    /// Loads the screen's state and renders it.
    func makePage() async throws -> Page<R>
}

/// A screen whose page is a pure function of its view model's state, so every state can be snapshot-tested.
public protocol StatefulScreen<R>: Screen {
    /// The view model type, whose ``ViewModel/State`` the screen renders.
    associatedtype Model: ViewModel
    /// The view model that loads the state.
    var viewModel: Model { get }
    /// Renders a state into a page.
    func page(for state: Model.State) -> Page<R>
}

extension StatefulScreen {
    /// Loads the state and renders it; a page rendered from ``ScreenState/empty(_:)`` is marked
    /// ``Page/Ending/emptyState`` unless it sets ``Page/ending`` itself.
    public func makePage() async throws -> Page<R> {
        let state = await viewModel.load()
        var page = page(for: state)
        if page.ending == nil, let state = state as? any EmptiableState, state.isEmpty { page.ending = .emptyState }
        return page
    }
}

/// A presentation state that can be loaded with nothing to show: ``ScreenState``.
protocol EmptiableState {
    var isEmpty: Bool { get }
}

/// The rendered form of one screen: its title and its Markdown, whose links carry routes.
public struct Page<R: Route>: Sendable {
    /// The page title: the `<title>` and the page's heading.
    public var title: String
    /// A short label for breadcrumbs and Close links; the title when `nil`.
    public var shortTitle: String?
    /// A one-sentence summary for the page's meta description.
    public var summary: String?
    /// The page body. Its route links are the screen's navigation actions.
    public var document: MarkdownDocument<R>
    /// Files published next to the page, by name (letters, digits, `.`, `-` and `_`, no
    /// leading dot, not `index.html`): a page's JSON, a download.
    public var files: [String: Data]
    /// Extra values for the layout template, such as `["search": "true"]`.
    public var templateValues: [String: String]
    /// For one page of a paginated list: the page count, this page's number (from 1) and the action that leads to
    /// page `n`, labelled as its number link reads. Only the pages shown are asked for; the walker follows them and
    /// the link checker checks them like any other link.
    public var pagination: (count: Int, current: Int, page: @Sendable (Int) -> NavigationAction<R>)?
    /// Where the page was made: the screen's rendering code, which the flow graph names for the page's screen kind.
    public var location: CodeLocation

    /// A page titled `title` with body `document`; the defaulted `fileID`, `filePath` and `line` record the caller
    /// as the page's ``location``.
    public init(
        title: String,
        shortTitle: String? = nil,
        summary: String? = nil,
        document: MarkdownDocument<R>,
        files: [String: Data] = [:],
        templateValues: [String: String] = [:],
        pagination: (count: Int, current: Int, page: @Sendable (Int) -> NavigationAction<R>)? = nil,
        fileID: String = #fileID, filePath: String = #filePath, line: Int = #line
    ) {
        self.location = CodeLocation(fileID: fileID, filePath: filePath, line: line)
        self.title = title
        self.shortTitle = shortTitle
        self.summary = summary
        self.document = document
        self.files = files
        self.templateValues = templateValues
        self.pagination = pagination
    }

    /// Why the page may have no way on of its own, when it is meant to: flow lint's `dead-end` rule leaves it out.
    /// A ``StatefulScreen`` sets ``Ending/emptyState`` for an empty state.
    public var ending: Ending?

    /// The label used in breadcrumbs.
    public var breadcrumbTitle: String { shortTitle ?? title }

    /// Why a page has no way on of its own.
    public enum Ending: Sendable, Hashable {
        /// The screen shows its empty state (no results, no followers): reported under `empty-state`, off by default.
        case emptyState
        /// The flow ends here on purpose (a confirmation, a receipt): never a finding.
        case intended
    }
}

extension Page {
    /// Fails for a file name that could leave the page's folder, hide the file or replace the page.
    static func checkFileName(_ name: String, route: String) throws {
        let allowed = name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || $0 == "." || $0 == "-" || $0 == "_"
        }
        guard allowed, !name.isEmpty, !name.hasPrefix("."), name != "index.html" else {
            throw FlowSiteError(.invalidResourceName(name, route: route))
        }
    }
}
