import Dispatch
import FlowSite
import SWAPI
import Synchronization

/// The archive as the site sees it: every resource with a unique, stable slug, and the route
/// for any relation (a missing resource leads to the "not in the archive" dialog).
public struct Catalog: Sendable {
    /// The data, read through the catalog's methods, which record what a page reads (see
    /// ``InputKey/record(_:id:)``).
    private let data: SwapiArchive
    /// The whole data: a page that reads it this way depends on every record.
    public var archive: SwapiArchive {
        InputKey.read(.everything)
        return data
    }
    /// Each kind's slugs in the archive's order (by id), by `ResourceKind.position`.
    private let slugs: [[Slug]]
    /// Each kind's ids in list order (films by episode, the rest by id), worked out once, by
    /// `ResourceKind.position`.
    private let listOrder: [[Int]]
    /// How many resources list pages have read; tests pin that a page reads only its rows.
    let rowReads = Counter()

    /// Slugs that would clash with a kind's own folders.
    static let reserved: Set<Slug> = ["page"]

    /// Gives every resource its slug: from its name, and for a name already taken (in id order)
    /// the first free `-2`, `-3`, … suffix, so slugs never change when later ids are added.
    public init(archive: SwapiArchive) {
        self.data = archive
        // Each kind's typed array, never boxed into `any SwapiResource`: a large archive would
        // need hundreds of thousands of boxes.
        @Sendable func slugs<R: SwapiResource>(_ resources: [R]) -> [Slug] {
            var allocator = SlugAllocator(reserved: Self.reserved, capacity: resources.count)
            return resources.map { allocator.claim(Slug($0.displayName)) }
        }
        // In `ResourceKind.allCases` order, so a kind's position finds its array. Kinds are
        // slugged apart from each other, so on all cores: this runs before the first page.
        let made = Locked([[Slug]](repeating: [], count: ResourceKind.allCases.count))
        DispatchQueue.concurrentPerform(iterations: ResourceKind.allCases.count) { position in
            let kindSlugs: [Slug]
            switch ResourceKind.allCases[position] {
            case .people: kindSlugs = slugs(archive.people)
            case .films: kindSlugs = slugs(archive.films)
            case .planets: kindSlugs = slugs(archive.planets)
            case .species: kindSlugs = slugs(archive.species)
            case .starships: kindSlugs = slugs(archive.starships)
            case .vehicles: kindSlugs = slugs(archive.vehicles)
            }
            made.withLock { $0[position] = kindSlugs }
        }
        self.slugs = made.withLock { $0 }
        self.listOrder = [
            archive.people.map { $0.id }, FilmsModule.ordered(archive.films).map { $0.id },
            archive.planets.map { $0.id }, archive.species.map { $0.id },
            archive.starships.map { $0.id }, archive.vehicles.map { $0.id }
        ]
    }

    /// The data, for code that is not making a page (nothing is recorded).
    var archiveWithoutRecording: SwapiArchive { data }

    /// `kind`'s ids in list order, without recording.
    func listIDs(_ kind: ResourceKind) -> [Int] { listOrder[kind.position] }

    /// How many resources of `kind` a list shows.
    public func listCount(of kind: ResourceKind) -> Int {
        InputKey.read(.order(kind))
        return listOrder[kind.position].count
    }

    /// The ids at `positions` of `kind`'s list, one by one: a list page reads its rows'
    /// records, never the whole kind's.
    public func listedIDs(_ kind: ResourceKind, _ positions: Range<Int>) -> ArraySlice<Int> {
        InputKey.read(.order(kind))
        let order = listOrder[kind.position]
        let ids = order[positions.clamped(to: order.indices)]
        rowReads.add(ids.count)
        return ids
    }

    public func person(_ id: Int) -> Person? { record(id, data.person) }
    public func film(_ id: Int) -> Film? { record(id, data.film) }
    public func planet(_ id: Int) -> Planet? { record(id, data.planet) }
    public func species(_ id: Int) -> Species? { record(id, data.species) }
    public func starship(_ id: Int) -> Starship? { record(id, data.starship) }
    public func vehicle(_ id: Int) -> Vehicle? { record(id, data.vehicle) }

    /// Record `id` of its kind, as `find` looks it up in the data; the page records reading it.
    private func record<Resource: SwapiResource>(_ id: Int, _ find: (Int) -> Resource?) -> Resource? {
        InputKey.read(.record(Resource.kind, id: id))
        return find(id)
    }

