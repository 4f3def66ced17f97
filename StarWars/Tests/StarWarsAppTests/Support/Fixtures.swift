import FlowSite
import Foundation

@testable import SWAPI
@testable import StarWarsApp

/// Small, readable archives for screen tests, built from stubs.
enum Fixtures {
    static func link(_ kind: ResourceKind, _ id: Int) -> ResourceLink {
        ResourceLink(url: "https://swapi.dev/api/\(kind.rawValue)/\(id)/", id: id)
    }

    static func person(
        _ id: Int, _ name: String, homeworld: Int? = 1, films: [Int] = [1], species: [Int] = [], starships: [Int] = [],
        birthYear: String = "19BBY", mass: String = "77"
    ) -> Person {
        Person(
            name: name, height: "172", mass: mass, hairColor: "blond", skinColor: "fair", eyeColor: "blue",
            birthYear: birthYear, gender: "male", homeworld: homeworld.map { link(.planets, $0) },
            films: films.map { link(.films, $0) }, species: species.map { link(.species, $0) },
            starships: starships.map { link(.starships, $0) }, url: link(.people, id)
        )
    }

    /// Luke, Leia and Jabba on Tatooine and Alderaan, one film, one species, one ship; Jabba's
    /// starship 99 is missing from the archive.
    static let archive: SwapiArchive = try! SwapiArchive(
        people: [
            person(1, "Luke Skywalker", starships: [12]),
            person(5, "Leia Organa", homeworld: 2, birthYear: "19BBY"),
            person(16, "Jabba Desilijic Tiure", species: [5], starships: [99], birthYear: "600BBY", mass: "1,358")
        ],
        films: [
            Film(
                title: "A New Hope", episodeID: 4,
                openingCrawl: "A farm boy finds a message in a droid,\r\nand joins a rebellion.",
                director: "George Lucas", producer: "Gary Kurtz, Rick McCallum", releaseDate: "1977-05-25",
                characters: [link(.people, 1), link(.people, 5), link(.people, 16)],
                planets: [link(.planets, 1), link(.planets, 2)],
                starships: [link(.starships, 12)], species: [link(.species, 5)], url: link(.films, 1)
            )
        ],
        planets: [
            Planet(
                name: "Tatooine", rotationPeriod: "23", orbitalPeriod: "304", diameter: "10465", climate: "arid",
                gravity: "1 standard", terrain: "desert", surfaceWater: "1", population: "200000",
                residents: [link(.people, 1), link(.people, 16)], films: [link(.films, 1)], url: link(.planets, 1)),
            Planet(
                name: "Alderaan", climate: "temperate", population: "2000000000", residents: [link(.people, 5)],
                films: [link(.films, 1)], url: link(.planets, 2))
        ],
        species: [
            Species(
                name: "Hutt", classification: "gastropod", designation: "sentient", averageHeight: "300",
                averageLifespan: "1000", homeworld: link(.planets, 1), language: "Huttese", people: [link(.people, 16)],
                films: [link(.films, 1)], url: link(.species, 5))
        ],
        starships: [
            Starship(
                name: "X-wing", model: "T-65 X-wing", manufacturer: "Incom Corporation", costInCredits: "149999",
                length: "12.5", maxAtmospheringSpeed: "1050", crew: "1", passengers: "0", cargoCapacity: "110",
                consumables: "1 week", hyperdriveRating: "1.0", mglt: "100", starshipClass: "Starfighter",
                pilots: [link(.people, 1)], films: [link(.films, 1)], url: link(.starships, 12))
        ],
        vehicles: []
    )

    static let catalog = Catalog(archive: archive)
    static let dependencies = AppDependencies.mock(archive)

    struct Unavailable: Error, CustomStringConvertible {
        var description: String { "the archive is offline" }
    }

    static let failing = AppDependencies(swapi: .failing(Unavailable()), catalog: .failing(Unavailable()))
}

extension SwapiArchive {
    /// How many pages the site of this archive has, worked out from the data rather than
    /// written down: each resource's page, each kind's list pages (an empty kind still has its
    /// first), Home, Search and About, and a dialog per record that a relation names and the
    /// archive lacks.
    var sitePageCount: Int {
        let resources = ResourceKind.allCases.reduce(0) { total, kind in
            total + count(of: kind) + max(1, (count(of: kind) + listPageSize - 1) / listPageSize)
        }
        let missing = Set(
            danglingReferences.compactMap { reference -> String? in
                guard case .notInArchive = reference.problem else { return nil }
                return "\(reference.to)/\(reference.link.id)"
            })
        return resources + 3 + missing.count
    }
}
