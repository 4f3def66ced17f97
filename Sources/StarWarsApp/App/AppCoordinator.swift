import FlowSite
import SWAPI

/// The root coordinator: hands each route to the child coordinator that owns it and decides
/// how routes are presented, so that breadcrumbs read like the site's hierarchy.
public struct AppCoordinator: RootCoordinator {
    let children: [any ChildCoordinator]

    public init(dependencies: AppDependencies) {
        children = [
            HomeCoordinator(dependencies: dependencies),
            CharactersFlowController(factory: LiveCharactersFactory(dependencies: dependencies)),
            FilmsModule.makeCoordinator(dependencies),
            PlanetsModule.makeCoordinator(dependencies),
            SpeciesModule.makeCoordinator(dependencies),
            StarshipsModule.makeCoordinator(dependencies),
            VehiclesModule.makeCoordinator(dependencies),
            SearchCoordinator(dependencies: dependencies),
            AboutCoordinator(),
            AlertCoordinator(),
        ]
    }

    public var startRoute: AppRoute { .home }

    public var siteInfo: SiteInfo<AppRoute> {
        SiteInfo(
            name: "Star Wars Holocron",
            footer: "An unofficial fan archive of Star Wars facts in SWAPI's format, built with Holocron. Star Wars is a trademark of Lucasfilm Ltd.",
            navigation: ResourceKind.allCases.map { NavigationAction($0.plural, to: AppRoute.list($0)) }
                + [NavigationAction("Search", to: .search)]
        )
    }

    public func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        guard let child = children.first(where: { $0.handles(route) }) else {
            throw UnhandledRoute(route: route, coordinator: "AppCoordinator")
        }
        return try await child.makeScreen(for: route)
    }

    /// Dialogs are modal; moving between pages of one list replaces the page; a resource
    /// reached from outside its own kind's flow opens that flow, as a deep link would.
    public func presentation(of route: AppRoute, from source: AppRoute) -> Presentation {
        switch (route, source) {
        case (.about, _), (.alert, _): .modal
        case (.home, _): .root
        case (.resources(let kind, .list), .resources(let sourceKind, .list)) where kind == sourceKind: .replace
        case (.resources(let kind, .detail), .resources(let sourceKind, _)) where kind == sourceKind: .push
        case (.resources(_, .detail), _): .root
        default: .push
        }
    }

    public func rootStack(for route: AppRoute) -> [AppRoute] {
        switch route {
        case .home: [.home]
        case .resources(let kind, .detail): [.home, .list(kind), route]
        default: [.home, route]
        }
    }

    /// A screen that could not be built shows the alert dialog with the reason.
    public func errorScreen(for route: AppRoute, error: any Error) -> (any Screen<AppRoute>)? {
        if error is UnhandledRoute { return nil }  // a wiring bug must fail the build
        return AlertScreen(viewModel: AlertViewModel(route: .unavailable, failure: "\(error)"))
    }
}
