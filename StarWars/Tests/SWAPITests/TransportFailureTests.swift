import FlowSite
import Foundation
import SWAPI
import SWAPILive
import SwapiTestServer
import Testing

/// Failures that another attempt cannot fix fail at once, with a message in the user's words.
@Suite struct TransportFailureTests {
    /// Counts the waits between attempts instead of sleeping.
    final class Waits: Sendable {
        let count = Locked(0)
        var sleep: @Sendable (Duration) async throws -> Void { { _ in self.count.withLock { $0 += 1 } } }
    }

    /// Words from the libraries underneath that a user should never read.
    static let internals = [
        "NIO", "BoringSSL", "HTTPClientError", "IOError", "errno", ".swift", "/.build/", "Optional("
    ]

    func expectNoInternals(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for word in Self.internals {
            #expect(!text.contains(word), "\(text)", sourceLocation: sourceLocation)
        }
    }

    /// A generous timeout for every crawl here: none of these tests is about a timeout, and on a
    /// loaded machine (the whole suite at once on two cores) a local request once took over 5 s,
    /// was retried, and the injected fault went to the attempt that timed out.
    static let policy = FetchPolicy(timeout: .seconds(60))

    func failure(api: String, policy: FetchPolicy = Self.policy, waits: Waits) async -> SwapiFetchError? {
        do {
            _ = try await SwapiCrawler(api: api, policy: policy, sleep: waits.sleep, random: { 0.5 }).crawl()
            return nil
        } catch {
            return error as? SwapiFetchError
        }
    }

    @Test func aRefusedConnectionFailsAtOnce() async throws {
        let server = try await SwapiTestServer.start(archive: { SyntheticArchive.make(people: 3, host: $0) })
        let base = server.baseURL
        await server.stop() // the port was bound and is now closed: connecting is refused
        let waits = Waits()
        let error = try #require(await failure(api: base, waits: waits))
        #expect(error.url == base)
        #expect(error.reason == .transport(.connectionRefused))
        #expect(error.attempts == 1)
        #expect(waits.count.withLock { $0 } == 0)
        #expect(error.description.contains("refused") && error.description.contains("--offline"), "\(error)")
        expectNoInternals(error.description)
    }

    @Test func tlsToAPlainHTTPPortFailsAtOnce() async throws {
        let server = try await SwapiTestServer.start(archive: { SyntheticArchive.make(people: 3, host: $0) })
        defer { Task { await server.stop() } }
        let https = server.baseURL.replacingOccurrences(of: "http://", with: "https://")
        let waits = Waits()
        let error = try #require(await failure(api: https, waits: waits))
        #expect(error.reason == .transport(.tls))
        #expect(error.attempts == 1)
        #expect(waits.count.withLock { $0 } == 0)
        #expect(error.description.contains("TLS") && error.description.contains("http://"), "\(error)")
        expectNoInternals(error.description)
    }

    @Test func anHTMLPageIsNotRetried() async throws {
        let server = try await SwapiTestServer.start(archive: { SyntheticArchive.make(people: 3, host: $0) })
        defer { Task { await server.stop() } }
        server.inject(.html, at: "/api/")
        let waits = Waits()
        let error = try #require(await failure(api: server.baseURL, waits: waits))
        #expect(error.reason == .htmlPage)
        #expect(error.attempts == 1)
        #expect(server.requests(at: "/api/") == 1)
        #expect(error.description.contains("HTML"), "\(error)")
        expectNoInternals(error.description)
    }

    @Test func aRedirectLoopIsNotRetried() async throws {
        let server = try await SwapiTestServer.start(archive: { SyntheticArchive.make(people: 3, host: $0) })
        defer { Task { await server.stop() } }
        for _ in 0..<20 {
            server.inject(.redirect(to: "/api/again/"), at: "/api/")
            server.inject(.redirect(to: "/api/"), at: "/api/again/")
        }
        let waits = Waits()
        let error = try #require(await failure(api: server.baseURL, waits: waits))
        #expect(error.reason == .transport(.redirectLoop))
        #expect(error.attempts == 1)
        #expect(waits.count.withLock { $0 } == 0)
        #expect(error.description.contains("redirect"), "\(error)")
        expectNoInternals(error.description)
    }

    @Test func aBodyOverTheLimitIsNotRetried() async throws {
        let server = try await SwapiTestServer.start(archive: { SyntheticArchive.make(people: 30, host: $0) })
        defer { Task { await server.stop() } }
        let waits = Waits()
        // A page of 10 people is several kilobytes; the root document is well under 1,000 bytes.
        let crawler = SwapiCrawler(
            api: server.baseURL, transport: .live(maximumBodySize: 1000),
            policy: Self.policy, sleep: waits.sleep
        )
        do {
            _ = try await crawler.crawl()
            Issue.record("the crawl should fail")
        } catch let error as SwapiFetchError {
            #expect(error.reason == .transport(.bodyTooLarge(limit: 1000)))
            #expect(error.attempts == 1)
            #expect(error.description.contains("more than 1000 bytes"), "\(error)")
            expectNoInternals(error.description)
        }
        #expect(waits.count.withLock { $0 } == 0)
    }

    @Test func aMachineWithoutLibcurlIsToldWhatToInstall() {
        let error = SwapiFetchError(
            url: "https://swapi.dev/api/", reason: .transport(.unavailable("libcurl is not installed")), attempts: 1)
        #expect(error.description.contains("libcurl is not installed"), "\(error)")
        #expect(
            error.description.contains("apt-get install libcurl4") && error.description.contains("--data"), "\(error)")
        expectNoInternals(error.description)
    }

    @Test func whatCanSucceedIsStillRetried() async throws {
        let server = try await SwapiTestServer.start(archive: { SyntheticArchive.make(people: 3, host: $0) })
        defer { Task { await server.stop() } }
        server.inject(.status(502), at: "/api/")
        server.inject(.cutBody, at: "/api/people/")
        let waits = Waits()
        let (_, statistics) = try await SwapiCrawler(
            api: server.baseURL, policy: Self.policy, sleep: waits.sleep, random: { 0.5 }
        )
        .crawlWithStatistics()
        #expect(statistics.retries == 2)
        #expect(waits.count.withLock { $0 } == 2)
    }
}
