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
    /// equal routes still hash alike, and the walk hashes every link of every page (a film of a
    /// large archive links to thousands) without reading each slug's text.
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

extension AppRoute {
    /// The site's kinds of screen, named once here: the flow map, flow lint and `holocron graph
    /// --level screens` speak of these. A kind's flow is the child coordinator that owns it.
    public var screenKind: ScreenKind {
        switch self {
        case .home: ScreenKind("home", name: "Home")
        case .resources(let kind, .list):
            ScreenKind("\(kind.slug)-list", name: "\(kind.singular) list", flow: kind.plural)
        case .resources(let kind, .detail): ScreenKind("\(kind.slug)-detail", name: kind.singular, flow: kind.plural)
        case .search: ScreenKind("search", name: "Search")
        case .about: ScreenKind("about", name: "About")
        case .alert(.missing): ScreenKind("missing-record", name: "Missing record", flow: "Alerts")
        }
    }

    /// One route of every kind, so flow lint can tell a kind the walk never reaches.
    public static var screenKindExamples: [AppRoute] {
        [.home, .search, .about, .alert(.missing(.people, id: 0))]
            + ResourceKind.allCases.flatMap { [.list($0), .resources($0, .detail(id: 0, slug: "example"))] }
    }
}

extension AppRoute: StorableRoute {
    /// `home`, `search`, `about`, `list/people/2`, `detail/people/1/luke-skywalker`,
    /// `missing/people/99`: what `holocron build` keeps of a page's route for the next run.
    public var storedName: String {
        switch self {
        case .home: "home"
        case .search: "search"
        case .about: "about"
        case .resources(let kind, .list(let page)): "list/\(kind.rawValue)/\(page)"
        case .resources(let kind, .detail(let id, let slug)): "detail/\(kind.rawValue)/\(id)/\(slug.rawValue)"
        case .alert(.missing(let kind, let id)): "missing/\(kind.rawValue)/\(id)"
        }
    }

    public init?(storedName: String) {
        let parts = storedName.split(separator: "/", omittingEmptySubsequences: false)
        func kind(_ index: Int) -> ResourceKind? {
            parts.count > index ? ResourceKind(rawValue: String(parts[index])) : nil
        }
        func number(_ index: Int) -> Int? { parts.count > index ? Int(parts[index]) : nil }
        switch (parts.first, parts.count) {
        case ("home", 1): self = .home
        case ("search", 1): self = .search
        case ("about", 1): self = .about
        case ("list", 3):
            guard let kind = kind(1), let page = number(2) else { return nil }
            self = .resources(kind, .list(page: page))
        case ("detail", 4):
            guard let kind = kind(1), let id = number(2), !parts[3].isEmpty else { return nil }
            let slug = Slug(String(parts[3]))
            guard slug.rawValue == parts[3] else { return nil }
            self = .resources(kind, .detail(id: id, slug: slug))
        case ("missing", 3):
            guard let kind = kind(1), let id = number(2) else { return nil }
            self = .alert(.missing(kind, id: id))
        default: return nil
        }
    }
}
