/// A complete set of SWAPI data: every resource of every kind, sorted by id, with lookups.
///
/// A relation counts only when its URL is a resource of the field's kind under the data's API
/// root (`https://swapi.dev/api/films/1/` in a `films` field); any other URL (another host or
/// scheme, another kind, `javascript:…/1`) is left out and reported in ``danglingReferences``.
public struct SwapiArchive: Sendable, Hashable {
    public let people: [Person]
    public let films: [Film]
    public let planets: [Planet]
    public let species: [Species]
    public let starships: [Starship]
    public let vehicles: [Vehicle]
    /// The roots relations may point under, such as `https://swapi.dev/api/`.
    public let apiRoots: [String]
    /// Each kind's positions by id, in `ResourceKind.allCases` order: views look a resource up
    /// for every relation they show, millions of times in a large build.
    private let indexes: [IDIndex]
    private let rejectedReferences: [DanglingReference]

    /// Sorts each kind by id and leaves out relations whose URL is not one of the data's.
    ///
    /// The API roots are those of the resources' own `url`s; with `apiHost` (`host` or
    /// `host:port`, for data fetched from a server), only the roots on that host count.
    /// - Throws: ``SwapiError`` when two resources of one kind share an id.
    public init(
        people: [Person] = [], films: [Film] = [], planets: [Planet] = [],
        species: [Species] = [], starships: [Starship] = [], vehicles: [Vehicle] = [],
        apiHost: String? = nil
    ) throws {
        var roots: Set<String> = []
        let host = apiHost?.lowercased()
        // What a resource's own URL adds depends on its prefix alone when it has one: each
        // prefix is looked at once, not every resource's URL made and parsed again.
        var prefixesSeen: [ResourceKind: Set<Int>] = [:]
        func collectRoots<R: SwapiResource>(_ resources: [R]) {
            var seen = prefixesSeen[R.kind] ?? []
            defer { prefixesSeen[R.kind] = seen }
            // By position, reading the URL alone: iterating the resources would copy each whole one.
            for position in resources.indices {
                let link = resources[position].url
                if let prefix = link.prefixIndex, !seen.insert(prefix).inserted { continue }
                let url = link.url
                guard !roots.contains(where: { ResourceURL.isPlain(url, root: $0, kind: R.kind) }),
                    let own = ResourceURL(url), host == nil || own.host == host
                else { continue }
                roots.insert(own.root)
            }
        }
        collectRoots(people)
        collectRoots(films)
        collectRoots(planets)
        collectRoots(species)
        collectRoots(starships)
        collectRoots(vehicles)
        let apiRoots = roots.sorted()

        var rejected: [DanglingReference] = []
        // Which URL prefixes are `<root><kind>/` for each kind: a link of the usual form is
        // checked by its prefix's index alone.
        var plainPrefixes: [ResourceKind: [Bool]] = [:]
        for kind in ResourceKind.allCases {
            plainPrefixes[kind] = ResourceURLTable.shared.marks(roots.map { $0 + kind.rawValue + "/" })
        }
        func problem<T>(with link: ResourceLink, in relation: Relation<T>, plain: [Bool]) -> DanglingReference.Problem?
        {
            if let index = link.prefixIndex, index < plain.count, plain[index] { return nil }
            return Self.problem(with: link, in: relation, roots: roots)
        }
        func accepted<R: Relating>(_ resources: [R]) -> [R] {
            // Each relation's plain prefixes looked up once, not for each of its links.
            let relations = R.relations.map { ($0, plainPrefixes[$0.kind] ?? []) }
            var resources = resources
            // The ids compared, not the resources: reading a resource through the array's subscript copies it.
            let ids = Self.ids(resources)
            if !ids.indices.dropFirst().allSatisfy({ ids[$0 - 1] < ids[$0] }) { resources.sort { $0.id < $1.id } }
            for position in resources.indices {
                for (relation, plain) in relations {
                    // Read first, in place: writing would copy every relation list, and almost
                    // all pass; reading through the array's subscript would copy the whole resource.
                    let passes = resources.withUnsafeBufferPointer { buffer in
                        !relation.read(buffer.baseAddress! + position).contains(where: {
                            problem(with: $0, in: relation, plain: plain) != nil
                        })
                    }
                    if passes { continue }
                    let (id, name) = (resources[position].id, resources[position].displayName)
                    resources[position][keyPath: relation.links].removeAll { link in
                        guard let problem = problem(with: link, in: relation, plain: plain) else { return false }
                        rejected.append(
                            DanglingReference(
                                from: R.kind, id: id, name: name, field: relation.field, to: relation.kind,
                                link: link, problem: problem, apiRoots: apiRoots
                            ))
                        return true
                    }
                }
            }
            return resources
        }
        self.people = accepted(people)
        self.films = accepted(films)
        self.planets = accepted(planets)
        self.species = accepted(species)
        self.starships = accepted(starships)
        self.vehicles = accepted(vehicles)
        self.apiRoots = apiRoots
        self.rejectedReferences = rejected

        func index<R: SwapiResource>(_ resources: [R]) throws -> IDIndex {
            // Sorted by id, so a shared id is two neighbours.
            let ids = Self.ids(resources)
            for position in ids.indices.dropFirst() where ids[position] == ids[position - 1] {
                throw SwapiError(.duplicateID(kind: R.kind, id: ids[position], source: nil, first: nil, second: nil))
            }
            return IDIndex(sortedIDs: ids)
        }
        self.indexes = [
            try index(self.people), try index(self.films), try index(self.planets),
            try index(self.species), try index(self.starships), try index(self.vehicles)
        ]
    }

