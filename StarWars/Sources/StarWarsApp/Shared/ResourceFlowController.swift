import FlowSite
import SWAPI

/// A child of the ``AppCoordinator``: owns some of the app's routes.
public protocol ChildCoordinator: Coordinator where R == AppRoute {
    /// Whether this coordinator owns `route`.
    func handles(_ route: AppRoute) -> Bool

    /// Presents `route`, which this coordinator owns, to a user coming from `source`'s page.
    /// The default pushes it.
    func show(_ route: AppRoute, from source: AppRoute, in navigator: some Navigator<AppRoute>)

    /// Presents `route`, which this coordinator owns, for the reader's tab selection. The
    /// default shows it as the root of a new trail.
    func selectTab(_ route: AppRoute, in navigator: some Navigator<AppRoute>)
}

extension ChildCoordinator {
    public func show(_ route: AppRoute, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        navigator.show(route, as: .push)
    }

    public func selectTab(_ route: AppRoute, in navigator: some Navigator<AppRoute>) {
        navigator.show(route, as: .root)
    }
}

/// A route reached a coordinator that does not own it: a bug in the app's wiring.
struct UnhandledRoute: Error, CustomStringConvertible {
    let route: AppRoute
    let coordinator: String
    var description: String { "\(coordinator) does not handle \(route)" }
}

/// The flow controller of one kind of resource (characters, films, planets, …): makes the
/// module's list and detail screens, and turns the user's choices into navigation.
public struct ResourceFlowController<Module: ResourceModule>: ChildCoordinator {
    let dependencies: AppDependencies
    public var kind: ResourceKind { Module.Resource.kind }

    public init(dependencies: AppDependencies) {
        self.dependencies = dependencies
    }

    public func handles(_ route: AppRoute) -> Bool {
        if case .resources(let routeKind, _) = route { routeKind == kind } else { false }
    }

    public func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        switch route {
        case .resources(kind, .list(let page)):
            ResourceListScreen(viewModel: ResourceListViewModel<Module>(dependencies: dependencies, page: page))
        case .resources(kind, .detail(let id, _)):
            ResourceDetailScreen(viewModel: ResourceDetailViewModel<Module>(dependencies: dependencies, id: id))
        default: throw UnhandledRoute(route: route, coordinator: "ResourceFlowController(\(kind))")
        }
    }

    public func show(_ route: AppRoute, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        switch route {
        case .resources(kind, .list(let page)): didSelectListPage(page, from: source, in: navigator)
        case .resources(kind, .detail): didSelectResource(route, from: source, in: navigator)
        default: break
        }
    }

    /// The reader picked the flow's tab: its list's first page, the root of the flow's stack.
    public func selectTab(_ route: AppRoute, in navigator: some Navigator<AppRoute>) {
        navigator.show(.list(kind), as: .root)
    }

    /// The user picked list page `page`. Later pages sit over the first one, so their trail
    /// reads Home › Characters › Page 2: from the first page a later one is pushed, from a later
    /// page another replaces it, and the first page is the flow's root again (Home › Characters).
    /// A list reached from elsewhere is pushed over the page the user came from. Each decision
    /// shows the route itself, so the flow map names the line that made it.
    public func didSelectListPage(_ page: Int, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        let list = AppRoute.list(kind, page: page)
        guard case .resources(kind, .list(let current)) = source else {
            navigator.show(list, as: .push)
            return
        }
        if page <= 1 {
            navigator.show(list, as: .root)
        } else if current <= 1 {
            navigator.show(list, as: .push)
        } else {
            navigator.show(list, as: .replace)
        }
    }

    /// The user picked one of this flow's resources: pushed from the list's first page or the
    /// flow's own pages; from a later list page or any other page it opens as a deep link, so
    /// the trail always reads Home › Characters › Luke.
    public func didSelectResource(_ route: AppRoute, from source: AppRoute, in navigator: some Navigator<AppRoute>) {
        if case .resources(kind, .list(let page)) = source, page > 1 {
            navigator.show(route, as: .root)
        } else if handles(source) {
            navigator.show(route, as: .push)
        } else {
            navigator.show(route, as: .root)
        }
    }
}
