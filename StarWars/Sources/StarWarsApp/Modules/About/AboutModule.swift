import FlowSite

extension AboutScreen {
    /// The About dialog's view model, nested in an extension of its screen: it needs only the
    /// app's words.
    public struct ViewModel: FlowSite.ViewModel {
        public typealias Dependencies = HasStrings & Sendable
        let dependencies: any Dependencies

        public struct Content: Sendable, Hashable {
            public var paragraphs: [String]
            /// The link to the site's flow map.
            public var flowMap: String
        }

        public init(dependencies: any Dependencies) { self.dependencies = dependencies }

        /// The words the dialog is written in.
        public var strings: Strings { dependencies.strings }

        public func load() async -> Content {
            Content(
                paragraphs: [.aboutParagraph1, .aboutParagraph2, .aboutParagraph3, .aboutParagraph4].map {
                    strings.localizedString($0)
                },
                flowMap: strings.localizedString(.aboutFlowMap)
            )
        }
    }
}

/// The About dialog.
public struct AboutScreen: StatefulScreen {
    public typealias R = AppRoute
    public let viewModel: ViewModel

    public init(viewModel: ViewModel) { self.viewModel = viewModel }

    public func page(for state: ViewModel.Content) -> Page<AppRoute> {
        let strings = viewModel.strings
        var document = MarkdownDocument<AppRoute>()
        for paragraph in state.paragraphs { document.paragraph(.text(paragraph)) }
        document.paragraph(.siteFile([.text(state.flowMap)], "flow/index.html"))
        return Page(
            title: strings.localizedString(.aboutTitle),
            shortTitle: strings.localizedString(.aboutShortTitle),
            summary: strings.localizedString(.aboutSummary),
            document: document
        )
    }
}

/// Owns the About dialog.
public struct AboutCoordinator: ChildCoordinator {
    let dependencies: AppDependencies

    public init(dependencies: AppDependencies) { self.dependencies = dependencies }

    public func handles(_ route: AppRoute) -> Bool { route == .about }

    public func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        AboutScreen(viewModel: .init(dependencies: dependencies))
    }

    /// About is a dialog over the page it was opened from.
    public func show(_ route: AppRoute, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        navigator.show(route, as: .modal)
    }
}