    /// The ids of `resources`, in order, each read from the resource's address (through the
    /// array's subscript, each whole resource would be copied).
    private static func ids<R: SwapiResource>(_ resources: [R]) -> [Int] {
        resources.withUnsafeBufferPointer { buffer in buffer.indices.map { (buffer.baseAddress! + $0).pointee.id } }
    }

    /// Why `link` in `relation` is not accepted, or `nil` when it is.
    private static func problem<R>(
        with link: ResourceLink, in relation: Relation<R>, roots: Set<String>
    ) -> DanglingReference.Problem? {
        if roots.contains(where: { ResourceURL.isPlain(link.url, root: $0, kind: relation.kind) }) { return nil }
        guard let url = ResourceURL(link.url) else { return .notAResourceURL }
        guard roots.contains(url.root) else { return .outsideAPIRoot }
        guard url.kind == relation.kind else { return .wrongKind(url.kind) }
        return nil
    }

    /// The resources of one kind, sorted by id.
    public func resources(of kind: ResourceKind) -> [any SwapiResource] {
        switch kind {
        case .people: people
        case .films: films
        case .planets: planets
        case .species: species
        case .starships: starships
        case .vehicles: vehicles
        }
    }

    /// How many resources of `kind` there are.
    public func count(of kind: ResourceKind) -> Int { indexes[kind.position].count }

    /// The name (or title) of a resource, or `nil` when it is not in the archive.
    public func name(of kind: ResourceKind, id: Int) -> String? {
        guard let position = indexes[kind.position].position(of: id) else { return nil }
        return switch kind {
        case .people: people[position].name
        case .films: films[position].title
        case .planets: planets[position].name
        case .species: species[position].name
        case .starships: starships[position].name
        case .vehicles: vehicles[position].name
        }
    }

    /// The resource's place in its kind's array, sorted by id.
    package func position(of kind: ResourceKind, id: Int) -> Int? { indexes[kind.position].position(of: id) }

    /// Whether the archive holds that resource.
    public func contains(_ kind: ResourceKind, id: Int) -> Bool { indexes[kind.position].position(of: id) != nil }

    public func person(_ id: Int) -> Person? { indexes[0].position(of: id).map { people[$0] } }
    public func film(_ id: Int) -> Film? { indexes[1].position(of: id).map { films[$0] } }
    public func planet(_ id: Int) -> Planet? { indexes[2].position(of: id).map { planets[$0] } }
    public func species(_ id: Int) -> Species? { indexes[3].position(of: id).map { species[$0] } }
    public func starship(_ id: Int) -> Starship? { indexes[4].position(of: id).map { starships[$0] } }
    public func vehicle(_ id: Int) -> Vehicle? { indexes[5].position(of: id).map { vehicles[$0] } }

    /// Every relation the archive cannot follow, in a stable order: first the URLs it left out
    /// (not one of the data's resource URLs), then those that point at a resource it does not
    /// hold (``DanglingReference/Problem/notInArchive``).
    public var danglingReferences: [DanglingReference] {
        var found = rejectedReferences
        func check<R: Relating>(_ resources: [R]) {
            let relations = R.relations
            // In place, by each relation's reader: iterating would copy every resource.
            resources.withUnsafeBufferPointer { resources in
                for position in resources.indices {
                    let resource = resources.baseAddress! + position
                    for relation in relations {
                        for link in relation.read(resource) where !contains(relation.kind, id: link.id) {
                            found.append(
                                DanglingReference(
                                    from: R.kind, id: resource.pointee.id, name: resource.pointee.displayName,
                                    field: relation.field,
                                    to: relation.kind, link: link, problem: .notInArchive, apiRoots: apiRoots
                                ))
                        }
                    }
                }
            }
        }
        check(people)
        check(films)
        check(planets)
        check(species)
        check(starships)
        check(vehicles)
        return found
    }

