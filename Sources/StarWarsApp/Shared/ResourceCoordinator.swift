import FlowSite
import SWAPI

/// A child of the ``AppCoordinator``: owns some of the app's routes.
public protocol ChildCoordinator: Coordinator where R == AppRoute {
    /// Whether this coordinator owns `route`.
    func handles(_ route: AppRoute) -> Bool
}

/// A route reached a coordinator that does not own it: a bug in the app's wiring.
struct UnhandledRoute: Error, CustomStringConvertible {
    let route: AppRoute
    let coordinator: String
    var description: String { "\(coordinator) does not handle \(route)" }
}

/// Makes one kind's list and detail screens.
public protocol ResourceFactory: Sendable {
    associatedtype Detail: ResourceDetailViewModel
    func createList(page: Int) -> ResourceListScreen
    func createDetail(id: Int) -> ResourceDetailScreen<Detail>
}

/// The coordinator of a resource module (films, planets, …): list pages and detail pages.
public struct ResourceCoordinator<Factory: ResourceFactory>: ChildCoordinator {
    public let kind: ResourceKind
    let factory: Factory

    public init(kind: ResourceKind, factory: Factory) {
        self.kind = kind
        self.factory = factory
    }

    public func handles(_ route: AppRoute) -> Bool {
        if case .resources(let routeKind, _) = route { routeKind == kind } else { false }
    }

    public func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        switch route {
        case .resources(kind, .list(let page)): factory.createList(page: page)
        case .resources(kind, .detail(let id, _)): factory.createDetail(id: id)
        default: throw UnhandledRoute(route: route, coordinator: "\(kind.plural)Coordinator")
        }
    }
}

/// A factory for a kind whose detail view model is built from the dependencies and an id.
public struct LiveResourceFactory<Detail: ResourceDetailViewModel>: ResourceFactory {
    let dependencies: AppDependencies
    let kind: ResourceKind
    let makeDetail: @Sendable (AppDependencies, Int) -> Detail

    public init(dependencies: AppDependencies, kind: ResourceKind, makeDetail: @escaping @Sendable (AppDependencies, Int) -> Detail) {
        self.dependencies = dependencies
        self.kind = kind
        self.makeDetail = makeDetail
    }

    public func createList(page: Int) -> ResourceListScreen {
        ResourceListScreen(viewModel: ResourceListViewModel(dependencies: dependencies, kind: kind, page: page))
    }

    public func createDetail(id: Int) -> ResourceDetailScreen<Detail> {
        ResourceDetailScreen(viewModel: makeDetail(dependencies, id))
    }
}

/// A detail view model made of a lookup and a mapping: enough for films, planets, species,
/// starships and vehicles.
public struct MappedDetailViewModel<Resource: SwapiResource>: ResourceDetailViewModel {
    public typealias Dependencies = HasCatalogService & Sendable
    let dependencies: any Dependencies
    public let id: Int
    let find: @Sendable (SwapiArchive, Int) -> Resource?
    let map: @Sendable (Resource, Catalog) -> DetailContent
    public var kind: ResourceKind { Resource.kind }

    public init(
        dependencies: any Dependencies, id: Int,
        find: @escaping @Sendable (SwapiArchive, Int) -> Resource?,
        map: @escaping @Sendable (Resource, Catalog) -> DetailContent
    ) {
        self.dependencies = dependencies
        self.id = id
        self.find = find
        self.map = map
    }

    public func load() async -> ScreenState<DetailContent> {
        await load(from: dependencies.catalog, find: { find($0, id) }, content: map)
    }
}
