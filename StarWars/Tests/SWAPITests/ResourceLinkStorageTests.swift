import Foundation
import Testing

@testable import SWAPI

/// A relation link is kept as two numbers when its URL is `<prefix><id>/`, whole otherwise; either
/// way it gives back exactly the URL it was made from.
@Suite struct ResourceLinkStorageTests {
    /// The reader makes a list of plain URLs' links from their bytes, under one lock: each is
    /// the link ``ResourceLink/init(url:)`` makes, whatever the list mixes, and a list with a
    /// URL that is not a resource's is refused whole.
    @Test func linksFromBytesAreTheLinksFromStrings() throws {
        let urls = [
            "https://swapi.dev/api/people/1/", "https://swapi.dev/api/people/1", "https://swapi.dev/api/people/012/",
            "https://swapi.dev/api/films/3/?format=json", "https://mirror.example/api/planets/2/#top",
            "/api/species/7/",
            "https://swapi.dev/api/people//9/", "https://swapi.dev/api/vehicles/99999999999/",
            "https://swapi.dev/api/vehicles/2147483648/",
            "https://swapi.dev/api/vehicles/2147483647/", "https://swapi.dev/api/starships/0/",
            "https://ünï.example/api/people/5/",
            "https://swapi.dev/api/people/123456789/", "https://swapi.dev/api/people/1234567890/", "7/", "/7/"
        ]
        func links(_ list: [String]) -> [ResourceLink]? {
            let bytes = list.map { Array($0.utf8) }
            let buffers = bytes.map {
                $0.withUnsafeBufferPointer {
                    UnsafeBufferPointer(start: UnsafeMutablePointer(mutating: $0.baseAddress!), count: $0.count)
                }
            }
            return withExtendedLifetime(bytes) { ResourceLink.links(plain: buffers) }
        }
        for url in urls {
            let expected = ResourceLink(url: url)
            #expect(links([url]) == expected.map { [$0] }, "\(url)")
            if let made = links([url])?.first {
                #expect(made.url == url)
                #expect(made.id == expected?.id)
            }
        }
        let usual = [
            "https://swapi.dev/api/people/1/", "https://swapi.dev/api/people/22/", "https://other.example/api/films/3/"
        ]
        #expect(links(usual) == usual.map { ResourceLink(url: $0)! })
        let mixed = usual + ["https://swapi.dev/api/films/3/?format=json", "https://swapi.dev/api/people/5"]
        #expect(links(mixed) == mixed.map { ResourceLink(url: $0)! })
        #expect(links(usual + ["https://swapi.dev/api/people/luke/"]) == nil)
    }

    @Test func everyURLComesBackAsWritten() throws {
        let urls = [
            "https://swapi.dev/api/people/1/", "https://swapi.dev/api/people/1", "https://swapi.dev/api/people/012/",
            "https://swapi.dev/api/films/3/?format=json", "https://mirror.example/api/planets/2/#top",
            "/api/species/7/", "https://swapi.dev/api/people//9/", "https://swapi.dev/api/vehicles/99999999999/",
            "https://swapi.dev/api/starships/0/", "https://ünï.example/api/people/5/"
        ]
        for url in urls {
            let link = try #require(ResourceLink(url: url), "\(url)")
            #expect(link.url == url)
            #expect(link.id == ResourceLink.slowID(in: url))
            // The same URL twice is the same link; a different one never is.
            #expect(ResourceLink(url: url) == link)
            #expect(Set(urls.compactMap { ResourceLink(url: $0) }).count == urls.count)
        }
        // The usual form is kept as a prefix, the rest whole.
        #expect(ResourceLink(url: "https://swapi.dev/api/people/1/")?.prefixIndex != nil)
        #expect(ResourceLink(url: "https://swapi.dev/api/people/012/")?.prefixIndex == nil)
        #expect(ResourceLink(url: "https://swapi.dev/api/people/1")?.prefixIndex == nil)
    }

