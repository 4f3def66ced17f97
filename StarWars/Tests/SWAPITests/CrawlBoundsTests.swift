import Foundation
import SWAPILive
import SwapiTestServer
import Testing

@testable import SWAPI

/// A live crawl ends: bounded by the count a list announces, by the request budget, and by the
/// host of `--api`.
@Suite struct CrawlBoundsTests {
    static func fixture(_ base: String) -> SwapiArchive { SyntheticArchive.make(host: base) }

    /// A generous timeout: on a loaded machine a loopback request once took over 5 s and was
    /// retried, which changes what a test counts.
    func crawler(_ server: SwapiTestServer, policy: FetchPolicy = FetchPolicy(timeout: .seconds(60))) -> SwapiCrawler {
        SwapiCrawler(api: server.baseURL, policy: policy, sleep: { _ in }, random: { 0.5 })
    }

    /// The people list says 82 (9 pages of 10), but its `next` links run on to page 300.
    @Test func aListWhoseNextLinksRunOnStopsNearTheCountItAnnounced() async throws {
        let server = try await SwapiTestServer.start(runaway: [.people: 300], archive: Self.fixture)
        defer { Task { await server.stop() } }
        do {
            _ = try await crawler(server).crawl()
            Issue.record("the crawl should stop")
        } catch let error as SwapiFetchError {
            // 9 pages of 10 hold the 82, and 2 more are allowed for data that grows meanwhile.
            #expect(error.reason == .endlessList(kind: .people, count: 82, pages: 11))
            #expect(error.url == "\(server.baseURL)people/?page=11")
            #expect(error.description.contains("announced 82 resources"), "\(error)")
        }
        let pagesRead = (1...300).map { server.requests(at: $0 == 1 ? "/api/people/" : "/api/people/?page=\($0)") }
            .reduce(0, +)
        #expect(pagesRead == 11)
    }

    @Test func theCrawlStopsAtMaxRequests() async throws {
        let server = try await SwapiTestServer.start(archive: Self.fixture)
        defer { Task { await server.stop() } }
        // The full data takes 29 requests.
        do {
            _ = try await crawler(server, policy: FetchPolicy(timeout: .seconds(60), maxRequests: 10)).crawl()
            Issue.record("the crawl should stop at 10 requests")
        } catch let error as SwapiFetchError {
            #expect(error.reason == .requestLimit(10))
            #expect(error.description.contains("--max-requests"), "\(error)")
        }
        // Never more than the limit. The crawl stops with requests in flight and cancels them, so
        // one may not have reached the server yet (seen under ThreadSanitizer: 9).
        #expect((1...10).contains(server.requestCount), "\(server.requestCount) requests")
    }

    @Test func aNextLinkToAnotherHostIsRefused() async throws {
        let server = try await SwapiTestServer.start(archive: Self.fixture)
        defer { Task { await server.stop() } }
        // The same server under another name: it would answer, but it is not the host of --api.
        let elsewhere = server.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost")
        server.inject(.next("\(elsewhere)people/?page=2"), at: "/api/people/")
        do {
            _ = try await crawler(server).crawl()
            Issue.record("the crawl should refuse the link")
        } catch let error as SwapiFetchError {
            #expect(error.url == "\(server.baseURL)people/")
            #expect(
                error.reason
                    == .foreignLink(
                        field: "next", link: "\(elsewhere)people/?page=2",
                        apiHost: String(server.baseURL.dropFirst(7).prefix { $0 != "/" })))
            #expect(error.description.contains("\(elsewhere)people/?page=2"), "\(error)")
            #expect(error.description.contains("--api"), "\(error)")
        }
        #expect(server.requests(at: "/api/people/?page=2") == 0)
    }

    @Test func aRelationToAnotherHostIsNotFetched() async throws {
        let server = try await SwapiTestServer.start { base in
            let elsewhere = base.replacingOccurrences(of: "127.0.0.1", with: "localhost")
            let small = SyntheticArchive.make(people: 5, host: base)
            var people = small.people
            people[0].homeworld = ResourceLink(url: "\(elsewhere)planets/999/", id: 999)
            // A planet whose own URL is on the other host, so that the server's data counts
            // that host as one of its roots and serves the relation as it is.
            let planets =
                small.planets + [Planet(name: "Elsewhere", url: ResourceLink(url: "\(elsewhere)planets/998/", id: 998))]
            return try! SwapiArchive(people: people, planets: planets)
        }
        defer { Task { await server.stop() } }
        let archive = try await crawler(server).crawl()
        #expect(server.requests(at: "/api/planets/999/") == 0)
        #expect(archive.people[0].homeworld == nil)
        let rejected = archive.danglingReferences.filter { $0.problem != .notInArchive }
        #expect(
            rejected.map(\.link.url) == [
                server.baseURL.replacingOccurrences(of: "127.0.0.1", with: "localhost") + "planets/999/"
            ])
        #expect(rejected.first?.problem == .outsideAPIRoot)
    }
}
