import SWAPI

/// A failure to fetch from a SWAPI server: it names the URL, what happened in the user's words,
/// and what to do.
public struct SwapiFetchError: Error, Sendable, CustomStringConvertible {
    public enum Reason: Sendable, Equatable {
        /// The server answered with an HTTP error status.
        case status(Int)
        /// The request failed below HTTP: no answer in time, a lost or refused connection, TLS,
        /// redirects, a body too large, a URL that can't be requested. Classified once, by the
        /// transport (see ``HTTPTransportError``).
        case transport(HTTPTransportError.Reason)
        /// The body stops before its JSON is complete (`bytes` arrived).
        case incompleteBody(bytes: Int)
        /// The server answered 2xx with an HTML page.
        case htmlPage
        /// The body is not UTF-8 at `position`.
        case notUTF8(position: TextPosition)
        /// The body is not JSON: at `position`, `expected` was expected and `found` was there.
        case notJSON(position: TextPosition, expected: String, found: String)
        /// The body was not the JSON expected; the path says where.
        case decoding(String)
        /// The resource does not exist (HTTP 404).
        case notFound
        /// `--offline`, and the cache has no response for the URL.
        case notCached(cache: String)
        /// The API's root document lacks a resource list.
        case notSwapi(String)
        /// A list's `next` links go on after `pages` pages, more than its `count` needs.
        case endlessList(kind: ResourceKind, count: Int, pages: Int)
        /// The crawl needs more than `limit` requests.
        case requestLimit(Int)
        /// The response at the URL links (in `field`) to `link`, which is not on `apiHost`.
        case foreignLink(field: String, link: String, apiHost: String)
    }

    /// The URL that failed.
    public let url: String
    public let reason: Reason
    /// How many attempts were made.
    public let attempts: Int
    /// The error underneath, such as the HTTP library's, for debugging; never in the description.
    public let underlying: (any Error)?

    public init(url: String, reason: Reason, attempts: Int = 1, underlying: (any Error)? = nil) {
        self.url = url
        self.reason = reason
        self.attempts = attempts
        self.underlying = underlying
    }

    /// Whether another attempt may succeed: timeouts, lost connections, bodies cut short,
    /// 429 and 5xx. Everything else fails at once.
    public var isRetryable: Bool {
        switch reason {
        case .transport(.timeout), .transport(.connectionLost), .incompleteBody: true
        case .status(let code): code == 429 || (500..<600).contains(code)
        default: false
        }
    }

    public var description: String {
        let tries = attempts > 1 ? " after \(attempts) attempts" : ""
        let offline = "or build from the cache with --offline"
        switch reason {
        case .status(let code):
            return
                """
                GET \(url) failed with HTTP \(code)\(tries). Check that --api points at a SWAPI server, \
                try more --retries, \(offline).
                """
        case .transport(let transport):
            return describe(transport, tries: tries, offline: offline)
        case .incompleteBody(let bytes):
            return
                """
                GET \(url) returned a body that stops before its JSON is complete (\(bytes) bytes)\(tries). \
                Try more --retries, \(offline).
                """
        case .htmlPage:
            return
                """
                GET \(url) returned an HTML page, not JSON. Check that --api is the API's root, \
                such as https://swapi.dev/api/, and not a web page (a network sign-in page does this too).
                """
        case .notUTF8(let position):
            return
                """
                GET \(url) returned a body that is not valid UTF-8 at \(position). \
                Check that --api points at a SWAPI server.
                """
        case .notJSON(let position, let expected, let found):
            return
                """
                GET \(url) returned a body that is not valid JSON at \(position): expected \(expected), \
                found \(found). Check that --api points at a SWAPI server.
                """
        case .decoding(let detail):
            return
                """
                GET \(url) returned data that is not SWAPI's format\(tries): \(detail). \
                Check that --api points at a SWAPI server.
                """
        case .notFound:
            return
                """
                GET \(url) answered 404 Not Found. Check that --api points at the API's root, \
                such as https://swapi.dev/api/.
                """
        case .notCached(let cache):
            return
                """
                \(url) is not in the cache at \(cache), and --offline forbids the network. \
                Build once without --offline to fill the cache.
                """
        case .notSwapi(let detail):
            return
                "\(url) is not a SWAPI root document: \(detail). Give the API's root, such as https://swapi.dev/api/."
        case .endlessList(let kind, let count, let pages):
            return
                """
                GET \(url) stopped: the \(kind.rawValue) list announced \(count) resources, \
                but its 'next' links still go on after \(pages) pages, more than those need. \
                The server's paging is broken; check --api, or build from a snapshot with --data.
                """
        case .requestLimit(let limit):
            return
                """
                GET \(url) stopped: the crawl reached the limit of \(limit) requests without finishing. \
                If the API really is that large, raise --max-requests; otherwise its links never end, so check --api.
                """
        case .foreignLink(let field, let link, let host):
            return
                """
                GET \(url) returned a '\(field)' link to \(link), which is not on the host of --api (\(host)); \
                holocron fetches only from that host. Give --api on the host the server names in its links.
                """
        }
    }