    /// Links on many hosts (many prefixes) come back as written, the same URL as the same link,
    /// in linear time: past the first few prefixes the table is asked, not every prefix. (It
    /// compared each new link with every prefix: 40,000 hosts took seconds and grew four times
    /// with each doubling. The limit only stops a run that hangs.)
    @Test(.timeLimit(.minutes(1))) func linksOnManyHostsAreKeptInLinearTime() throws {
        let urls = (0..<40_000).map { "https://host\($0).example/api/people/\($0 % 7 + 1)/" }
        let links = urls.map { ResourceLink(url: $0)! }
        #expect(links.allSatisfy { $0.prefixIndex != nil })
        for (url, link) in zip(urls, links) where link.url != url { Issue.record("\(url) came back as \(link.url)") }
        for (url, link) in zip(urls, links).prefix(100) { #expect(ResourceLink(url: url) == link) }
        #expect(Set(links).count == urls.count)
    }

    @Test func anIDGivenApartFromTheURLKeepsTheURL() {
        let link = ResourceLink(url: "https://swapi.dev/api/planets/7/", id: 999)
        #expect(link.id == 999)
        #expect(link.url == "https://swapi.dev/api/planets/7/")
        #expect(link != ResourceLink(url: "https://swapi.dev/api/planets/7/")!)
    }

    @Test func theQuickIDReaderAgreesWithTheSlowOne() {
        let shapes = [
            "", "/", "12", "/12", "/12/", "a/12/", "a/-12/", "a/+12/", "a/1.5/", "a/12//", "a/12/?x=1", "a/12#f",
            "a/\(Int.max)/", "a/99999999999999999999/", "a/0012/", "a/٣/", "https://x/people/7/"
        ]
        for url in shapes {
            #expect(ResourceLink.id(in: url) == ResourceLink.slowID(in: url), "\(url)")
        }
    }

    @Test func linksSurviveARoundTripThroughJSON() throws {
        let archive = SyntheticArchive.make(people: 30, planets: 5, species: 3, starships: 3, vehicles: 3)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("links-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try SnapshotDirectory.write(archive, to: folder)
        let again = try SnapshotDirectory(url: folder).load()
        #expect(again == archive)
        #expect(again.people.flatMap(\.films).map(\.url) == archive.people.flatMap(\.films).map(\.url))
    }
}

extension ResourceLink {
    /// The id as the general reader finds it: the last non-empty path component, before a query
    /// or fragment, when it is a non-negative number.
    static func slowID(in url: String) -> Int? {
        var path = Substring(url)
        if let cut = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<cut] }
        guard let last = path.split(separator: "/").last, let id = Int(last), id >= 0 else { return nil }
        return id
    }
}

/// The archive finds resources by id through a table when ids are dense and by binary search
/// when they are not; both must answer as a dictionary would.
@Suite struct ArchiveIndexTests {
    @Test(arguments: [
        [], [1, 2, 3, 5, 8], [0], Array(1...5_000), [3, 1_000_000, 7_000_000_000],
        Array(stride(from: 10, to: 100_000, by: 97))
    ])
    func everyIDIsFoundAndNoOtherIs(_ ids: [Int]) {
        let index = IDIndex(sortedIDs: ids)
        #expect(index.count == ids.count)
        for (position, id) in ids.enumerated() { #expect(index.position(of: id) == position) }
        let present = Set(ids)
        for probe in [-1, 0, 1, 4, 6, 9, 4_999, 5_001, 99_999, 1_000_001, Int.max] where !present.contains(probe) {
            #expect(index.position(of: probe) == nil, "\(probe)")
        }
    }

    @Test func theArchiveNamesAndFindsByID() throws {
        let url = { (kind: String, id: Int) in ResourceLink(url: "https://swapi.dev/api/\(kind)/\(id)/")! }
        let archive = try SwapiArchive(
            people: [Person(name: "Leia", url: url("people", 5)), Person(name: "Luke", url: url("people", 1))],
            films: [Film(title: "A New Hope", url: url("films", 1_000_000_000))]
        )
        #expect(archive.name(of: .people, id: 5) == "Leia")
        #expect(archive.person(1)?.name == "Luke")
        #expect(archive.person(2) == nil)
        #expect(archive.name(of: .films, id: 1_000_000_000) == "A New Hope")
        #expect(archive.count(of: .people) == 2 && archive.count(of: .vehicles) == 0)
        #expect(!archive.contains(.planets, id: 1))
        #expect(throws: SwapiError.self) {
            try SwapiArchive(people: [
                Person(name: "A", url: url("people", 3)), Person(name: "B", url: url("people", 3))
            ])
        }
    }
}
