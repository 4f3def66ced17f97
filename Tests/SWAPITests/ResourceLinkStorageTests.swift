import Foundation
import Testing
@testable import SWAPI

/// A relation link is kept as two numbers when its URL is `<prefix><id>/`, whole otherwise; either
/// way it gives back exactly the URL it was made from.
@Suite struct ResourceLinkStorageTests {
    @Test func everyURLComesBackAsWritten() throws {
        let urls = [
            "https://swapi.dev/api/people/1/", "https://swapi.dev/api/people/1", "https://swapi.dev/api/people/012/",
            "https://swapi.dev/api/films/3/?format=json", "https://mirror.example/api/planets/2/#top",
            "/api/species/7/", "https://swapi.dev/api/people//9/", "https://swapi.dev/api/vehicles/99999999999/",
            "https://swapi.dev/api/starships/0/", "https://ünï.example/api/people/5/",
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

    @Test func anIDGivenApartFromTheURLKeepsTheURL() {
        let link = ResourceLink(url: "https://swapi.dev/api/planets/7/", id: 999)
        #expect(link.id == 999)
        #expect(link.url == "https://swapi.dev/api/planets/7/")
        #expect(link != ResourceLink(url: "https://swapi.dev/api/planets/7/")!)
    }

    @Test func theQuickIDReaderAgreesWithTheSlowOne() {
        let shapes = ["", "/", "12", "/12", "/12/", "a/12/", "a/-12/", "a/+12/", "a/1.5/", "a/12//", "a/12/?x=1", "a/12#f",
                      "a/\(Int.max)/", "a/99999999999999999999/", "a/0012/", "a/٣/", "https://x/people/7/"]
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