    public static func == (a: SwapiArchive, b: SwapiArchive) -> Bool {
        a.people == b.people && a.films == b.films && a.planets == b.planets && a.species == b.species
            && a.starships == b.starships && a.vehicles == b.vehicles
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(people)
        hasher.combine(films)
        hasher.combine(planets)
        hasher.combine(species)
        hasher.combine(starships)
        hasher.combine(vehicles)
    }
}

/// A relation the archive cannot follow: it points at a resource the archive does not hold, or
/// its URL is not one of the data's resource URLs and was left out.
public struct DanglingReference: Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the relation.
    public enum Problem: Sendable, Hashable {
        /// The URL is right, but the archive has no resource with its id; the app links it to
        /// a "not in the archive" notice.
        case notInArchive
        /// The URL is not an http(s) URL ending in a kind and an id; it was left out.
        case notAResourceURL
        /// The URL is under another host, scheme or path than the data's API root; it was left out.
        case outsideAPIRoot
        /// The URL is a resource of another kind than the field holds; it was left out.
        case wrongKind(ResourceKind)
    }

    public let from: ResourceKind
    public let id: Int
    public let name: String
    public let field: String
    public let to: ResourceKind
    public let link: ResourceLink
    public let problem: Problem
    /// The data's API roots, for the message.
    public let apiRoots: [String]

    public var description: String {
        let place = "\(from.singular.lowercased()) \(id) (\(name)): '\(field)'"
        let example = "\(apiRoots.first ?? "https://swapi.dev/api/")\(to.rawValue)/<id>/"
        switch problem {
        case .notInArchive:
            return
                """
                \(place) points at \(link.url), which is not in the archive; \
                its link leads to a "not in the archive" notice
                """
        case .notAResourceURL:
            return
                """
                \(place) has \(link.url), which is not a resource URL; \
                it is left out (a relation there looks like \(example))
                """
        case .outsideAPIRoot:
            let roots = apiRoots.isEmpty ? "none: no resource's own url names one" : apiRoots.joined(separator: " or ")
            return
                """
                \(place) has \(link.url), which is not under the data's API root (\(roots)); \
                it is left out (a relation there looks like \(example))
                """
        case .wrongKind(let kind):
            return
                """
                \(place) has \(link.url), which points at \(kind.rawValue), not \(to.rawValue); \
                it is left out (a relation there looks like \(example))
                """
        }
    }
}

extension ResourceKind {
    /// The kind's place in `allCases`, without hashing its name.
    package var position: Int {
        switch self {
        case .people: 0
        case .films: 1
        case .planets: 2
        case .species: 3
        case .starships: 4
        case .vehicles: 5
        }
    }
}

/// Where each id is among a kind's resources, sorted by id: a table from id to position when
/// the ids are dense (SWAPI numbers its resources from 1, with a few gaps), a binary search of
/// the ids otherwise. Either is a few memory reads, where a dictionary would hash every id.
struct IDIndex: Sendable, Hashable {
    /// Position by id (`-1`: no such id), when the ids are dense.
    private let table: [Int32]
    /// The ids in order, when they are not.
    private let ids: [Int]
    let count: Int

    init(sortedIDs: [Int]) {
        count = sortedIDs.count
        let largest = sortedIDs.last ?? 0
        if let smallest = sortedIDs.first, smallest >= 0, largest < 4 * sortedIDs.count + 1024,
            sortedIDs.count < Int(Int32.max)
        {
            var table = [Int32](repeating: -1, count: largest + 1)
            for (position, id) in sortedIDs.enumerated() { table[id] = Int32(position) }
            self.table = table
            ids = []
        } else {
            table = []
            ids = sortedIDs
        }
    }

    func position(of id: Int) -> Int? {
        if !table.isEmpty || ids.isEmpty {
            guard id >= 0, id < table.count else { return nil }
            let position = table[id]
            return position < 0 ? nil : Int(position)
        }
        var low = 0
        var high = ids.count
        while low < high {
            let middle = (low + high) / 2
            if ids[middle] < id { low = middle + 1 } else { high = middle }
        }
        return low < ids.count && ids[low] == id ? low : nil
    }
}
