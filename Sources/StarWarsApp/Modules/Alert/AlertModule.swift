import FlowSite
import SWAPI

/// What an alert dialog says.
public struct AlertContent: Sendable, Hashable {
    public var title: String
    public var message: String
}

/// Explains a missing resource.
public struct AlertViewModel: ViewModel {
    public let route: AlertRoute

    public init(route: AlertRoute) {
        self.route = route
    }

    public func load() async -> AlertContent { Self.content(route) }

    public static func content(_ route: AlertRoute) -> AlertContent {
        switch route {
        case .missing(let kind, let id):
            AlertContent(
                title: "Not in the archive",
                message: "\(kind.singular) #\(id) is not in the archive: a page links to it, but the data this site was built from does not hold it."
            )
        }
    }
}

/// The alert dialog.
public struct AlertScreen: StatefulScreen {
    public typealias R = AppRoute
    public let viewModel: AlertViewModel

    public init(viewModel: AlertViewModel) { self.viewModel = viewModel }

    public func page(for state: AlertContent) -> Page<AppRoute> {
        var document = MarkdownDocument<AppRoute>()
        document.section(.notice) { $0.paragraph(.text(state.message)) }
        return Page(title: state.title, shortTitle: state.title, document: document)
    }
}

/// Owns the alert dialogs.
public struct AlertCoordinator: ChildCoordinator {
    public init() {}

    public func handles(_ route: AppRoute) -> Bool {
        if case .alert = route { true } else { false }
    }

    public func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        guard case .alert(let alert) = route else { throw UnhandledRoute(route: route, coordinator: "AlertCoordinator") }
        return AlertScreen(viewModel: AlertViewModel(route: alert))
    }

    /// Alerts are dialogs over the page that led to them.
    public func show(_ route: AppRoute, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        navigator.show(route, as: .modal)
    }
}
