import Foundation
import Testing

@testable import SWAPI

@Suite struct DecodingTests {
    func decode<R: SwapiResource>(_ type: R.Type, _ json: String) throws -> [R] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for kind in ResourceKind.allCases {
            try Data((kind == R.kind ? json : "[]").utf8).write(to: folder.appendingPathComponent(kind.fileName))
        }
        let archive = try SnapshotDirectory(url: folder).load()
        return archive.resources(of: R.kind).map { $0 as! R }
    }

    @Test func quirksOfRealDataDecode() throws {
        let people = try decode(
            Person.self,
            #"""
            [{"name": "Jabba Desilijic Tiure", "height": "175", "mass": "1,358", "hair_color": "n/a", \#
            "skin_color": "green-tan, brown",
              "eye_color": "orange", "birth_year": "600BBY", "gender": "hermaphrodite", \#
            "homeworld": "https://swapi.info/api/planets/24",
              "films": ["https://swapi.info/api/films/1", "https://swapi.info/api/films/3"], \#
            "species": ["https://swapi.info/api/species/5"],
              "vehicles": [], "starships": [], "created": "x", "edited": "y", \#
            "url": "https://swapi.info/api/people/16"},
             {"name": "IG-88", "height": 200, "mass": null, "gender": "none", "birth_year": "15BBY", "species": [],
              "url": "http://localhost:8080/api/people/23/?format=json"}]
            """#)
        #expect(people.map(\.id) == [16, 23])
        #expect(people[0].mass == "1,358")
        #expect(people[0].homeworld?.id == 24)
        #expect(people[0].films.map(\.id) == [1, 3])
        #expect(people[1].height == "200") // a number where SWAPI has a string
        #expect(people[1].mass == "unknown") // null
        #expect(people[1].hairColor == "unknown") // missing
        #expect(people[1].species.isEmpty && people[1].films.isEmpty)
        #expect(people[1].homeworld == nil)
    }

    @Test func filmsKeepTheirCrawlAndEpisode() throws {
        let films = try decode(
            Film.self,
            #"""
            [{"title": "A New Hope", "episode_id": 4, "opening_crawl": "Line one.\r\nLine two.", \#
            "release_date": "1977-05-25",
              "url": "https://swapi.dev/api/films/1/"}, {"title": "Strings", "episode_id": "5", \#
            "url": "https://swapi.dev/api/films/2/"}]
            """#)
        #expect(films[0].openingCrawl == "Line one.\r\nLine two.")
        #expect(films.map(\.episodeID) == [4, 5])
    }

    @Test func speciesWithoutAHomeworld() throws {
        let species = try decode(
            Species.self,
            #"""
            [{"name": "Droid", "homeworld": null, "average_lifespan": "indefinite", \#
            "url": "https://swapi.dev/api/species/2/"}]
            """#
        )
        #expect(species[0].homeworld == nil)
        #expect(species[0].averageLifespan == "indefinite")
    }

    @Test func aMissingNameIsNamedWithFileResourceAndField() throws {
        do {
            _ = try decode(
                Planet.self,
                #"""
                [{"name": "Tatooine", "url": "https://swapi.dev/api/planets/1/"}, {"climate": "arid", \#
                "url": "https://swapi.dev/api/planets/2/"}]
                """#
            )
            Issue.record("decoding should fail")
        } catch let error as SwapiError {
            #expect(
                error.description.contains("planets.json, resource 2, field 'name': the field is missing"), "\(error)")
        }
    }

    @Test func aBadRelationNamesTheResourceByName() throws {
        do {
            _ = try decode(
                Person.self,
                #"""
                [{"name": "Luke Skywalker", "films": ["https://swapi.dev/api/films/one/"], \#
                "url": "https://swapi.dev/api/people/1/"}]
                """#
            )
            Issue.record("decoding should fail")
        } catch let error as SwapiError {
            let text = error.description
            #expect(text.contains("people.json, resource 1 (\"Luke Skywalker\"), field 'films[0]'"), "\(text)")
            #expect(text.contains("last path component must be a number"), "\(text)")
        }
    }

    @Test func aWrongTypeIsNamed() throws {
        do {
            _ = try decode(
                Vehicle.self,
                #"[{"name": "Sand Crawler", "pilots": "none", "url": "https://swapi.dev/api/vehicles/4/"}]"#)
            Issue.record("decoding should fail")
        } catch let error as SwapiError {
            #expect(
                error.description.contains("vehicles.json, resource 1 (\"Sand Crawler\"), field 'pilots'"), "\(error)")
        }
    }

    @Test func notJSONIsNamed() throws {
        do {
            _ = try decode(Starship.self, "{ this is not json")
            Issue.record("decoding should fail")
        } catch let error as SwapiError {
            #expect(error.description.contains("starships.json"), "\(error)")
        }
    }

    @Test func aMissingFileSaysWhatAFolderHolds() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect {
            try SnapshotDirectory(url: folder).load()
        } throws: { error in
            let text = "\(error)"
            return text.contains("people.json is missing") && text.contains("holocron snapshot")
        }
    }

    @Test func duplicateIDsAreRefused() throws {
        do {
            _ = try decode(
                Film.self,
                #"""
                [{"title": "A", "url": "https://swapi.dev/api/films/1/"}, {"title": "B", \#
                "url": "https://x/api/films/1"}]
                """#
            )
            Issue.record("decoding should fail")
        } catch let error as SwapiError {
            #expect(error.description.contains("id 1"))
        }
    }

    @Test(arguments: [
        ("https://swapi.dev/api/people/1/", 1),
        ("https://swapi.info/api/people/83", 83),
        ("http://127.0.0.1:8080/api/starships/75/?format=json", 75),
        ("/api/planets/28/", 28)
    ])
    func idsComeFromTheLastPathComponent(url: String, id: Int) {
        #expect(ResourceLink.id(in: url) == id)
    }
}

@Suite struct ArchiveTests {
    @Test func theSyntheticArchiveHasSWAPIsCountsAndIDs() {
        let archive = SyntheticArchive.make()
        #expect(archive.people.count == 82)
        #expect(archive.films.count == 6)
        #expect(archive.planets.count == 60)
        #expect(archive.species.count == 37)
        #expect(archive.starships.count == 36)
        #expect(archive.vehicles.count == 39)
        #expect(archive.person(17) == nil && archive.person(83) != nil)
        #expect(archive.danglingReferences.isEmpty)
    }

    @Test func relationsAreMirrored() {
        let archive = SyntheticArchive.make()
        for person in archive.people {
            for film in person.films { #expect(archive.film(film.id)!.characters.contains(person.url)) }
            if let home = person.homeworld { #expect(archive.planet(home.id)!.residents.contains(person.url)) }
            for ship in person.starships { #expect(archive.starship(ship.id)!.pilots.contains(person.url)) }
        }
    }

    @Test func danglingRelationsAreReportedWithWhereTheyAre() throws {
        let archive = try SwapiArchive(people: [
            Person(
                name: "Lonely", films: [ResourceLink(url: "https://swapi.dev/api/films/9/")!],
                url: ResourceLink(url: "https://swapi.dev/api/people/1/")!)
        ])
        #expect(archive.danglingReferences.count == 1)
        let text = archive.danglingReferences[0].description
        #expect(text.contains("character 1 (Lonely): 'films' points at https://swapi.dev/api/films/9/"))
    }

    @Test func aSnapshotFolderRoundTrips() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swapi-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let archive = SyntheticArchive.make(host: "http://127.0.0.1:9/api/")
        try SnapshotDirectory.write(archive, to: folder)
        let first = try Data(contentsOf: folder.appendingPathComponent("people.json"))
        let reread = try SnapshotDirectory(url: folder).load()
        #expect(reread == archive)
        try SnapshotDirectory.write(reread, to: folder)
        #expect(try Data(contentsOf: folder.appendingPathComponent("people.json")) == first)
        #expect(String(decoding: first, as: UTF8.self).contains(#""birth_year""#))
    }

    @Test func theServiceLoadsOnceAndSharesTheArchive() async throws {
        let service = SwapiService.live(.archive(SyntheticArchive.make(people: 3)))
        async let a = service.archive()
        async let b = service.archive()
        #expect(try await a == b)
        struct Down: Error {}
        await #expect(throws: Down.self) { try await SwapiService.failing(Down()).archive() }
    }
}
