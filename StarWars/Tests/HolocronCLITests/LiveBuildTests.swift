import FlowSite
import FlowSiteCommandLine
import Foundation
import HolocronCLI
import HolocronKit
import SWAPI
import SWAPILive
import SwapiTestServer
import Testing

/// `holocron build --api` against a SWAPI-format server on 127.0.0.1.
@Suite struct LiveBuildTests {
    let cli = HolocronCLITests()

    static func fixture(_ base: String) -> SwapiArchive { SyntheticArchive.make(host: base) }

    @Test func theAPISiteIsByteIdenticalToTheDataSiteAndTheSnapshotSite() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await SwapiTestServer.start(archive: Self.fixture)
        defer { Task { await server.stop() } }
        try SnapshotDirectory.write(Self.fixture(server.baseURL), to: folder.appendingPathComponent("data"))

        // A minute per request, not the default 10 s: a loopback request on a loaded machine (or
        // under ThreadSanitizer) can outlast 10 s, and a retry would change the count below.
        let api = try await cli.holocron(
            "build", "--api", server.baseURL, "--output", "from-api", "--timeout", "60", in: folder)
        #expect(api.status == 0, "\(api.stderr)")
        #expect(
            api.stdout.hasPrefix("Built \(SitePages.count(of: Self.fixture(server.baseURL))) pages"), "\(api.stdout)")
        #expect(
            api.stderr.contains("Fetched 260 resources with 29 requests (0 retries, 0 from the cache)"), "\(api.stderr)"
        )
        let data = try await cli.holocron("build", "--data", "data", "--output", "from-data", in: folder)
        #expect(data.status == 0, "\(data.stderr)")
        let snapshot = try await cli.holocron(
            "snapshot", "--api", server.baseURL, "--output", "pinned", "--cache", "other-cache", in: folder)
        #expect(snapshot.status == 0, "\(snapshot.stderr)")
        let pinned = try await cli.holocron("build", "--data", "pinned", "--output", "from-snapshot", in: folder)
        #expect(pinned.status == 0, "\(pinned.stderr)")

        let fromAPI = try SiteDifference.files(in: folder.appendingPathComponent("from-api"))
        #expect(fromAPI.count > 290)
        #expect(fromAPI == (try SiteDifference.files(in: folder.appendingPathComponent("from-data"))))
        #expect(fromAPI == (try SiteDifference.files(in: folder.appendingPathComponent("from-snapshot"))))
    }

    @Test func withAFaultOnEveryPathTheSiteIsStillTheSame() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await SwapiTestServer.start(archive: Self.fixture)
        defer { Task { await server.stop() } }
        let faults: [SwapiTestServer.Fault] = [.status(500), .tooManyRequests(retryAfter: 1), .cutBody]
        for (index, path) in server.paths.enumerated() { server.inject(faults[index % faults.count], at: path) }
        #expect(server.paths.count == 29)

        let waits = WaitLog()
        let action = BuildAction(
            output: folder.appendingPathComponent("faulty"),
            source: .api(LiveSource(api: server.baseURL, cache: folder.appendingPathComponent("cache"))),
            quiet: true,
            sleep: { await waits.add($0) }
        )
        let report = try await action.run()
        #expect(report.pages == SitePages.count(of: Self.fixture(server.baseURL)))
        #expect(server.requestCount == 29 * 2)
        #expect(await waits.count == 29)

        try SnapshotDirectory.write(Self.fixture(server.baseURL), to: folder.appendingPathComponent("data"))
        _ = try await BuildAction(
            output: folder.appendingPathComponent("clean"), source: .directory(folder.appendingPathComponent("data")),
            quiet: true
        ).run()
        #expect(
            try SiteDifference.files(in: folder.appendingPathComponent("faulty"))
                == SiteDifference.files(in: folder.appendingPathComponent("clean")))
    }

    @Test func aServerThatIsGoneFailsClearlyAndTheCacheBuildsTheNextSite() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try await SwapiTestServer.start(archive: Self.fixture)
        let first = try await cli.holocron("build", "--api", server.baseURL, "--output", "site", in: folder)
        #expect(first.status == 0, "\(first.stderr)")
        let site = try SiteDifference.files(in: folder.appendingPathComponent("site"))
        let cache = try SiteDifference.files(in: folder.appendingPathComponent(".holocron-cache"))
        #expect(cache.count == 29)
        await server.stop()

        // A refresh needs the network: it fails, and neither the site nor the cache changes.
        let refresh = try await cli.holocron(
            "build", "--api", server.baseURL, "--output", "site", "--refresh", "--retries", "1", "--timeout", "2",
            in: folder)
        #expect(refresh.status != 0)
        // A refused connection cannot succeed on another attempt: it fails at once.
        #expect(
            refresh.stderr.contains("GET \(server.baseURL) failed: the connection was refused"), "\(refresh.stderr)")
        #expect(refresh.stderr.contains("--offline"))
        #expect(try SiteDifference.files(in: folder.appendingPathComponent("site")) == site)
        #expect(try SiteDifference.files(in: folder.appendingPathComponent(".holocron-cache")) == cache)

        // Without --refresh the cache serves the whole build, with no network at all.
        let cached = try await cli.holocron("build", "--api", server.baseURL, "--output", "site", in: folder)
        #expect(cached.status == 0, "\(cached.stderr)")
        #expect(cached.stderr.contains("0 retries, 29 from the cache"), "\(cached.stderr)")
        let offline = try await cli.holocron(
            "build", "--api", server.baseURL, "--output", "site", "--offline", in: folder)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(try SiteDifference.files(in: folder.appendingPathComponent("site")) == site)
    }

    @Test func optionsThatContradictEachOtherPrintUsage() async throws {
        let folder = try cli.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for arguments in [
            ["build", "--api", "http://127.0.0.1:9/api/", "--data", "."],
            ["build", "--offline"],
            ["build", "--api", "ftp://x/", "--output", "o"],
            ["build", "--api", "http://127.0.0.1:9/api/", "--refresh", "--offline"],
            ["build", "--api", "http://127.0.0.1:9/api/", "--max-requests", "0"],
            ["snapshot", "--output", "o"]
        ] {
            let run = try await cli.holocronArguments(arguments, in: folder)
            #expect(run.status == 2, "\(arguments): \(run.stderr)")
        }
    }
}

actor WaitLog {
    private(set) var waits: [Duration] = []
    func add(_ duration: Duration) { waits.append(duration) }
    var count: Int { waits.count }
}
