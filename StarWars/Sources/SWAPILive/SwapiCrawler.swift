import FlowSite
import Foundation
import SWAPI

/// Downloads a whole SWAPI archive from a server that speaks SWAPI's REST format.
///
/// It reads the root document, follows each kind's list page by page (`next` until null, or a
/// plain JSON array), then fetches single resources that relations point at but the lists did
/// not hold. Requests run with bounded concurrency; what another attempt can fix (timeouts,
/// lost connections, bodies cut short, 5xx, 429) is retried with exponential backoff and jitter
/// (honouring `Retry-After`); anything else (a refused connection, a failed TLS handshake, an
/// HTML page, a redirect loop, a body over the size limit, 404) fails at once. Successful
/// responses go to the cache, which later runs read first.
///
/// A crawl always ends: a list may take only a few pages more than the `count` its first page
/// announces, the whole crawl at most ``FetchPolicy/maxRequests`` requests, and only URLs on
/// the host of `api` are fetched.
///
/// ```swift
/// let crawler = SwapiCrawler(api: "https://swapi.dev/api/", cache: ResponseCache(folder: cacheURL))
/// let archive = try await crawler.crawl()
/// ```
public struct SwapiCrawler: Sendable {
    public let api: String
    public var transport: HTTPTransport
    public var policy: FetchPolicy
    public var cache: ResponseCache?
    public var mode: CacheMode
    /// Waits between attempts: the clock, injected so tests don't sleep.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// A number in 0...1 for jitter.
    public var random: @Sendable () -> Double
    /// Hears about progress and retries.
    public var progress: @Sendable (CrawlEvent) -> Void

    public init(
        api: String,
        transport: HTTPTransport = .live(),
        policy: FetchPolicy = FetchPolicy(),
        cache: ResponseCache? = nil,
        mode: CacheMode = .normal,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        random: @escaping @Sendable () -> Double = { Double.random(in: 0...1) },
        progress: @escaping @Sendable (CrawlEvent) -> Void = { _ in }
    ) {
        self.api = api.hasSuffix("/") ? api : api + "/"
        self.transport = transport
        self.policy = policy
        self.cache = cache
        self.mode = mode
        self.sleep = sleep
        self.random = random
        self.progress = progress
    }

    /// Fetches every resource.
    /// - Throws: ``SwapiFetchError`` naming the URL that failed; ``SwapiError`` for data that
    ///   arrived whole but is not valid SWAPI data.
    public func crawl() async throws -> SwapiArchive {
        try await crawlWithStatistics().archive
    }

    /// Fetches every resource and says how many requests, retries and cache hits it took.
    public func crawlWithStatistics() async throws -> (archive: SwapiArchive, statistics: CrawlStatistics) {
        let started = ContinuousClock.now
        let session = Session(crawler: self)
        let roots = try await session.rootDocument()
        var lists: [ResourceKind: [Data]] = [:]
        try await withThrowingTaskGroup(of: (ResourceKind, [Data]).self) { group in
            for kind in ResourceKind.allCases {
                let url = roots[kind]!
                group.addTask { (kind, try await session.list(kind, from: url)) }
            }
            for try await (kind, resources) in group { lists[kind] = resources }
        }
        var archive = try Self.archive(from: lists, source: api, apiHost: session.apiHost)
        // Relations that point outside what the lists returned: fetch them one by one. The
        // archive accepts only relations under the API's root on the host of `api`, so nothing
        // else is fetched.
        var tried: Set<String> = []
        for _ in 0..<3 {
            var missing: [String: ResourceKind] = [:]
            for reference in archive.danglingReferences
            where reference.problem == .notInArchive && !tried.contains(reference.link.url) {
                missing[reference.link.url] = reference.to
            }
            guard !missing.isEmpty else { break }
            tried.formUnion(missing.keys)
            let found = try await session.singles(missing.keys.sorted())
            guard !found.isEmpty else { break }
            for (url, body) in found {
                lists[missing[url]!, default: []].append(body)
            }
            archive = try Self.archive(from: lists, source: api, apiHost: session.apiHost)
        }
        var statistics = session.statistics
        statistics.duration = ContinuousClock.now - started
        progress(.finished(statistics))
        return (archive, statistics)
    }