    /// The slug of a resource in the archive.
    public func slug(of kind: ResourceKind, id: Int) -> Slug? {
        InputKey.read(.slug(kind, id: id))
        return data.position(of: kind, id: id).map { slugs[kind.position][$0] }
    }

    /// The route of a resource: its detail page, or the missing-resource dialog.
    public func route(_ kind: ResourceKind, id: Int) -> AppRoute {
        guard let slug = slug(of: kind, id: id) else { return .alert(.missing(kind, id: id)) }
        return .resources(kind, .detail(id: id, slug: slug))
    }

    /// A resource's name as the site shows it (see ``Format/name(_:of:)``), or `nil` when the
    /// archive does not hold it.
    public func name(of kind: ResourceKind, id: Int, strings: Strings) -> String? {
        rawName(of: kind, id: id).map { Format(strings).name($0, of: kind) }
    }

    /// A resource's name (or title) as the data has it, or `nil` when the archive does not hold it.
    public func rawName(of kind: ResourceKind, id: Int) -> String? {
        InputKey.read(.name(kind, id: id))
        return data.name(of: kind, id: id)
    }

    /// A link to a resource, labelled with its name (or, in the words of `strings`, as missing).
    public func link(_ kind: ResourceKind, id: Int, strings: Strings) -> RelatedLink {
        if let name = name(of: kind, id: id, strings: strings) {
            return RelatedLink(label: name, route: route(kind, id: id), isMissing: false)
        }
        return RelatedLink(
            label: strings.localizedString(.linkMissing, about: kind, ["id": "\(id)"]), route: route(kind, id: id),
            isMissing: true)
    }

    /// Links for a list of relations, in the given order.
    public func links(_ kind: ResourceKind, _ links: [ResourceLink], strings: Strings) -> [RelatedLink] {
        links.map { link(kind, id: $0.id, strings: strings) }
    }

    /// Film links in episode order (films missing from the archive last, by id), each labelled
    /// with its episode when it has one ("Episode IV · A New Hope"), so the order reads as such.
    public func filmLinks(_ links: [ResourceLink], strings: Strings) -> [RelatedLink] {
        // Each film's episode is looked up once, not at every comparison of the sort.
        let ordered = links.map { (link: $0, episode: film($0.id).flatMap(\.episodeID)) }
            .sorted { a, b in
                let ea = a.episode ?? Int.max
                let eb = b.episode ?? Int.max
                return ea != eb ? ea < eb : a.link.id < b.link.id
            }
        let format = Format(strings)
        return ordered.map { entry in
            let link = link(.films, id: entry.link.id, strings: strings)
            guard !link.isMissing, let episode = entry.episode, episode > 0 else { return link }
            var labelled = link
            labelled.label = strings.localizedString(
                .filmsLink, ["episode": format.episode(episode), "title": link.label])
            return labelled
        }
    }
}

/// Hands out unique slugs: a slug already taken gets the first free `-2`, `-3`, … suffix.
///
/// It remembers where the search for each base stopped, so a thousand resources with one name
/// cost a thousand lookups, not half a million.
struct SlugAllocator {
    private var taken: Set<Slug>
    private var nextSuffix: [Slug: Int] = [:]
    /// How many slugs were tried; tests pin that it grows linearly.
    private(set) var probes = 0

    /// An allocator that has `reserved` taken, with room for `capacity` slugs more (a set grown
    /// one doubling at a time would hash every slug again at each).
    init(reserved: Set<Slug> = [], capacity: Int = 0) {
        taken = reserved
        taken.reserveCapacity(reserved.count + capacity)
    }

    /// `base`, or its first free suffixed form; either way taken from now on.
    mutating func claim(_ base: Slug) -> Slug {
        var slug = base
        var number = nextSuffix[base] ?? 2
        probes += 1
        while taken.contains(slug) {
            // Every suffix below `number` was taken before, and slugs are never given back.
            slug = base.suffixed(number)
            number += 1
            probes += 1
        }
        if slug != base { nextSuffix[base] = number }
        taken.insert(slug)
        return slug
    }
}

/// A link to a related resource, as view models hand it to screens.
public struct RelatedLink: Sendable, Hashable {
    public var label: String
    public var route: AppRoute
    /// True when the resource is not in the archive.
    public var isMissing: Bool

    public init(label: String, route: AppRoute, isMissing: Bool = false) {
        self.label = label
        self.route = route
        self.isMissing = isMissing
    }
}

/// A thread-safe count, for tests that pin how much work a page does.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func add(_ amount: Int) { value.add(amount, ordering: .relaxed) }
    var count: Int { value.load(ordering: .relaxed) }
}
