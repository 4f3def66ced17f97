import FlowSite

/// What the About dialog says.
public struct AboutContent: Sendable, Hashable {
    /// The dialog's paragraphs, in reading order.
    public var paragraphs: [String]
    /// The link to the site's flow map.
    public var flowMap: String
}

/// The About dialog's view model. Its content is the app's words alone, so it cannot fail to
/// load, and its state is the content itself.
public struct AboutViewModel: ViewModel {
    public typealias Dependencies = HasStrings & Sendable
    let dependencies: any Dependencies

    public init(dependencies: any Dependencies) { self.dependencies = dependencies }

    /// The words the dialog is written in.
    public var strings: Strings { dependencies.strings }

    public func load() async -> AboutContent {
        AboutContent(
            paragraphs: [.aboutParagraph1, .aboutParagraph2, .aboutParagraph3, .aboutParagraph4].map {
                strings.localizedString($0)
            },
            flowMap: strings.localizedString(.aboutFlowMap)
        )
    }
}

/// The About dialog.
public struct AboutScreen: StatefulScreen {
    public typealias R = AppRoute
    public let viewModel: AboutViewModel

    public init(viewModel: AboutViewModel) { self.viewModel = viewModel }

    public func page(for state: AboutContent) -> Page<AppRoute> {
        let strings = viewModel.strings
        var document = MarkdownDocument<AppRoute>()
        for paragraph in state.paragraphs { document.paragraph(.text(paragraph)) }
        document.paragraph(.siteFile([.text(state.flowMap)], "flow/index.html"))
        var page = Page(
            title: strings.localizedString(.aboutTitle),
            shortTitle: strings.localizedString(.aboutShortTitle),
            summary: strings.localizedString(.aboutSummary),
            document: document
        )
        // A reader who opens About has read to the end of the site's story: its Close is the one way on.
        page.ending = .intended
        return page
    }
}

/// Owns the About dialog.
public struct AboutCoordinator: ChildCoordinator {
    let dependencies: AppDependencies

    public init(dependencies: AppDependencies) { self.dependencies = dependencies }

    public func handles(_ route: AppRoute) -> Bool { route == .about }

    public func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        AboutScreen(viewModel: AboutViewModel(dependencies: dependencies))
    }

    /// About is a dialog over the page it was opened from.
    public func show(_ route: AppRoute, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        navigator.show(route, as: .modal)
    }
}
