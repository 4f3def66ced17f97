import SWAPI

/// One kind of resource as the app shows it: each kind's module (``CharactersModule``,
/// ``FilmsModule``, …) finds its resources in the catalog and says what their pages hold, and
/// the shared view models and screens (``ResourceDetailViewModel``, ``ResourceDetailScreen``)
/// do the rest.
public protocol ResourceModule: Sendable {
    /// The SWAPI type of the kind's resources.
    associatedtype Resource: SwapiResource
    /// The resource with `id`, or `nil` when the archive does not hold it.
    static func find(_ id: Int, in catalog: Catalog) -> Resource?
    /// Every attribute and relation of `resource`, in the words of `strings`.
    static func detail(of resource: Resource, in catalog: Catalog, strings: Strings) -> DetailContent
}
