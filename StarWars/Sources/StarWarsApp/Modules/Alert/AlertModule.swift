import FlowSite
import SWAPI

/// What an alert dialog says.
public struct AlertContent: Sendable, Hashable {
    public var title: String
    /// The label in breadcrumbs.
    public var shortTitle: String
    /// The page's one-sentence description.
    public var summary: String
    public var message: String
}

/// Explains a missing resource.
public struct AlertViewModel: ViewModel {
    public typealias Dependencies = HasStrings & Sendable
    let dependencies: any Dependencies
    public let route: AlertRoute

    public init(dependencies: any Dependencies, route: AlertRoute) {
        self.dependencies = dependencies
        self.route = route
    }

    public func load() async -> AlertContent { Self.content(route, strings: dependencies.strings) }

    public static func content(_ route: AlertRoute, strings: Strings) -> AlertContent {
        switch route {
        case .missing(let kind, let id):
            AlertContent(
                title: strings.localizedString(.alertMissingTitle, about: kind, ["id": "\(id)"]),
                shortTitle: strings.localizedString(.alertMissingShortTitle),
                summary: strings.localizedString(.alertMissingSummary, about: kind, ["id": "\(id)"]),
                message: strings.localizedString(.alertMissingMessage, about: kind, ["id": "\(id)"])
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
        return Page(title: state.title, shortTitle: state.shortTitle, summary: state.summary, document: document)
    }
}

/// Owns the alert dialogs.
public struct AlertCoordinator: ChildCoordinator {
    let dependencies: AppDependencies

    public init(dependencies: AppDependencies) { self.dependencies = dependencies }

    public func handles(_ route: AppRoute) -> Bool {
        if case .alert = route { true } else { false }
    }

    public func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        guard case .alert(let alert) = route else {
            throw UnhandledRoute(route: route, coordinator: "AlertCoordinator")
        }
        return AlertScreen(viewModel: AlertViewModel(dependencies: dependencies, route: alert))
    }

    /// Alerts are dialogs over the page that led to them.
    public func show(_ route: AppRoute, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        navigator.show(route, as: .modal)
    }
}
