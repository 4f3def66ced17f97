import FlowSite

extension AboutScreen {
    /// The About dialog's view model, nested in an extension of its screen: it needs no services.
    public struct ViewModel: FlowSite.ViewModel {
        public struct Content: Sendable, Hashable {
            public var paragraphs: [String]
        }

        public init() {}

        public func load() async -> Content {
            Content(paragraphs: [
                "This site is a static archive of the Star Wars saga, built from data in the format of SWAPI, the Star Wars API.",
                "Every page is a screen of an app written the MVVM-C way: coordinators own navigation, view models own presentation state, and Holocron walks every route offline and renders each screen to HTML with cmark.",
                "It needs no server and no JavaScript: host the folder anywhere, or open it straight from disk.",
                "Star Wars and its characters are trademarks of Lucasfilm Ltd. This is an unofficial fan archive of facts.",
            ])
        }
    }
}

/// The About dialog.
public struct AboutScreen: StatefulScreen {
    public typealias R = AppRoute
    public let viewModel = ViewModel()

    public init() {}

    public func page(for state: ViewModel.Content) -> Page<AppRoute> {
        var document = MarkdownDocument<AppRoute>()
        for paragraph in state.paragraphs { document.paragraph(.text(paragraph)) }
        return Page(title: "About this site", shortTitle: "About", document: document)
    }
}

/// Owns the About dialog.
public struct AboutCoordinator: ChildCoordinator {
    public init() {}

    public func handles(_ route: AppRoute) -> Bool { route == .about }

    public func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> { AboutScreen() }

    /// About is a dialog over the page it was opened from.
    public func show(_ route: AppRoute, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        navigator.show(route, as: .modal)
    }
}
