import FlowSite
import Foundation
import SWAPI
import SWAPILive
import SwapiTestServer
import Testing

/// The live data source against a real HTTP server on 127.0.0.1.
@Suite struct CrawlerTests {
    /// A clock that never waits but remembers what it was asked to wait.
    final class RecordingClock: Sendable {
        let waits = Locked<[Duration]>([])
        var sleep: @Sendable (Duration) async throws -> Void {
            { duration in self.waits.withLock { $0.append(duration) } }
        }
        var all: [Duration] { waits.withLock { $0 } }
    }

    static func fixture(_ base: String) -> SwapiArchive { SyntheticArchive.make(host: base) }

    /// A generous timeout unless a test is about one: on a loaded machine a loopback request once
    /// took over 5 s and was retried, which changes what a test counts.
    func crawler(
        _ server: SwapiTestServer, clock: RecordingClock = RecordingClock(), cache: ResponseCache? = nil,
        mode: CacheMode = .normal, policy: FetchPolicy = FetchPolicy(timeout: .seconds(60))
    ) -> SwapiCrawler {
        SwapiCrawler(api: server.baseURL, policy: policy, cache: cache, mode: mode, sleep: clock.sleep, random: { 0.5 })
    }

    func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("crawler-\(UUID().uuidString)")
    }

    @Test func crawlsEveryPageOfTheFullDataset() async throws {
        let server = try await SwapiTestServer.start(archive: Self.fixture)
        defer { Task { await server.stop() } }
        // A generous timeout: on a loaded machine (the whole suite on two cores) a request that
        // took over 5 s was tried again, and the count below is of pages, not of retries.
        let (archive, statistics) = try await crawler(server, policy: FetchPolicy(timeout: .seconds(60)))
            .crawlWithStatistics()
        #expect(archive == Self.fixture(server.baseURL))
        #expect(statistics.retries == 0)
        // The root, 9 + 1 + 6 + 4 + 4 + 4 list pages.
        #expect(statistics.requests == 29)
        #expect(server.requests(at: "/api/people/?page=9") == 1)
        #expect(statistics.resources[.people] == 82)
    }

    @Test func readsPlainArraysToo() async throws {
        let server = try await SwapiTestServer.start(plainArrays: true, archive: Self.fixture)
        defer { Task { await server.stop() } }
        let (archive, statistics) = try await crawler(server).crawlWithStatistics()
        #expect(archive == Self.fixture(server.baseURL))
        #expect(statistics.requests == 7)
    }

    @Test func survivesEveryKindOfFaultAndCountsTheRetries() async throws {
        let server = try await SwapiTestServer.start(archive: Self.fixture)
        defer { Task { await server.stop() } }
        server.inject(.status(500), at: "/api/people/?page=2")
        server.inject(.tooManyRequests(retryAfter: 1), at: "/api/films/")
        server.inject(.cutBody, at: "/api/planets/?page=3")
        // Held for far longer than the timeout, so that it times out however slow the machine.
        server.inject(.delay(.seconds(40)), at: "/api/species/")
        server.inject(.status(503), at: "/api/")
        let clock = RecordingClock()
        // A timeout well above what a loopback request takes even when every core is busy with
        // other tests, so that only the delayed response times out: CI once saw a 2 s timeout
        // cut short a request that was not delayed, and counted six retries.
        let policy = FetchPolicy(timeout: .seconds(10), baseDelay: .milliseconds(100))
        let (archive, statistics) = try await crawler(server, clock: clock, policy: policy).crawlWithStatistics()
        #expect(archive == Self.fixture(server.baseURL))
        #expect(statistics.retries == 5)
        #expect(statistics.requests == 29 + 5)
        #expect(clock.all.count == 5)
        #expect(clock.all.contains(.seconds(1)), "Retry-After: 1 is honoured: \(clock.all)")
        #expect(server.requests(at: "/api/planets/?page=3") == 2)
        #expect(server.requests(at: "/api/species/") == 2)
    }

    @Test func aMissingIDIsNotRetried() async throws {
        let server = try await SwapiTestServer.start { base in
            var people = SyntheticArchive.make(people: 5, host: base).people
            people[0].homeworld = ResourceLink(url: "\(base)planets/999/", id: 999)
            return try! SwapiArchive(people: people, planets: SyntheticArchive.make(people: 5, host: base).planets)
        }
        defer { Task { await server.stop() } }
        let archive = try await crawler(server).crawl()
        #expect(server.requests(at: "/api/planets/999/") == 1)
        #expect(archive.danglingReferences.filter { $0.to == .planets }.map(\.link.id) == [999])
    }

    @Test func fetchesRelationsTheListsLeftOut() async throws {
        let server = try await SwapiTestServer.start(unlisted: [.planets: [3, 10]], archive: Self.fixture)
        defer { Task { await server.stop() } }
        let archive = try await crawler(server).crawl()
        #expect(archive == Self.fixture(server.baseURL))
        #expect(server.requests(at: "/api/planets/3/") == 1)
    }

    @Test func theCacheServesLaterCrawlsWithoutTheNetwork() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let cache = ResponseCache(folder: folder)
        let server = try await SwapiTestServer.start(archive: Self.fixture)
        let expected = Self.fixture(server.baseURL)
        _ = try await crawler(server, cache: cache).crawl()
        await server.stop()

        let (archive, statistics) = try await crawler(server, cache: cache).crawlWithStatistics()
        #expect(archive == expected)
        #expect(statistics.requests == 0 && statistics.cacheHits == 29)
        let offline = try await crawler(server, cache: cache, mode: .offline).crawl()
        #expect(offline == expected)
        // One finished entry per response and nothing else: no temporary files left behind.
        let entries = FileManager.default.enumerator(atPath: folder.path)!.compactMap { $0 as? String }.filter {
            $0.contains(".")
        }
        #expect(entries.count == 29 && entries.allSatisfy { $0.hasSuffix(".json") }, "\(entries)")
    }

    @Test func offlineWithoutACachedResponseNamesTheURL() async throws {
        let folder = temporaryFolder()
        let crawler = SwapiCrawler(api: "http://127.0.0.1:9/api/", cache: ResponseCache(folder: folder), mode: .offline)
        do {
            _ = try await crawler.crawl()
            Issue.record("the crawl should fail")
        } catch let error as SwapiFetchError {
            #expect(error.reason == .notCached(cache: folder.path))
            #expect(error.description.contains("http://127.0.0.1:9/api/ is not in the cache"))
        }
    }

    @Test func refreshFetchesAgain() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await SwapiTestServer.start(archive: {
            SyntheticArchive.make(people: 3, planets: 2, species: 1, starships: 1, vehicles: 1, host: $0)
        })
        defer { Task { await server.stop() } }
        _ = try await crawler(server, cache: ResponseCache(folder: folder)).crawl()
        let before = server.requestCount
        let (_, statistics) = try await crawler(server, cache: ResponseCache(folder: folder), mode: .refresh)
            .crawlWithStatistics()
        #expect(statistics.cacheHits == 0)
        #expect(server.requestCount == before * 2)
    }

    @Test func aFailedFetchLeavesNoCacheEntry() async throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await SwapiTestServer.start(archive: Self.fixture)
        defer { Task { await server.stop() } }
        for _ in 0..<3 { server.inject(.cutBody, at: "/api/films/") }
        let policy = FetchPolicy(retries: 2)
        await #expect(throws: SwapiFetchError.self) {
            try await crawler(server, cache: ResponseCache(folder: folder), policy: policy).crawl()
        }
        #expect(ResponseCache(folder: folder).read("\(server.baseURL)films/") == nil)
    }

    @Test func backoffGrowsWithJitterWithinBounds() {
        let policy = FetchPolicy(baseDelay: .milliseconds(500), maximumDelay: .seconds(4))
        #expect(policy.backoff(attempt: 0, random: 0) == .milliseconds(250))
        #expect(policy.backoff(attempt: 0, random: 1) == .milliseconds(500))
        #expect(policy.backoff(attempt: 2, random: 1) == .seconds(2))
        #expect(policy.backoff(attempt: 10, random: 1) == .seconds(4))
    }
}
