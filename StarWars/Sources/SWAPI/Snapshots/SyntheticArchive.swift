/// A made-up archive of any size in SWAPI's shape, for tests and benchmarks: the same numbers
/// give the same data every time. With the default sizes it has SWAPI's full counts and its
/// sparse ids (82 people with no id 17, 6 films, 60 planets, 37 species, 36 starships,
/// 39 vehicles), every relation mirrored both ways, and each of the data's quirks.
public enum SyntheticArchive {
    /// SWAPI's starship ids.
    public static let starshipIDs = [
        2, 3, 5, 9, 10, 11, 12, 13, 15, 17, 21, 22, 23, 27, 28, 29, 31, 32, 39, 40, 41, 43, 47, 48, 49, 52, 58, 59, 61,
        63, 64, 65, 66, 68, 74, 75
    ]
    /// SWAPI's vehicle ids.
    public static let vehicleIDs = [
        4, 6, 7, 8, 14, 16, 18, 19, 20, 24, 25, 26, 30, 33, 34, 35, 36, 37, 38, 42, 44, 45, 46, 50, 51, 53, 54, 55, 56,
        57, 60, 62, 67, 69, 70, 71, 72, 73, 76
    ]

    /// Builds the archive. `host` is the URL prefix of every resource, such as
    /// `https://swapi.dev/api/`.
    public static func make(
        people: Int = 82, planets: Int = 60, species: Int = 37,
        starships: Int = 36, vehicles: Int = 39, host: String = "https://swapi.dev/api/"
    ) -> SwapiArchive {
        func link(_ kind: ResourceKind, _ id: Int) -> ResourceLink {
            ResourceLink(url: "\(host)\(kind.rawValue)/\(id)/", id: id)
        }
        let personIDs = Array((1...(people + (people >= 17 ? 1 : 0))).filter { $0 != 17 }.prefix(people))
        let planetIDs = Array(1...max(1, planets))
        let speciesIDs = Array(1...max(1, species))
        let shipIDs = ids(starshipIDs, count: starships)
        let vehicleIDs = ids(Self.vehicleIDs, count: vehicles)
        let filmIDs = Array(1...6)

        // Relations, chosen by arithmetic so they are stable.
        var homeworld: [Int: Int] = [:]
        var personSpecies: [Int: [Int]] = [:]
        var personFilms: [Int: [Int]] = [:]
        var personShips: [Int: [Int]] = [:]
        var personVehicles: [Int: [Int]] = [:]
        for (index, id) in personIDs.enumerated() {
            homeworld[id] = planetIDs[(index * 7) % planetIDs.count]
            // Every third person has an empty species list.
            personSpecies[id] = index % 3 == 0 ? [] : [speciesIDs[(index * 5) % speciesIDs.count]]
            personFilms[id] = filmIDs.filter { ($0 + index) % 3 != 0 }
            personShips[id] = index % 4 == 0 && !shipIDs.isEmpty ? [shipIDs[index % shipIDs.count]] : []
            personVehicles[id] = index % 5 == 1 && !vehicleIDs.isEmpty ? [vehicleIDs[index % vehicleIDs.count]] : []
        }
        func inverse(_ relation: [Int: [Int]]) -> [Int: [Int]] {
            var result: [Int: [Int]] = [:]
            for (from, targets) in relation { for target in targets { result[target, default: []].append(from) } }
            return result.mapValues { $0.sorted() }
        }
        let residents = inverse(homeworld.mapValues { [$0] })
        let speciesPeople = inverse(personSpecies)
        let filmPeople = inverse(personFilms)
        let pilots = inverse(personShips)
        let vehiclePilots = inverse(personVehicles)
        func films(of id: Int, salt: Int) -> [Int] { filmIDs.filter { ($0 * 3 + id + salt) % 4 != 0 } }
        let planetFilms = Dictionary(uniqueKeysWithValues: planetIDs.map { ($0, films(of: $0, salt: 1)) })
        let speciesFilms = Dictionary(uniqueKeysWithValues: speciesIDs.map { ($0, films(of: $0, salt: 2)) })
        let shipFilms = Dictionary(uniqueKeysWithValues: shipIDs.map { ($0, films(of: $0, salt: 3)) })
        let vehicleFilms = Dictionary(uniqueKeysWithValues: vehicleIDs.map { ($0, films(of: $0, salt: 0)) })

        let fileIdentity = "2020-01-01T00:00:00.000000Z"
        let genders = ["male", "female", "hermaphrodite", "none", "n/a"]
        let peopleResources = personIDs.enumerated().map { index, id in
            Person(
                name: index == 1 ? "Person 1" : "Person \(id)", // the second person repeats the first one's name
                height: index % 9 == 0 ? "unknown" : "\(150 + id)",
                mass: id == 16 ? "1,358" : (index % 6 == 0 ? "unknown" : "\(50 + id).5"),
                hairColor: index % 4 == 0 ? "n/a" : "brown, grey",
                skinColor: "fair", eyeColor: "blue",
                birthYear: index % 5 == 0 ? "unknown" : (index % 2 == 0 ? "\(id)BBY" : "\(id).9BBY"),
                gender: genders[index % genders.count],
                homeworld: link(.planets, homeworld[id]!),
                films: personFilms[id]!.map { link(.films, $0) },
                species: personSpecies[id]!.map { link(.species, $0) },
                vehicles: personVehicles[id]!.map { link(.vehicles, $0) },
                starships: personShips[id]!.map { link(.starships, $0) },
                created: fileIdentity, edited: fileIdentity, url: link(.people, id)
            )
        }
        let filmResources = filmIDs.map { id in
            Film(
                title: "Film \(id)", episodeID: [4, 5, 6, 1, 2, 3][id - 1],
                openingCrawl: "The first line of film \(id).\r\nThe second line.",
                director: "Director \(id)", producer: "Producer \(id)", releaseDate: "\(1976 + id * 3)-05-25",
                characters: (filmPeople[id] ?? []).map { link(.people, $0) },
                planets: planetIDs.filter { planetFilms[$0]!.contains(id) }.map { link(.planets, $0) },
                starships: shipIDs.filter { shipFilms[$0]!.contains(id) }.map { link(.starships, $0) },
                vehicles: vehicleIDs.filter { vehicleFilms[$0]!.contains(id) }.map { link(.vehicles, $0) },
                species: speciesIDs.filter { speciesFilms[$0]!.contains(id) }.map { link(.species, $0) },
                created: fileIdentity, edited: fileIdentity, url: link(.films, id)
            )
        }
        let planetResources = planetIDs.map { id in
            // The last is SWAPI's placeholder planet "unknown", whose periods and diameter the
            // live API gives as "0".
            let placeholder = id == planetIDs.last
            return Planet(
                name: placeholder ? "unknown" : "Planet \(id)",
                rotationPeriod: placeholder ? "0" : "\(20 + id % 10)", orbitalPeriod: placeholder ? "0" : "\(300 + id)",
                diameter: placeholder ? "0" : "\(10000 + id * 37)",
                climate: id % 2 == 0 ? "arid" : "temperate", gravity: "1 standard", terrain: "desert, mountains",
                surfaceWater: id % 3 == 0 ? "unknown" : "\(id % 100)",
                population: id % 4 == 0 ? "unknown" : "\(id * 1_000_000)",
                residents: (residents[id] ?? []).map { link(.people, $0) },
                films: planetFilms[id]!.map { link(.films, $0) },
                created: fileIdentity, edited: fileIdentity, url: link(.planets, id)
            )
        }
        let speciesResources = speciesIDs.map { id in
            Species(
                name: "Species \(id)", classification: "mammal", designation: "sentient",
                averageHeight: id % 5 == 0 ? "n/a" : "\(100 + id)", skinColors: "green, grey", hairColors: "none",
                eyeColors: "black",
                averageLifespan: id == 2 ? "indefinite" : "\(60 + id)",
                homeworld: id == 2 ? nil : link(.planets, planetIDs[id % planetIDs.count]),
                language: "Language \(id)",
                people: (speciesPeople[id] ?? []).map { link(.people, $0) },
                films: speciesFilms[id]!.map { link(.films, $0) },
                created: fileIdentity, edited: fileIdentity, url: link(.species, id)
            )
        }
        let starshipResources = shipIDs.map { id in
            Starship(
                name: "Starship \(id)", model: "Model \(id)", manufacturer: "Yard \(id % 5)",
                costInCredits: id % 7 == 0 ? "unknown" : "\(id * 100_000)", length: "\(id).5",
                maxAtmospheringSpeed: id % 3 == 0 ? "n/a" : "\(800 + id)", crew: id == 3 ? "47,060" : "\(id)",
                passengers: "\(id * 2)",
                cargoCapacity: "\(id * 1000)", consumables: "2 months", hyperdriveRating: "1.0", mglt: "\(60 + id)",
                starshipClass: "Starfighter",
                pilots: (pilots[id] ?? []).map { link(.people, $0) },
                films: shipFilms[id]!.map { link(.films, $0) },
                created: fileIdentity, edited: fileIdentity, url: link(.starships, id)
            )
        }
        let vehicleResources = vehicleIDs.map { id in
            Vehicle(
                name: "Vehicle \(id)", model: "Model \(id)", manufacturer: "Works \(id % 4)",
                costInCredits: "\(id * 5000)", length: "\(id)", maxAtmospheringSpeed: "\(100 + id)",
                crew: "\(1 + id % 3)",
                passengers: "\(id % 4)", cargoCapacity: id % 2 == 0 ? "none" : "\(id * 10)", consumables: "1 day",
                vehicleClass: "repulsorcraft",
                pilots: (vehiclePilots[id] ?? []).map { link(.people, $0) },
                films: vehicleFilms[id]!.map { link(.films, $0) },
                created: fileIdentity, edited: fileIdentity, url: link(.vehicles, id)
            )
        }
        // The generated ids are unique by construction.
        return try! SwapiArchive(
            people: peopleResources, films: filmResources, planets: planetResources,
            species: speciesResources, starships: starshipResources, vehicles: vehicleResources
        )
    }

    /// `count` ids: SWAPI's own first, then more above them.
    private static func ids(_ known: [Int], count: Int) -> [Int] {
        if count <= known.count { return Array(known.prefix(count)) }
        return known + (1...(count - known.count)).map { known.last! + $0 * 2 }
    }
}
