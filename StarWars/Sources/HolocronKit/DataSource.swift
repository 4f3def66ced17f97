import Foundation
import SWAPI
import SWAPILive

/// Where an archive comes from: one of SWAPI's local sources, or a live server crawled by
/// SWAPILive (which the app itself never links).
public enum DataSource: Sendable {
    /// The embedded snapshot, a snapshot folder or an archive in memory.
    case local(SwapiService.Source)
    /// A live SWAPI server.
    case api(LiveSource)

    /// The snapshot built into holocron.
    public static var embedded: DataSource { .local(.embedded) }
    /// A snapshot folder.
    public static func directory(_ url: URL) -> DataSource { .local(.directory(url)) }

    /// Loads the archive, reporting progress to `reporter`.
    public func load(
        sleep: @escaping @Sendable (Duration) async throws -> Void, reporter: ProgressReporter
    ) async throws -> SwapiArchive {
        switch self {
        case .local(let source): return try source.load()
        case .api(let live):
            let crawler = SwapiCrawler(
                api: live.api, policy: live.policy, cache: ResponseCache(folder: live.cache), mode: live.mode,
                sleep: sleep, progress: { reporter.report($0) }
            )
            return try await crawler.crawl()
        }
    }
}

/// A live API and how to fetch from it.
public struct LiveSource: Sendable {
    public var api: String
    public var cache: URL
    public var mode: CacheMode
    public var policy: FetchPolicy

    public init(api: String, cache: URL, mode: CacheMode = .normal, policy: FetchPolicy = FetchPolicy()) {
        self.api = api
        self.cache = cache
        self.mode = mode
        self.policy = policy
    }
}