    /// The sentence for a failure below HTTP: what happened and what to try.
    private func describe(_ transport: HTTPTransportError.Reason, tries: String, offline: String) -> String {
        switch transport {
        case .timeout:
            "GET \(url) timed out\(tries). Try a longer --timeout or more --retries, \(offline)."
        case .connectionLost:
            """
            GET \(url) failed\(tries): the server closed the connection before the response was complete. \
            Try more --retries, \(offline).
            """
        case .connectionRefused:
            """
            GET \(url) failed: the connection was refused, so nothing is listening there. \
            Check that the server is running and that --api names the right host and port, \(offline).
            """
        case .hostNotFound:
            """
            GET \(url) failed: the host name could not be found. \
            Check the spelling of --api and your network connection, \(offline).
            """
        case .unreachable:
            "GET \(url) failed: the network cannot reach the host. Check your network connection, \(offline)."
        case .tls:
            """
            GET \(url) failed: the TLS handshake did not succeed. If the server speaks plain HTTP, \
            write --api with http://; otherwise its certificate is not trusted.
            """
        case .invalidResponse:
            "GET \(url) failed: the answer is not HTTP. Check that --api names an HTTP server's host and port."
        case .redirectLoop:
            """
            GET \(url) failed: its redirects lead in a circle. \
            Check --api in a browser; give the URL the redirects should end at.
            """
        case .tooManyRedirects:
            "GET \(url) failed: it redirects more than 5 times. Give --api as the URL the redirects end at."
        case .bodyTooLarge(let limit):
            """
            GET \(url) returned more than \(Self.size(limit)), far more than any SWAPI page. \
            Check that --api points at a SWAPI server.
            """
        case .invalidURL:
            "GET \(url) failed: it is not an http(s) URL with a host. Check --api and the links the server returns."
        case .unavailable(let why):
            """
            GET \(url) was not sent: \(why). holocron fetches with the system's libcurl; \
            install it (Debian: apt-get install libcurl4), or build from a snapshot with --data.
            """
        case .unrecognized:
            """
            GET \(url) failed\(tries) for a reason holocron does not recognise. Check the URL and your network, \
            try again, \(offline).
            """
        }
    }

    /// "32 MB", "1000 bytes".
    private static func size(_ bytes: Int) -> String {
        bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0 ? "\(bytes / (1024 * 1024)) MB" : "\(bytes) bytes"
    }
}

extension SwapiFetchError.Reason {
    /// A few words for a progress line: "HTTP 503", "timed out".
    var summary: String {
        switch self {
        case .status(let code): "HTTP \(code)"
        case .transport(let transport): transport.summary
        case .incompleteBody(let bytes): "the body stopped short (\(bytes) bytes)"
        case .htmlPage: "an HTML page"
        case .notUTF8: "not UTF-8"
        case .notJSON: "not JSON"
        case .decoding(let detail): detail
        case .notFound: "HTTP 404"
        case .notCached: "not cached"
        case .notSwapi(let detail): detail
        case .endlessList: "endless list"
        case .requestLimit: "request limit reached"
        case .foreignLink: "a link to another host"
        }
    }
}

extension HTTPTransportError.Reason {
    /// A few words for a progress line: "timed out", "connection refused".
    var summary: String {
        switch self {
        case .timeout: "timed out"
        case .connectionLost: "the connection was lost"
        case .connectionRefused: "connection refused"
        case .hostNotFound: "host not found"
        case .unreachable: "host unreachable"
        case .tls: "TLS handshake failed"
        case .invalidResponse: "not HTTP"
        case .redirectLoop: "redirect loop"
        case .tooManyRedirects: "too many redirects"
        case .bodyTooLarge: "body too large"
        case .invalidURL: "not an http(s) URL"
        case .unavailable: "libcurl missing"
        case .unrecognized: "an unrecognised error"
        }
    }
}
