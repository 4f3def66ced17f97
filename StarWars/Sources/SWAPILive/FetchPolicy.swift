import SWAPI

/// How the crawler fetches: how many requests at once, how long each may take, how often and
/// how patiently a failed one is tried again, and how many requests a crawl may make at most.
public struct FetchPolicy: Sendable {
    /// Requests in flight at once.
    public var concurrency: Int
    /// How long one request may take, headers and body.
    public var timeout: Duration
    /// How many times a failed request is tried again (so up to `retries + 1` attempts).
    public var retries: Int
    /// The first backoff; each retry doubles it, with jitter.
    public var baseDelay: Duration
    /// The longest wait between attempts, `Retry-After` included.
    public var maximumDelay: Duration
    /// The most HTTP requests one crawl may send, retries included: a server whose links never
    /// end fails the crawl here instead of running it forever. SWAPI takes about 30.
    public var maxRequests: Int

    public init(
        concurrency: Int = 4, timeout: Duration = .seconds(10), retries: Int = 3,
        baseDelay: Duration = .milliseconds(500), maximumDelay: Duration = .seconds(60),
        maxRequests: Int = 10_000
    ) {
        self.concurrency = max(1, concurrency)
        self.timeout = timeout
        self.retries = max(0, retries)
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
        self.maxRequests = max(1, maxRequests)
    }

    /// The wait before retry number `attempt` (0 for the first retry): exponential, with
    /// "equal jitter" (half fixed, half random) so clients that failed together don't retry
    /// together.
    public func backoff(attempt: Int, random: Double) -> Duration {
        let exponential = baseDelay * Int(pow2(min(attempt, 20)))
        let capped = min(exponential, maximumDelay)
        return capped / 2 + capped / 2 * min(max(random, 0), 1)
    }

    private func pow2(_ n: Int) -> Int { 1 << n }
}

/// Whether the crawler may use the network and the cache.
public enum CacheMode: Sendable, Equatable {
    /// Serve from the cache when it has the response, else fetch and store.
    case normal
    /// Fetch everything again and store it.
    case refresh
    /// Use only the cache; a missing response is an error.
    case offline
}
