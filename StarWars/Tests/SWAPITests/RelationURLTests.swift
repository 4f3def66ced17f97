import Foundation
import Testing

@testable import SWAPI

/// A relation counts only when its URL is a resource of the right kind under the data's own API
/// root; anything else is left out with a warning.
@Suite struct RelationURLTests {
    func load(people: String, films: String) throws -> SwapiArchive {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("swapi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for kind in ResourceKind.allCases {
            let json = kind == .people ? people : (kind == .films ? films : "[]")
            try Data(json.utf8).write(to: folder.appendingPathComponent(kind.fileName))
        }
        return try SnapshotDirectory(url: folder).load()
    }

    let films = (1...4).map { #"{"title": "Film \#($0)", "url": "https://swapi.dev/api/films/\#($0)/"}"# }.joined(
        separator: ",")

    @Test func relationsOutsideTheAPIRootOrOfAnotherKindAreLeftOutWithAWarning() throws {
        let archive = try load(
            people: #"""
                [{"name": "Luke", "url": "https://swapi.dev/api/people/1/",
                  "films": ["javascript:alert(1)//films/1", "https://evil.example/api/films/2/", \#
                "https://swapi.dev/api/planets/3/",
                            "https://swapi.dev/api/films/4/"]}]
                """#, films: "[\(films)]")
        #expect(archive.people[0].films.map(\.id) == [4])
        #expect(archive.apiRoots == ["https://swapi.dev/api/"])
        #expect(archive.danglingReferences.map(\.problem) == [.notAResourceURL, .outsideAPIRoot, .wrongKind(.planets)])
        let warnings = archive.danglingReferences.map(\.description)
        #expect(warnings.count == 3, "\(warnings)")
        #expect(warnings.allSatisfy { $0.contains("'films'") && $0.contains("https://swapi.dev/api/") }, "\(warnings)")
        #expect(warnings.contains { $0.contains("javascript:alert(1)//films/1") })
        #expect(warnings.contains { $0.contains("https://evil.example/api/films/2/") })
        #expect(warnings.contains { $0.contains("https://swapi.dev/api/planets/3/") })
    }

    /// A link is eight bytes (an archive holds millions for the whole build), and an id too
    /// large for that still reads back whole, with its URL, equal to the same link made again.
    @Test func linksAreSmallAndLargeIDsSurvive() throws {
        #expect(MemoryLayout<ResourceLink>.stride == 8)
        let url = "https://swapi.dev/api/people/12345678901234567/"
        let large = try #require(ResourceLink(url: url))
        #expect(large.id == 12_345_678_901_234_567)
        #expect(large.url == url)
        #expect(large == ResourceLink(url: url))
        #expect(large.hashValue == ResourceLink(url: url)?.hashValue)
        let small = try #require(ResourceLink(url: "https://swapi.dev/api/people/2147483647/"))
        #expect(small.id == Int(Int32.max) && small < large)
        let other = ResourceLink(url: url, id: 7)
        #expect(other.id == 7 && other.url == url && other != large)
        #expect(ResourceLink(url: url, id: -3).id == -3)
    }

    /// Data fetched from a server: only roots on the host of `--api` count, even when the
    /// server names another host in its own URLs.
    @Test func withAnAPIHostOnlyRootsOnThatHostCount() throws {
        let home = ResourceLink(url: "https://swapi.dev/api/planets/1/")!
        let elsewhere = ResourceLink(url: "https://mirror.example/api/planets/2/")!
        let people = [
            Person(name: "Luke", homeworld: home, url: ResourceLink(url: "https://swapi.dev/api/people/1/")!),
            Person(name: "Leia", homeworld: elsewhere, url: ResourceLink(url: "https://mirror.example/api/people/5/")!)
        ]
        let planets = [Planet(name: "Tatooine", url: home), Planet(name: "Alderaan", url: elsewhere)]
        let fromFiles = try SwapiArchive(people: people, planets: planets)
        #expect(fromFiles.danglingReferences.isEmpty)
        let fetched = try SwapiArchive(people: people, planets: planets, apiHost: "SWAPI.dev")
        #expect(fetched.person(1)?.homeworld == home)
        #expect(fetched.person(5)?.homeworld == nil)
        #expect(fetched.danglingReferences.map(\.problem) == [.outsideAPIRoot])
    }

    @Test func aRelationUnderTheRootOfTheRightKindIsAccepted() throws {
        let archive = try load(
            people: #"""
                [{"name": "Luke", "url": "https://swapi.dev/api/people/1/", \#
                "films": ["https://swapi.dev/api/films/2/", "https://swapi.dev/api/films/3"]}]
                """#, films: "[\(films)]")
        #expect(archive.people[0].films.map(\.id) == [2, 3])
        #expect(archive.danglingReferences.isEmpty)
    }
}
