import SWAPI
import Testing

/// The built-in data: Episodes I–VI, 40 or more characters, a closed set, every quirk present.
@Suite struct EmbeddedSnapshotTests {
    let archive: SwapiArchive

    init() throws { archive = try EmbeddedSnapshot.load() }

    @Test func holdsTheSixFilmsAndTheirCast() {
        #expect(archive.films.compactMap(\.episodeID).sorted() == [1, 2, 3, 4, 5, 6])
        #expect(archive.people.count >= 40)
    }

    @Test func everyRelationResolves() {
        #expect(archive.danglingReferences.map(\.description) == [])
    }

    @Test func relationsAreMirrored() {
        for person in archive.people {
            for film in person.films {
                #expect(
                    archive.film(film.id)?.characters.contains { $0.id == person.id } == true,
                    "\(person.name) / film \(film.id)")
            }
            if let home = person.homeworld {
                #expect(
                    archive.planet(home.id)?.residents.contains { $0.id == person.id } == true,
                    "\(person.name) / planet \(home.id)")
            }
            for species in person.species {
                #expect(
                    archive.species(species.id)?.people.contains { $0.id == person.id } == true,
                    "\(person.name) / species \(species.id)")
            }
        }
    }

    @Test func containsEveryQuirk() {
        let people = archive.people
        #expect(archive.person(17) == nil && people.contains { $0.id > 17 }, "sparse people ids")
        #expect(people.contains { $0.mass.contains(",") }, "a number with a comma")
        #expect(people.contains { $0.birthYear.contains(".") && $0.birthYear.hasSuffix("BBY") }, "a decimal birth year")
        #expect(
            people.contains { $0.gender == "hermaphrodite" } && people.contains { $0.gender == "none" }
                && people.contains { $0.gender == "n/a" })
        #expect(people.contains { $0.species.isEmpty }, "people with no species")
        #expect(
            people.contains { $0.mass == "unknown" || $0.height == "unknown" }
                && people.contains { $0.hairColor == "n/a" })
        #expect(archive.planets.contains { $0.name == "unknown" }, "a planet called unknown")
        #expect(archive.films.allSatisfy { $0.openingCrawl.contains("\r\n") }, "crawls with CRLF")
        #expect(
            archive.planets.contains { $0.residents.isEmpty } || archive.starships.contains { $0.pilots.isEmpty },
            "empty relations")
        #expect(archive.species.contains { $0.homeworld == nil })
        let shipIDs = archive.starships.map(\.id)
        #expect(shipIDs != Array(1...shipIDs.count), "sparse starship ids")
    }
}
