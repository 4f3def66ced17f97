import SWAPI
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Why a request failed below HTTP, sorted by what can be done about it.
///
/// The live transport turns AsyncHTTPClient's and SwiftNIO's errors into these by their types,
/// so the crawler decides what to retry by ``Reason`` and no library's wording (type names,
/// BoringSSL text) reaches a message. The library's error stays in ``underlying``.
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

    /// Sorts an error from AsyncHTTPClient or SwiftNIO by its type.
    public init(classifying error: any Error) {
        self.init(Self.reason(for: error), underlying: error)
    }

    private static func reason(for error: any Error) -> Reason {
        switch error {
        case let error as HTTPTransportError:
            return error.reason
        case is DeadlineExceeded:
            return .timeout
        case let error as HTTPClientError:
            return reason(for: error)
        case let error as NIOConnectionError:
            // Happy Eyeballs tried each address; the worst that can still succeed wins.
            let reasons = error.connectionErrors.map { reason(for: $0.error) }
            if reasons.isEmpty { return error.dnsAError != nil || error.dnsAAAAError != nil ? .hostNotFound : .unrecognized }
            for candidate in [Reason.timeout, .connectionLost, .connectionRefused, .unreachable] where reasons.contains(candidate) {
                return candidate
            }
            return reasons[0]
        case let error as IOError:
            switch error.errnoCode {
            case ECONNREFUSED: return .connectionRefused
            case ECONNRESET, ECONNABORTED, EPIPE: return .connectionLost
            case ETIMEDOUT: return .timeout
            case ENETUNREACH, EHOSTUNREACH, ENETDOWN: return .unreachable
            default: return .unrecognized
            }
        case is SocketAddressError.UnknownHost:
            return .hostNotFound
        case let error as SocketAddressError:
            return error == .unsupported ? .hostNotFound : .invalidURL
        case let error as ChannelError:
            switch error {
            case .connectTimeout: return .timeout
            case .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed, .eof: return .connectionLost
            default: return .unrecognized
            }
        case let error as NIOSSLError:
            return error == .uncleanShutdown ? .connectionLost : .tls
        case is NIOSSLExtraError, is BoringSSLError:
            return .tls
        case is NIOSSLCloseTimedOutError:
            return .connectionLost
        case is HTTPParserError:
            return .invalidResponse
        default:
            return .unrecognized
        }
    }

    private static func reason(for error: HTTPClientError) -> Reason {
        switch error {
        case .deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout,
            .getConnectionFromPoolTimeout, .socksHandshakeTimeout, .httpProxyHandshakeTimeout:
            return .timeout
        case .remoteConnectionClosed, .bodyLengthMismatch:
            return .connectionLost
        case .redirectCycleDetected:
            return .redirectLoop
        case .redirectLimitReached:
            return .tooManyRedirects
        case .invalidURL, .emptyHost, .emptyScheme:
            return .invalidURL
        default:
            return .unrecognized
        }
    }
}
