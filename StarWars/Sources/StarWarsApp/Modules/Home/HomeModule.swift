import FlowSite
import Logging
import SWAPI

/// What the front page shows: the categories with their counts and a strip of featured characters.
public struct HomeContent: Sendable, Hashable {
    public struct Category: Sendable, Hashable {
        public var kind: ResourceKind
        public var count: Int
    }

    public var categories: [Category]
    public var featured: [ListContent.Row]
}

/// Loads the front page: counts per kind and the featured characters.
public struct HomeViewModel: ViewModel {
    public typealias Dependencies = HasCatalogService & HasLogger & HasStrings & Sendable
    let dependencies: any Dependencies

    /// The characters the strip prefers, by SWAPI id, when the archive holds them.
    public static let featuredIDs = [1, 5, 14, 4, 13, 10, 20, 3, 2, 35, 11, 21]

    public init(dependencies: any Dependencies) { self.dependencies = dependencies }

    /// The words the front page is written in.
    public var strings: Strings { dependencies.strings }

    public func load() async -> ScreenState<HomeContent> {
        do {
            let catalog = try await dependencies.catalog.catalog()
            let content = Self.content(catalog, strings: strings)
            if content.categories.allSatisfy({ $0.count == 0 }) {
                return .empty(EmptyState(message: strings.localizedString(.homeEmpty)))
            }
            if content.featured.isEmpty { dependencies.logger.debug("No characters to feature on the front page") }
            return .loaded(content)
        } catch {
            return .error(strings.localizedString(.archiveError, ["error": "\(error)"]))
        }
    }

    /// The front page's content: a pure function of the catalog and the words.
    public static func content(_ catalog: Catalog, strings: Strings) -> HomeContent {
        var people = featuredIDs.compactMap { catalog.person($0) }
        if people.isEmpty { people = catalog.listedIDs(.people, 0..<8).compactMap(catalog.person) }
        return HomeContent(
            categories: ResourceKind.allCases.map { HomeContent.Category(kind: $0, count: catalog.listCount(of: $0)) },
            featured: people.map {
                ListContent.Row(
                    title: $0.name, route: catalog.route(.people, id: $0.id),
                    summary: CharactersModule.summary(of: $0, in: catalog, strings: strings))
            }
        )
    }
}

/// Renders the front page.
public struct HomeScreen: StatefulScreen {
    public typealias R = AppRoute
    public let viewModel: HomeViewModel

    public init(viewModel: HomeViewModel) { self.viewModel = viewModel }

    public func page(for state: ScreenState<HomeContent>) -> Page<AppRoute> {
        let strings = viewModel.strings
        var document = MarkdownDocument<AppRoute>()
        document.paragraph(.text(strings.localizedString(.homeIntroduction)))
        switch state {
        case .loading:
            document.paragraph(.text(strings.localizedString(.stateLoading)))
        case .loaded(let content):
            document.section(.related) { section in
                section.heading(strings.localizedString(.homeHeadingExplore))
                section.list(
                    content.categories.map {
                        [.link(strings.name(of: $0.kind, plural: true), to: .list($0.kind)), .text(" — \($0.count)")]
                    })
            }
            if !content.featured.isEmpty {
                document.section(.cards) { section in
                    section.heading(strings.localizedString(.homeHeadingFeatured))
                    section.list(
                        content.featured.map { [.link($0.title, to: $0.route), .lineBreak, .text($0.summary)] })
                }
            }
        case .empty(let empty):
            document.section(.notice) { $0.paragraph(.text(empty.message)) }
        case .error(let message):
            document.section(.notice) { $0.paragraph(.text(message)) }
        }
        document.paragraph(
            .link(strings.localizedString(.homeLinkSearch), to: .search), " · ",
            .link(strings.localizedString(.homeLinkAbout), to: .about))
        return Page(
            title: strings.localizedString(.homeTitle),
            shortTitle: strings.localizedString(.homeShortTitle),
            summary: strings.localizedString(.homeSummary),
            document: document
        )
    }
}

/// Owns the front page.
public struct HomeCoordinator: ChildCoordinator {
    let dependencies: AppDependencies

    public init(dependencies: AppDependencies) { self.dependencies = dependencies }

    public func handles(_ route: AppRoute) -> Bool { route == .home }

    public func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        HomeScreen(viewModel: HomeViewModel(dependencies: dependencies))
    }

    /// Home starts a new stack from anywhere.
    public func show(_ route: AppRoute, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        navigator.show(route, as: .root)
    }
}
