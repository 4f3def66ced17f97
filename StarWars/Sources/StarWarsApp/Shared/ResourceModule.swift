import SWAPI

/// One kind of resource as the app shows it: each kind's module (``CharactersModule``,
/// ``FilmsModule``, …) finds its resources in the catalog and says what their list rows and
/// detail pages hold. The rest is shared, each generic over the module: its flow,
/// `ResourceFlowController<Module>`, and its view models and screens,
/// ``ResourceListViewModel`` and ``ResourceDetailViewModel`` with ``ResourceListScreen`` and
/// ``ResourceDetailScreen``. A new kind is a new module and one line in ``AppCoordinator``.
public protocol ResourceModule: Sendable {
    /// The SWAPI type of the kind's resources.
    associatedtype Resource: SwapiResource
    /// The resource with `id`, or `nil` when the archive does not hold it.
    static func find(_ id: Int, in catalog: Catalog) -> Resource?
    /// The one-line summary of `resource` in its list row, in the words of `strings`.
    static func summary(of resource: Resource, in catalog: Catalog, strings: Strings) -> String
    /// Every attribute and relation of `resource`, in the words of `strings`.
    static func detail(of resource: Resource, in catalog: Catalog, strings: Strings) -> DetailContent
}