    /// Decodes each kind's resource objects into an archive whose relations must be on `apiHost`.
    static func archive(from lists: [ResourceKind: [Data]], source: String, apiHost: String?) throws -> SwapiArchive {
        func decode<R: SwapiRecord>(_ type: R.Type) throws -> [R] {
            var array = Data("[".utf8)
            for (index, object) in (lists[R.kind] ?? []).enumerated() {
                if index > 0 { array.append(UInt8(ascii: ",")) }
                array.append(object)
            }
            array.append(UInt8(ascii: "]"))
            return try SnapshotDecoder.decode(R.self, from: array, source: "\(source)\(R.kind.rawValue)/")
        }
        return try SwapiArchive(
            people: decode(Person.self), films: decode(Film.self), planets: decode(Planet.self),
            species: decode(Species.self), starships: decode(Starship.self), vehicles: decode(Vehicle.self),
            apiHost: apiHost
        )
    }

    /// The pages a list may take beyond those its `count` needs: data can grow during a crawl.
    static func pageSlack(_ pages: Int) -> Int { max(2, pages / 10) }
}

/// What the crawler did.
public struct CrawlStatistics: Sendable, Equatable {
    /// HTTP requests sent, retries included.
    public var requests = 0
    /// Requests that were tried again.
    public var retries = 0
    /// Responses served from the cache.
    public var cacheHits = 0
    /// Resources fetched, by kind.
    public var resources: [ResourceKind: Int] = [:]
    /// How long the crawl took.
    public var duration: Duration = .zero
}

/// Something the crawler reports while it works.
public enum CrawlEvent: Sendable {
    /// `count` resources of `kind` so far, of `total` when the server said.
    case progress(ResourceKind, count: Int, total: Int?)
    /// A request failed and will be tried again after `delay`.
    case retrying(url: String, attempt: Int, of: Int, reason: String, delay: Duration)
    /// The crawl is done.
    case finished(CrawlStatistics)
}

/// One crawl's shared state: the concurrency limit and the counters.
private final class Session: Sendable {
    let crawler: SwapiCrawler
    /// `host` or `host:port` of `api`: the only host the crawl fetches from.
    let apiHost: String?
    private let limiter: Limiter
    private let counters = Locked(CrawlStatistics())

    init(crawler: SwapiCrawler) {
        self.crawler = crawler
        apiHost = ResourceURL.authority(of: crawler.api)
        limiter = Limiter(crawler.policy.concurrency)
    }

    /// Whether `url` is an http(s) URL on the host of `api`.
    func isOnAPIHost(_ url: String) -> Bool {
        apiHost != nil && ResourceURL.authority(of: url) == apiHost
    }

    /// Refuses `link`, found in `field` of the response at `url`, unless it is on the API's host.
    func checkHost(of link: String, field: String, from url: String) throws {
        guard isOnAPIHost(link) else {
            throw SwapiFetchError(
                url: url, reason: .foreignLink(field: field, link: link, apiHost: apiHost ?? crawler.api))
        }
    }

    var statistics: CrawlStatistics { counters.withLock { $0 } }

    /// The root document's link for each kind.
    func rootDocument() async throws -> [ResourceKind: String] {
        let url = crawler.api
        let json = try await fetchJSON(url)
        guard let object = json as? [String: Any] else {
            throw SwapiFetchError(
                url: url, reason: .notSwapi("expected an object with a link for each kind of resource"))
        }
        var roots: [ResourceKind: String] = [:]
        for kind in ResourceKind.allCases {
            guard let link = object[kind.rawValue] as? String, !link.isEmpty else {
                throw SwapiFetchError(url: url, reason: .notSwapi("it has no '\(kind.rawValue)' link"))
            }
            try checkHost(of: link, field: kind.rawValue, from: url)
            roots[kind] = link
        }
        return roots
    }

