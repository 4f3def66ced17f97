import FlowSite
import SWAPI

/// What an alert dialog says.
public struct AlertContent: Sendable, Hashable {
    public var title: String
    public var message: String
}

/// Explains a missing resource or an archive that could not be loaded.
public struct AlertViewModel: ViewModel {
    public typealias Dependencies = Void
    public let route: AlertRoute
    /// The failure behind an `unavailable` alert, when known.
    public var failure: String?

    public init(route: AlertRoute, failure: String? = nil) {
        self.route = route
        self.failure = failure
    }

    public func load() async -> AlertContent { Self.content(route, failure: failure) }

    public static func content(_ route: AlertRoute, failure: String? = nil) -> AlertContent {
        switch route {
        case .missing(let kind, let id):
            AlertContent(
                title: "Not in the archive",
                message: "\(kind.singular) #\(id) is not in the archive: a page links to it, but the data this site was built from does not hold it."
            )
        case .unavailable:
            AlertContent(title: "Archive unavailable", message: failure ?? "The archive could not be loaded.")
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
}
