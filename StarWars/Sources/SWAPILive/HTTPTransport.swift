import CLibcurl
import Foundation
import SWAPI

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
/// network and the live value uses the system's libcurl (and so its TLS).
public struct HTTPTransport: Sendable {
    /// GETs `url`, failing when the whole response hasn't arrived within `timeout`. Failures
    /// below HTTP are ``HTTPTransportError``s (other errors are classified by the crawler).
    public var get: @Sendable (_ url: String, _ timeout: Duration) async throws -> HTTPResponse

    public init(get: @escaping @Sendable (_ url: String, _ timeout: Duration) async throws -> HTTPResponse) {
        self.get = get
    }

    /// The largest body the crawler accepts by default (SWAPI pages are a few kilobytes).
    public static let maximumBodySize = 32 * 1024 * 1024

    /// The most redirects one request follows.
    public static let maximumRedirects = 5

    /// A transport over the system's libcurl, loaded when the first request is made. It
    /// follows at most ``maximumRedirects`` redirects, without cycles, and fails a body over
    /// `maximumBodySize` bytes with ``HTTPTransportError/Reason/bodyTooLarge(limit:)``. Each
    /// request waits on a thread of its own, never on the concurrency pool.
    public static func live(maximumBodySize: Int = maximumBodySize) -> HTTPTransport {
        HTTPTransport { url, timeout in
            let deadline = ContinuousClock.now + timeout
            var visited: Set<String> = [url]
            var current = url
            while true {
                let left = deadline - ContinuousClock.now
                guard left > .zero else { throw HTTPTransportError(.timeout) }
                let response = try await Libcurl.get(current, timeout: left, maximumBodySize: maximumBodySize)
                guard [301, 302, 303, 307, 308].contains(response.status), let location = response.header("Location")
                else {
                    return response
                }
                guard let next = URL(string: location, relativeTo: URL(string: current))?.absoluteString else {
                    throw HTTPTransportError(.invalidURL)
                }
                guard visited.insert(next).inserted else { throw HTTPTransportError(.redirectLoop) }
                guard visited.count <= maximumRedirects + 1 else { throw HTTPTransportError(.tooManyRedirects) }
                current = next
            }
        }
    }
}

/// One libcurl request on a thread of its own.
enum Libcurl {
    /// libcurl, loaded once; the reason when it can't be.
    static let loadError: String? = {
        var why = [CChar](repeating: 0, count: 256)
        guard holocron_http_load(&why, why.count) != 0 else { return nil }
        return String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }()

    static func get(_ url: String, timeout: Duration, maximumBodySize: Int) async throws -> HTTPResponse {
        if let loadError { throw HTTPTransportError(.unavailable(loadError)) }
        let flag = Flag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                Thread.detachNewThread {
                    continuation.resume(
                        with: Result {
                            try perform(url, timeout: timeout, maximumBodySize: maximumBodySize, cancel: flag)
                        })
                }
            }
        } onCancel: {
            flag.set()
        }
    }

    /// A cancellation flag the C side reads atomically.
    final class Flag: @unchecked Sendable {
        let pointer = holocron_http_flag_new()!
        func set() { holocron_http_flag_set(pointer) }
        deinit { holocron_http_flag_free(pointer) }
    }

    private static func perform(
        _ url: String, timeout: Duration, maximumBodySize: Int, cancel: Flag
    ) throws -> HTTPResponse {
        let headers = ["Accept: application/json", "User-Agent: holocron"]
        var result = holocron_http_result()
        let milliseconds = max(
            1, Int(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000))
        withArrayOfCStrings(headers) { pointers in
            holocron_http_get(
                url, pointers, CInt(headers.count), milliseconds, maximumBodySize, cancel.pointer, &result)
        }
        defer { holocron_http_result_free(&result) }
        if result.cancelled != 0 { throw CancellationError() }
        if result.body_too_large != 0 { throw HTTPTransportError(.bodyTooLarge(limit: maximumBodySize)) }
        if result.curl_code != 0 {
            let message = withUnsafeBytes(of: result.error) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            throw HTTPTransportError(curlCode: Int(result.curl_code), osError: result.os_errno, message: message)
        }
        let headerText = String(
            decoding: UnsafeRawBufferPointer(start: result.headers, count: result.headers_length), as: UTF8.self)
        return HTTPResponse(
            status: result.status,
            headers: parseHeaders(headerText),
            body: Data(UnsafeRawBufferPointer(start: result.body, count: result.body_length))
        )
    }

    /// The header fields of the last response in `block` (an interim `100 Continue` comes first).
    static func parseHeaders(_ block: String) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        for line in block.split(whereSeparator: \.isNewline) {
            if line.hasPrefix("HTTP/") {
                fields = []
            } else if let colon = line.firstIndex(of: ":") {
                fields.append(
                    (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
            }
        }
        return fields
    }

    private static func withArrayOfCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        let copies = strings.map { strdup($0) }
        defer { copies.forEach { free($0) } }
        return body(copies.map { UnsafePointer($0) })
    }
}
