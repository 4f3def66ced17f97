import FlowSite
import Foundation
import SWAPI

/// The root coordinator: hands each route to the child coordinator or flow controller that owns
/// it, both to make its screen and to present it when a link leads there.
public struct AppCoordinator: RootCoordinator {
    let children: [any ChildCoordinator]
    let strings: Strings
    let dependencies: AppDependencies

    public init(dependencies: AppDependencies) {
        self.dependencies = dependencies
        strings = dependencies.strings
        children = [
            HomeCoordinator(dependencies: dependencies),
            ResourceFlowController<CharactersModule>(dependencies: dependencies),
            ResourceFlowController<FilmsModule>(dependencies: dependencies),
            ResourceFlowController<PlanetsModule>(dependencies: dependencies),
            ResourceFlowController<SpeciesModule>(dependencies: dependencies),
            ResourceFlowController<StarshipsModule>(dependencies: dependencies),
            ResourceFlowController<VehiclesModule>(dependencies: dependencies),
            SearchCoordinator(dependencies: dependencies),
            AboutCoordinator(dependencies: dependencies),
            AlertCoordinator(dependencies: dependencies)
        ]
    }

    /// The same app with its words in another language: a multilingual build walks one each.
    public func translated(into strings: Strings) -> AppCoordinator {
        var dependencies = dependencies
        dependencies.strings = strings
        return AppCoordinator(dependencies: dependencies)
    }

    public var startRoute: AppRoute { .home }

    public var siteInfo: SiteInfo<AppRoute> {
        var info = SiteInfo(
            name: strings.localizedString(.siteName),
            language: strings.language,
            footer: strings.localizedString(.siteFooter),
            navigation: ResourceKind.allCases.map {
                NavigationAction(strings.name(of: $0, plural: true), to: AppRoute.list($0))
            }
                + [NavigationAction(strings.localizedString(.navigationSearch), to: .search)],
            labels: strings.layoutLabels
        )
        info.fallbackLanguage = strings.fallbackLanguage
        info.revision = strings.revision
        let formatted = strings.formatted
        info.formatsCount = { formatted.integer($0) }
        // The search script counts in the page's language unless the table's locale speaks
        // another (a pseudo-locale's numbers are its source's).
        if strings.locale.language.languageCode != Locale.Language(identifier: strings.language).languageCode {
            info.numberLocale = strings.locale.identifier
        }
        return info
    }

    /// Every character, film, planet, species, starship and vehicle is in the search index,
    /// with its kind as the section.
    public var search: SiteSearch<AppRoute>? {
        let strings = strings
        return SiteSearch(
            includes: { route in
                if case .resources(_, .detail) = route { true } else { false }
            },
            section: { route in
                if case .resources(let kind, _) = route { strings.name(of: kind) } else { nil }
            }
        )
    }

    /// Flow lint's settings for this app, with the reason for each exception.
    public var flowLint: FlowLintConfiguration {
        FlowLintConfiguration(suppressions: [
            FlowLintConfiguration.Suppression(
                rule: FlowLintRule.unreachableScreen.id, kind: "missing-record",
                reason:
                    """
                    The missing-record dialog only opens for a relation to a record the archive lacks; \
                    complete data has none.
                    """
            )
        ])
    }

    public func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        guard let child = children.first(where: { $0.handles(route) }) else {
            throw UnhandledRoute(route: route, coordinator: "AppCoordinator")
        }
        return try await child.makeScreen(for: route)
    }

    /// A link was followed: the flow that owns the target presents it (dialogs modal, Home as
    /// the root, a resource from outside its own flow as a deep link), so breadcrumbs read like
    /// the site's hierarchy.
    public func navigate(
        _ action: NavigationAction<AppRoute>, from source: AppRoute, in navigator: some Navigator<AppRoute>
    ) {
        // No owner means nothing is shown, and the walker names the link.
        children.first { $0.handles(action.route) }?.show(action.route, from: source, in: navigator)
    }

    /// A tab was selected: the flow that owns its list starts again at its root.
    public func selectTab(_ tab: NavigationAction<AppRoute>, in navigator: some Navigator<AppRoute>) {
        children.first { $0.handles(tab.route) }?.selectTab(tab.route, in: navigator)
    }

    public func rootStack(for route: AppRoute) -> [AppRoute] {
        switch route {
        case .home: [.home]
        case .resources(let kind, .detail): [.home, .list(kind), route]
        // A later page of a list sits over its first page: Home › Characters › Page 2.
        case .resources(let kind, .list(let page)) where page > 1: [.home, .list(kind), route]
        default: [.home, route]
        }
    }
}
