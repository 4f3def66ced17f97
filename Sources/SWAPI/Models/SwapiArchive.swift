/// A complete set of SWAPI data: every resource of every kind, sorted by id, with lookups.
public struct SwapiArchive: Sendable, Hashable {
    public let people: [Person]
    public let films: [Film]
    public let planets: [Planet]
    public let species: [Species]
    public let starships: [Starship]
    public let vehicles: [Vehicle]
    private let names: [ResourceKind: [Int: String]]
    private let positions: [ResourceKind: [Int: Int]]

    /// Sorts each kind by id.
    /// - Throws: ``SwapiError`` when two resources of one kind share an id.
    public init(
        people: [Person] = [], films: [Film] = [], planets: [Planet] = [],
        species: [Species] = [], starships: [Starship] = [], vehicles: [Vehicle] = []
    ) throws {
        self.people = people.sorted { $0.id < $1.id }
        self.films = films.sorted { $0.id < $1.id }
        self.planets = planets.sorted { $0.id < $1.id }
        self.species = species.sorted { $0.id < $1.id }
        self.starships = starships.sorted { $0.id < $1.id }
        self.vehicles = vehicles.sorted { $0.id < $1.id }
        var names: [ResourceKind: [Int: String]] = [:]
        var positions: [ResourceKind: [Int: Int]] = [:]
        func index(_ kind: ResourceKind, _ resources: [any SwapiResource]) throws {
            var byID: [Int: String] = [:]
            var position: [Int: Int] = [:]
            for (offset, resource) in resources.enumerated() {
                if byID[resource.id] != nil {
                    throw SwapiError(.duplicateID(kind: kind, id: resource.id, source: nil, first: nil, second: nil))
                }
                byID[resource.id] = resource.displayName
                position[resource.id] = offset
            }
            names[kind] = byID
            positions[kind] = position
        }
        try index(.people, self.people)
        try index(.films, self.films)
        try index(.planets, self.planets)
        try index(.species, self.species)
        try index(.starships, self.starships)
        try index(.vehicles, self.vehicles)
        self.names = names
        self.positions = positions
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
    public func count(of kind: ResourceKind) -> Int { names[kind]?.count ?? 0 }

    /// The name (or title) of a resource, or `nil` when it is not in the archive.
    public func name(of kind: ResourceKind, id: Int) -> String? { names[kind]?[id] }

    /// Whether the archive holds that resource.
    public func contains(_ kind: ResourceKind, id: Int) -> Bool { names[kind]?[id] != nil }

    public func person(_ id: Int) -> Person? { positions[.people]?[id].map { people[$0] } }
    public func film(_ id: Int) -> Film? { positions[.films]?[id].map { films[$0] } }
    public func planet(_ id: Int) -> Planet? { positions[.planets]?[id].map { planets[$0] } }
    public func species(_ id: Int) -> Species? { positions[.species]?[id].map { species[$0] } }
    public func starship(_ id: Int) -> Starship? { positions[.starships]?[id].map { starships[$0] } }
    public func vehicle(_ id: Int) -> Vehicle? { positions[.vehicles]?[id].map { vehicles[$0] } }

    /// Every relation that points at a resource the archive does not hold, in a stable order.
    public var danglingReferences: [DanglingReference] {
        var found: [DanglingReference] = []
        func check(_ from: any SwapiResource, _ field: String, _ kind: ResourceKind, _ links: [ResourceLink]) {
            for link in links where !contains(kind, id: link.id) {
                found.append(DanglingReference(from: type(of: from).kind, id: from.id, name: from.displayName, field: field, to: kind, link: link))
            }
        }
        for p in people {
            check(p, "homeworld", .planets, p.homeworld.map { [$0] } ?? [])
            check(p, "films", .films, p.films)
            check(p, "species", .species, p.species)
            check(p, "vehicles", .vehicles, p.vehicles)
            check(p, "starships", .starships, p.starships)
        }
        for f in films {
            check(f, "characters", .people, f.characters)
            check(f, "planets", .planets, f.planets)
            check(f, "starships", .starships, f.starships)
            check(f, "vehicles", .vehicles, f.vehicles)
            check(f, "species", .species, f.species)
        }
        for p in planets {
            check(p, "residents", .people, p.residents)
            check(p, "films", .films, p.films)
        }
        for s in species {
            check(s, "homeworld", .planets, s.homeworld.map { [$0] } ?? [])
            check(s, "people", .people, s.people)
            check(s, "films", .films, s.films)
        }
        for s in starships {
            check(s, "pilots", .people, s.pilots)
            check(s, "films", .films, s.films)
        }
        for v in vehicles {
            check(v, "pilots", .people, v.pilots)
            check(v, "films", .films, v.films)
        }
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

/// A relation to a resource that is not in the archive.
public struct DanglingReference: Sendable, Hashable, CustomStringConvertible {
    public let from: ResourceKind
    public let id: Int
    public let name: String
    public let field: String
    public let to: ResourceKind
    public let link: ResourceLink

    public var description: String {
        "\(from.singular.lowercased()) \(id) (\(name)): '\(field)' points at \(link.url), which is not in the archive; its link leads to a \"not in the archive\" notice"
    }
}
