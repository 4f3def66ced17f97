/// A resource type whose relation fields can be walked: the archive checks every relation's URL
/// and finds those that point outside it, with one table of fields per type.
protocol Relating: SwapiResource {
    /// Each relation field, in the API's order.
    static var relations: [Relation<Self>] { get }
}

/// One relation field: its name in the API, the kind it points at, and its links.
struct Relation<Resource> {
    let field: String
    let kind: ResourceKind
    let links: WritableKeyPath<Resource, [ResourceLink]>
    /// The same links as `links` reads, by a plain closure from the resource's address: reading
    /// through the key path would look its generic metadata up and copy the whole resource, and
    /// so would passing the resource itself, for every relation of every one.
    let read: (UnsafePointer<Resource>) -> [ResourceLink]
}

extension Person: Relating {
    static var relations: [Relation<Person>] {
        [
            Relation(field: "homeworld", kind: .planets, links: \.homeworldLinks, read: { $0.pointee.homeworldLinks }),
            Relation(field: "films", kind: .films, links: \.films, read: { $0.pointee.films }),
            Relation(field: "species", kind: .species, links: \.species, read: { $0.pointee.species }),
            Relation(field: "vehicles", kind: .vehicles, links: \.vehicles, read: { $0.pointee.vehicles }),
            Relation(field: "starships", kind: .starships, links: \.starships, read: { $0.pointee.starships })
        ]
    }

    /// The homeworld as a list of none or one, so it is walked like the other relations.
    var homeworldLinks: [ResourceLink] {
        get { homeworld.map { [$0] } ?? [] }
        set { homeworld = newValue.first }
    }
}

extension Film: Relating {
    static var relations: [Relation<Film>] {
        [
            Relation(field: "characters", kind: .people, links: \.characters, read: { $0.pointee.characters }),
            Relation(field: "planets", kind: .planets, links: \.planets, read: { $0.pointee.planets }),
            Relation(field: "starships", kind: .starships, links: \.starships, read: { $0.pointee.starships }),
            Relation(field: "vehicles", kind: .vehicles, links: \.vehicles, read: { $0.pointee.vehicles }),
            Relation(field: "species", kind: .species, links: \.species, read: { $0.pointee.species })
        ]
    }
}

extension Planet: Relating {
    static var relations: [Relation<Planet>] {
        [
            Relation(field: "residents", kind: .people, links: \.residents, read: { $0.pointee.residents }),
            Relation(field: "films", kind: .films, links: \.films, read: { $0.pointee.films })
        ]
    }
}

extension Species: Relating {
    static var relations: [Relation<Species>] {
        [
            Relation(field: "homeworld", kind: .planets, links: \.homeworldLinks, read: { $0.pointee.homeworldLinks }),
            Relation(field: "people", kind: .people, links: \.people, read: { $0.pointee.people }),
            Relation(field: "films", kind: .films, links: \.films, read: { $0.pointee.films })
        ]
    }

    /// The homeworld as a list of none or one, so it is walked like the other relations.
    var homeworldLinks: [ResourceLink] {
        get { homeworld.map { [$0] } ?? [] }
        set { homeworld = newValue.first }
    }
}

extension Starship: Relating {
    static var relations: [Relation<Starship>] {
        [
            Relation(field: "pilots", kind: .people, links: \.pilots, read: { $0.pointee.pilots }),
            Relation(field: "films", kind: .films, links: \.films, read: { $0.pointee.films })
        ]
    }
}

extension Vehicle: Relating {
    static var relations: [Relation<Vehicle>] {
        [
            Relation(field: "pilots", kind: .people, links: \.pilots, read: { $0.pointee.pilots }),
            Relation(field: "films", kind: .films, links: \.films, read: { $0.pointee.films })
        ]
    }
}
