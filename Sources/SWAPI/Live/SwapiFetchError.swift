/// A failure to fetch from a SWAPI server: it names the URL, what happened, and what to do.
public struct SwapiFetchError: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The server answered with an HTTP error status.
        case status(Int)
        /// The server could not be reached or dropped the connection.
        case connection(String)
        /// No complete response arrived in time.
        case timeout
        /// The body was not the JSON expected; the path says where.
        case decoding(String)
        /// The resource does not exist (HTTP 404).
        case notFound
        /// `--offline`, and the cache has no response for the URL.
        case notCached(cache: String)
        /// The API's root document lacks a resource list.
        case notSwapi(String)
    }

    /// The URL that failed.
    public let url: String
    public let reason: Reason
    /// How many attempts were made.
    public let attempts: Int

    public init(url: String, reason: Reason, attempts: Int = 1) {
        self.url = url
        self.reason = reason
        self.attempts = attempts
    }

    public var description: String {
        let tries = attempts > 1 ? " after \(attempts) attempts" : ""
        switch reason {
        case .status(let code):
            return "GET \(url) failed with HTTP \(code)\(tries). Check that --api points at a SWAPI server, try more --retries, or build from the cache with --offline."
        case .connection(let message):
            return "GET \(url) failed\(tries): \(message). Check the URL and your network, try more --retries, or build from the cache with --offline."
        case .timeout:
            return "GET \(url) timed out\(tries). Try a longer --timeout or more --retries, or build from the cache with --offline."
        case .decoding(let detail):
            return "GET \(url) returned data that is not SWAPI's format\(tries): \(detail). Check that --api points at a SWAPI server."
        case .notFound:
            return "GET \(url) answered 404 Not Found. Check that --api points at the API's root, such as https://swapi.dev/api/."
        case .notCached(let cache):
            return "\(url) is not in the cache at \(cache), and --offline forbids the network. Build once without --offline to fill the cache."
        case .notSwapi(let detail):
            return "\(url) is not a SWAPI root document: \(detail). Give the API's root, such as https://swapi.dev/api/."
        }
    }
}