    /// Every resource object of one kind, following pages: only on the API's host, and only a
    /// little beyond the pages the first page's `count` needs.
    func list(_ kind: ResourceKind, from first: String) async throws -> [Data] {
        var resources: [Data] = []
        var next: String? = first
        var seen: Set<String> = []
        var previous: String?
        var pagesRead = 0
        var bound: (count: Int, pages: Int)?
        while let url = next {
            if let previous { try checkHost(of: url, field: "next", from: previous) }
            if let bound, pagesRead >= bound.pages {
                throw SwapiFetchError(
                    url: previous ?? url, reason: .endlessList(kind: kind, count: bound.count, pages: pagesRead))
            }
            guard seen.insert(url).inserted else {
                throw SwapiFetchError(url: url, reason: .decoding("its 'next' link leads back to a page already read"))
            }
            let json = try await fetchJSON(url)
            let items: [Any]
            var total: Int?
            if let array = json as? [Any] {
                items = array
                next = nil
            } else if let page = json as? [String: Any], let results = page["results"] as? [Any] {
                items = results
                next = page["next"] as? String
                total = page["count"] as? Int
            } else {
                throw SwapiFetchError(url: url, reason: .decoding("expected a JSON array or a page with 'results'"))
            }
            for (index, item) in items.enumerated() {
                guard JSONSerialization.isValidJSONObject(item),
                    let data = try? JSONSerialization.data(withJSONObject: item)
                else {
                    throw SwapiFetchError(url: url, reason: .decoding("results[\(index)] is not a resource object"))
                }
                resources.append(data)
            }
            pagesRead += 1
            previous = url
            if pagesRead == 1, let total {
                let pageSize = max(1, items.count)
                let pages = max(1, (total + pageSize - 1) / pageSize)
                bound = (total, pages + SwapiCrawler.pageSlack(pages))
            }
            counters.withLock { $0.resources[kind] = resources.count }
            crawler.progress(.progress(kind, count: resources.count, total: total))
        }
        return resources
    }

    /// Single resources by URL; those the server doesn't have (404), and any not on the API's
    /// host, are left out.
    func singles(_ urls: [String]) async throws -> [(String, Data)] {
        try await withThrowingTaskGroup(of: (String, Data)?.self) { group in
            for url in urls where isOnAPIHost(url) {
                group.addTask {
                    do {
                        let json = try await self.fetchJSON(url)
                        guard JSONSerialization.isValidJSONObject(json) else { return nil }
                        return (url, try JSONSerialization.data(withJSONObject: json))
                    } catch let error as SwapiFetchError where error.reason == .notFound {
                        return nil
                    }
                }
            }
            var found: [(String, Data)] = []
            for try await result in group { if let result { found.append(result) } }
            return found.sorted { $0.0 < $1.0 }
        }
    }

