import FlowSite
import SWAPI

/// Every screen of the Star Wars site.
public enum AppRoute: Route, CustomStringConvertible {
    /// The front page.
    case home
    /// A list page or a detail page of one kind of resource.
    case resources(ResourceKind, ResourceRoute)
    /// The search page.
    case search
    /// The About dialog.
    case about
    /// A dialog for a missing resource.
    case alert(AlertRoute)

    public var path: RoutePath {
        switch self {
        case .home: .root
        case .resources(let kind, .list(let page)):
            page <= 1 ? [kind.slug] : [kind.slug, "page", Slug("\(page)")]
        case .resources(let kind, .detail(_, let slug)): [kind.slug, slug]
        case .search: ["search"]
        case .about: ["about"]
        case .alert(.missing(let kind, let id)): ["archive", "missing", Slug("\(kind.slug.rawValue)-\(id)")]
        }
    }

    public var description: String {
        switch self {
        case .home: "home"
        case .resources(let kind, .list(let page)): "\(kind.slug) page \(page)"
        case .resources(let kind, .detail(let id, let slug)): "\(kind.slug)/\(slug) (id \(id))"
        case .search: "search"
        case .about: "about"
        case .alert(.missing(let kind, let id)): "missing \(kind) \(id)"
        }
    }

    /// The first list page of `kind`.
    public static func list(_ kind: ResourceKind, page: Int = 1) -> AppRoute { .resources(kind, .list(page: page)) }
}

/// The screens of one kind of resource: its list pages and its detail pages.
public enum ResourceRoute: Hashable, Sendable {
    /// A list page, from 1.
    case list(page: Int)
    /// One resource, by id, at its slug.
    case detail(id: Int, slug: Slug)
}

extension ResourceRoute {
    /// Hashes what tells routes apart, leaving out the slug: a detail's id decides its slug, so
    /// equal routes still hash alike, and the walk hashes every link of every page (a film at
    /// 100x links to thousands) without reading each slug's text.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .list(let page):
            hasher.combine(0)
            hasher.combine(page)
        case .detail(let id, _):
            hasher.combine(1)
            hasher.combine(id)
        }
    }
}

/// The dialogs.
public enum AlertRoute: Hashable, Sendable {
    /// A relation points at a resource the archive does not hold.
    case missing(ResourceKind, id: Int)
}

extension ResourceKind {
    /// The folder of this kind in the site: `characters` for people, the API name otherwise.
    public var slug: Slug {
        switch self {
        case .people: "characters"
        case .films: "films"
        case .planets: "planets"
        case .species: "species"
        case .starships: "starships"
        case .vehicles: "vehicles"
        }
    }
}
