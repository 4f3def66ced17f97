import SWAPI
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// One HTTP response, fully read.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of a header, by case-insensitive name.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

/// How the crawler talks HTTP: a struct holding one closure, so tests can stand in for the
/// network and the live value uses AsyncHTTPClient.
public struct HTTPTransport: Sendable {
    /// GETs `url`, failing when the whole response hasn't arrived within `timeout`. Failures
    /// below HTTP are ``HTTPTransportError``s (other errors are classified by the crawler).
    public var get: @Sendable (_ url: String, _ timeout: Duration) async throws -> HTTPResponse

    public init(get: @escaping @Sendable (_ url: String, _ timeout: Duration) async throws -> HTTPResponse) {
        self.get = get
    }

    /// The largest body the crawler accepts by default (SWAPI pages are a few kilobytes).
    public static let maximumBodySize = 32 * 1024 * 1024

    /// A transport over an AsyncHTTPClient client, by default ``crawlerClient``; bodies over
    /// `maximumBodySize` bytes fail with ``HTTPTransportError/Reason/bodyTooLarge(limit:)``.
    public static func asyncHTTPClient(_ client: HTTPClient = crawlerClient, maximumBodySize: Int = maximumBodySize) -> HTTPTransport {
        HTTPTransport { url, timeout in
            var request = HTTPClientRequest(url: url)
            request.headers.add(name: "Accept", value: "application/json")
            request.headers.add(name: "User-Agent", value: "holocron")
            let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
            let deadline = NIODeadline.now() + .nanoseconds(nanoseconds)
            do {
                let response = try await client.execute(request, deadline: deadline)
                let body = try await withDeadline(timeout) {
                    try await response.body.collect(upTo: maximumBodySize)
                }
                return HTTPResponse(
                    status: Int(response.status.code),
                    headers: response.headers.map { ($0.name, $0.value) },
                    body: Data(body.readableBytesView)
                )
            } catch let error as CancellationError {
                throw error
            } catch is NIOTooManyBytesError {
                throw HTTPTransportError(.bodyTooLarge(limit: maximumBodySize))
            } catch {
                throw HTTPTransportError(classifying: error)
            }
        }
    }

    /// The client the crawler uses: like `HTTPClient.shared`, but a connection that cannot be
    /// made fails its request at once instead of being retried inside the client until the
    /// deadline (the crawler decides what is worth another attempt), and at most 5 redirects,
    /// without cycles. It lives as long as the process, like `HTTPClient.shared`.
    public static let crawlerClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}

/// Thrown when an operation outlives its deadline.
struct DeadlineExceeded: Error, CustomStringConvertible {
    var description: String { "the request timed out" }
}

/// Runs `operation`, failing with ``DeadlineExceeded`` if it takes longer than `timeout`.
func withDeadline<T: Sendable>(_ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await operation() }
        group.addTask {
            try await Task.sleep(for: timeout)
            throw DeadlineExceeded()
        }
        defer { group.cancelAll() }
        return try await group.next()!
    }
}