    /// The parsed JSON at `url`, from the cache or the network (with retries).
    func fetchJSON(_ url: String) async throws -> Any {
        if crawler.mode != .refresh, let cached = crawler.cache?.read(url),
            let json = try? JSONSerialization.jsonObject(with: cached)
        {
            counters.withLock { $0.cacheHits += 1 }
            return json
        }
        if crawler.mode == .offline {
            throw SwapiFetchError(url: url, reason: .notCached(cache: crawler.cache?.folder.path ?? "(no cache)"))
        }
        let policy = crawler.policy
        var attempt = 0
        while true {
            attempt += 1
            let attempts = attempt
            let outcome: Outcome
            do {
                let response = try await limiter.run {
                    let allowed = self.counters.withLock { counters -> Bool in
                        guard counters.requests < policy.maxRequests else { return false }
                        counters.requests += 1
                        return true
                    }
                    guard allowed else {
                        throw SwapiFetchError(url: url, reason: .requestLimit(policy.maxRequests), attempts: attempts)
                    }
                    return try await self.crawler.transport.get(url, policy.timeout)
                }
                outcome = Self.judge(response)
            } catch let error as CancellationError {
                throw error
            } catch let error as SwapiFetchError {
                throw error
            } catch {
                outcome = .failure(
                    .transport(HTTPTransportError(classifying: error).reason), retryAfter: nil, underlying: error)
            }
            switch outcome {
            case .success(let body, let json):
                try? crawler.cache?.write(body, for: url)
                return json
            case .failure(let reason, let retryAfter, let underlying):
                let error = SwapiFetchError(url: url, reason: reason, attempts: attempt, underlying: underlying)
                guard error.isRetryable, attempt <= policy.retries else { throw error }
                let backoff = policy.backoff(attempt: attempt - 1, random: crawler.random())
                let delay = min(max(retryAfter ?? .zero, backoff), policy.maximumDelay)
                counters.withLock { $0.retries += 1 }
                crawler.progress(
                    .retrying(
                        url: url, attempt: attempt + 1, of: policy.retries + 1, reason: reason.summary, delay: delay))
                try await crawler.sleep(delay)
            }
        }
    }

    enum Outcome {
        case success(Data, Any)
        case failure(SwapiFetchError.Reason, retryAfter: Duration?, underlying: (any Error)?)
    }

    /// What a response means: JSON, or a failure that ``SwapiFetchError/isRetryable`` sorts.
    static func judge(_ response: HTTPResponse) -> Outcome {
        switch response.status {
        case 200..<300:
            // The syntax check tells a body cut short (worth another attempt) from one that is
            // not JSON at all (not worth one), and says where.
            if let problem = JSONSyntax.firstProblem(in: response.body) {
                if isHTML(response) { return .failure(.htmlPage, retryAfter: nil, underlying: nil) }
                if problem.isTruncation {
                    return .failure(.incompleteBody(bytes: response.body.count), retryAfter: nil, underlying: nil)
                }
                switch problem.reason {
                case .invalidUTF8:
                    return .failure(.notUTF8(position: problem.position), retryAfter: nil, underlying: nil)
                case .unexpected(let expected, let found):
                    return .failure(
                        .notJSON(position: problem.position, expected: expected, found: found ?? "the end of the data"),
                        retryAfter: nil, underlying: nil)
                }
            }
            do {
                return .success(
                    response.body, try JSONSerialization.jsonObject(with: response.body, options: .fragmentsAllowed))
            } catch {
                return .failure(.decoding("the JSON could not be read"), retryAfter: nil, underlying: error)
            }
        case 404:
            return .failure(.notFound, retryAfter: nil, underlying: nil)
        default:
            // 429 and 5xx are retried (see `isRetryable`), honouring Retry-After.
            return .failure(
                .status(response.status), retryAfter: response.header("Retry-After").flatMap(retryAfter),
                underlying: nil)
        }
    }

    /// An HTML page: by its Content-Type, or by a body that starts with a tag.
    static func isHTML(_ response: HTTPResponse) -> Bool {
        if let type = response.header("Content-Type"), type.lowercased().contains("html") { return true }
        let first = response.body.first {
            ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains($0)
        }
        return first == UInt8(ascii: "<")
    }

    /// `Retry-After` as seconds or as an HTTP date.
    static func retryAfter(_ value: String) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds >= 0 { return .milliseconds(Int(seconds * 1000)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return .milliseconds(max(0, Int(date.timeIntervalSinceNow * 1000)))
    }
}

/// A counting semaphore for async code: at most `limit` operations at once.
private final class Limiter: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state: Locked<State>

    init(_ limit: Int) { state = Locked(State(available: limit)) }

    func run<T: Sendable>(_ operation: @Sendable () async throws -> T) async throws -> T {
        await acquire()
        defer { release() }
        return try await operation()
    }

    private func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let resume = state.withLock { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if resume { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
