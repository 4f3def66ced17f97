import Foundation
import SWAPI

/// Why a request failed below HTTP, sorted by what can be done about it.
///
/// The live transport turns libcurl's error codes into these, so the crawler decides what to
/// retry by ``Reason`` and no library's wording reaches a message. libcurl's message stays in
/// ``underlying``.
public struct HTTPTransportError: Error, Sendable {
    public enum Reason: Sendable, Equatable {
        /// No answer in time: connecting, or reading.
        case timeout
        /// The connection was reset or closed before the response was complete.
        case connectionLost
        /// Nothing listens at the host and port.
        case connectionRefused
        /// The host name could not be resolved.
        case hostNotFound
        /// The network has no route to the host.
        case unreachable
        /// The TLS handshake failed: a plain-HTTP port, or a certificate that is not trusted.
        case tls
        /// The answer is not HTTP.
        case invalidResponse
        /// Redirects lead back to a URL already visited.
        case redirectLoop
        /// Redirects go on past the limit.
        case tooManyRedirects
        /// The body is larger than `limit` bytes.
        case bodyTooLarge(limit: Int)
        /// The URL cannot be requested (no host, or a scheme other than http and https).
        case invalidURL
        /// The live transport cannot work here: the system's libcurl is missing (the reason).
        case unavailable(String)
        /// An error the transport does not know; see ``HTTPTransportError/underlying``.
        case unrecognized
    }

    public let reason: Reason
    /// The library's error, for debugging; never shown as it is.
    public let underlying: (any Error)?

    public init(_ reason: Reason, underlying: (any Error)? = nil) {
        self.reason = reason
        self.underlying = underlying
    }

    /// Sorts any error the transport let through: its own, a deadline, or one it does not know.
    public init(classifying error: any Error) {
        self.init((error as? HTTPTransportError)?.reason ?? .unrecognized, underlying: error)
    }

    /// Sorts a failed libcurl request by its CURLcode and, for a failed connection, the
    /// system's error. libcurl's message stays in ``underlying``.
    init(curlCode: Int, osError: CInt, message: String) {
        self.init(
            Self.reason(curlCode: curlCode, osError: osError), underlying: CurlError(code: curlCode, message: message))
    }

    private static func reason(curlCode: Int, osError: CInt) -> Reason {
        switch curlCode {
        case 1, 3: return .invalidURL // unsupported protocol, malformed URL
        case 5, 6: return .hostNotFound // proxy or host not resolved
        case 7: // could not connect
            switch osError {
            case ECONNREFUSED: return .connectionRefused
            case ENETUNREACH, EHOSTUNREACH, ENETDOWN: return .unreachable
            case ETIMEDOUT: return .timeout
            default: return .connectionRefused
            }
        case 8: return .invalidResponse // weird server reply
        case 18, 52, 55, 56: return .connectionLost // partial file, empty reply, send or receive error
        case 28: return .timeout
        case 35, 51, 53, 54, 58, 59, 60, 64, 66, 77, 80, 82, 83, 90, 91: return .tls
        case 47: return .tooManyRedirects
        default: return .unrecognized
        }
    }
}

/// libcurl's own account of a failure, for debugging; never shown as it is.
struct CurlError: Error, CustomStringConvertible {
    let code: Int
    let message: String
    var description: String { "curl error \(code): \(message)" }
}
