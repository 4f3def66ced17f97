import Dispatch
import FlowSite
import FlowSiteUtilities
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A small HTTP/1.1 server for the preview and for tests' stand-in servers: a thread per connection reads its
/// requests in turn (keep-alive as the client asks) and answers each with `handler`'s response, called on that
/// thread, so a busy task pool never holds up an answer. Request bodies are read and dropped; no TLS, no chunked
/// request bodies, no pipelining beyond answering in order.
final class HTTPServer: Sendable {
    struct Request: Sendable {
        var method: String
        /// The request target as sent: a path with its query.
        var target: String
        var minorVersion: Int
        var headers: [(name: String, value: String)]

        /// The first value of a header, by its name in any case.
        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        var path: String { String(target.prefix { $0 != "?" }) }
        var query: String? { target.firstIndex(of: "?").map { String(target[target.index(after: $0)...]) } }

        /// HTTP/1.1 keeps the connection unless asked to close it; HTTP/1.0 closes it unless asked to keep it.
        var keepsAlive: Bool {
            let connection = header("Connection")?.lowercased() ?? ""
            return minorVersion >= 1 ? !connection.contains("close") : connection.contains("keep-alive")
        }
    }

    /// Texts sent one after another as `next` returns them (Server-Sent Events), until it returns `nil`; then
    /// `onEnd`. `next` may wait, on the connection's thread.
    struct Stream: Sendable {
        var next: @Sendable () -> String?
        var onEnd: @Sendable () -> Void = {}
    }

    struct Response: Sendable {
        var status: Int
        var headers: [(name: String, value: String)] = []
        var body: [UInt8] = []
        /// When set, the body is this stream instead, and the connection closes after it.
        var stream: Stream?

        static func text(_ status: Int, _ text: String) -> Response {
            Response(status: status, headers: [("Content-Type", "text/plain; charset=utf-8")], body: Array(text.utf8))
        }

        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    /// Why the server could not listen.
    struct ListenError: Error, CustomStringConvertible {
        var host: String
        var port: Int
        var code: Int32
        var description: String {
            let reason = String(cString: strerror(code))
            return "can't listen on \(host):\(port): \(reason) (choose another --port, or 0 for any free one)"
        }
    }

    typealias Handler = @Sendable (Request) -> Response

    /// The port it listens on (the one picked when 0 was asked for).
    let port: Int
    private let listener: Int32
    private let handler: Handler
    /// Written to by `stop()` to wake the accept loop.
    private let wake: (read: Int32, write: Int32)
    private let state = Locked(State())

    private struct State {
        var stopped = false
        var connections: Set<Int32> = []
        var started = false
        var acceptLoopEnded = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// Listens on `host` and `port`, or on the next free port of `portAttempts` when it is taken (never for port 0).
    init(host: String, port: Int, portAttempts: Int = 1, handler: @escaping Handler) throws {
        (listener, self.port) = try Self.openListener(host: host, port: port, attempts: portAttempts)
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            close(listener)
            throw ListenError(host: host, port: self.port, code: errno)
        }
        wake = (ends[0], ends[1])
        self.handler = handler
    }

    /// Starts accepting connections, on a thread of its own.
    func start() {
        state.withLock { $0.started = true }
        Thread.detachNewThread { [self] in acceptLoop() }
    }

    /// Stops accepting, ends idle connections, lets requests in flight finish, and returns once every connection
    /// has ended. A connection streaming events ends when its stream does.
    func stop() async {
        let (first, started, connections) = state.withLock { state in
            defer { state.stopped = true }
            return (!state.stopped, state.started, state.connections)
        }
        guard started else {
            if first { [listener, wake.read, wake.write].forEach { _ = close($0) } }
            return
        }
        if first {
            _ = write(wake.write, [UInt8(1)], 1)
            for socket in connections { shutdown(socket, Int32(SHUT_RD)) }
        }
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if state.connections.isEmpty && state.acceptLoopEnded { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    private static func openListener(host: String, port: Int, attempts: Int) throws -> (Int32, Int) {
        var candidate = port
        var attempt = 1
        while true {
            do {
                return try openListener(host: host, port: candidate)
            } catch let error as ListenError
                where error.code == EADDRINUSE && port != 0 && attempt < attempts && candidate < 65535
            {
                attempt += 1
                candidate += 1
            }
        }
    }

    private static func openListener(host: String, port: Int) throws -> (Int32, Int) {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var found: UnsafeMutablePointer<addrinfo>?
        let name = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        guard getaddrinfo(name, String(port), &hints, &found) == 0, let address = found else {
            throw ListenError(host: host, port: port, code: EADDRNOTAVAIL)
        }
        defer { freeaddrinfo(found) }
        let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, 0)
        guard descriptor >= 0 else { throw ListenError(host: host, port: port, code: errno) }
        var one: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard bind(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0, listen(descriptor, 256) == 0
        else {
            let code = errno
            close(descriptor)
            throw ListenError(host: host, port: port, code: code)
        }
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let actual = withUnsafeMutablePointer(to: &bound) { storage in
            storage.withMemoryRebound(to: sockaddr.self, capacity: 1) { address -> Int in
                guard getsockname(descriptor, address, &length) == 0 else { return port }
                return address.pointee.sa_family == sa_family_t(AF_INET6)
                    ? storage.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                        Int(UInt16(bigEndian: $0.pointee.sin6_port))
                    }
                    : storage.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                        Int(UInt16(bigEndian: $0.pointee.sin_port))
                    }
            }
        }
        return (descriptor, actual)
    }

    private func acceptLoop() {
        var polled = [
            pollfd(fd: listener, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0)
        ]
        while !state.withLock({ $0.stopped }) {
            guard poll(&polled, 2, -1) >= 0 || errno == EINTR else { break }
            guard polled[0].revents & Int16(POLLIN) != 0 else { continue }
            let socket = accept(listener, nil, nil)
            guard socket >= 0 else { continue }
            let admitted = state.withLock { state in
                guard !state.stopped else { return false }
                state.connections.insert(socket)
                return true
            }
            guard admitted else {
                close(socket)
                break
            }
            Thread.detachNewThread { [self] in
                serve(Connection(socket: socket))
                ended(socket)
            }
        }
        close(listener)
        close(wake.read)
        close(wake.write)
        ended(nil)
    }

    /// Forgets a connection (or the accept loop, for `nil`), closes it, and wakes `stop()` when nothing is left.
    private func ended(_ socket: Int32?) {
        if let socket { close(socket) }
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if let socket { state.connections.remove(socket) } else { state.acceptLoopEnded = true }
            guard state.stopped, state.connections.isEmpty, state.acceptLoopEnded else { return [] }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func serve(_ connection: Connection) {
        while let request = connection.readRequest() {
            guard case .success(let request) = request else {
                let refusal = Response.text(400, "400 Bad Request: a malformed request\n")
                connection.sendAll(head(refusal, bodyCount: refusal.body.count, keepsAlive: false) + refusal.body)
                return
            }
            let response = handler(request)
            if let stream = response.stream {
                defer { stream.onEnd() }
                guard connection.sendAll(head(response, bodyCount: nil, keepsAlive: false)) else { return }
                while let text = stream.next(), connection.sendAll(Array(text.utf8)) {}
                return
            }
            let keepsAlive = request.keepsAlive && !state.withLock({ $0.stopped })
            guard connection.sendAll(head(response, bodyCount: response.body.count, keepsAlive: keepsAlive)),
                request.method == "HEAD" || connection.sendAll(response.body), keepsAlive
            else { return }
        }
    }

    private func head(_ response: Response, bodyCount: Int?, keepsAlive: Bool) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(Self.reason(response.status))\r\n"
        for (name, value) in response.headers { text += "\(name): \(value)\r\n" }
        if let bodyCount, response.header("Content-Length") == nil { text += "Content-Length: \(bodyCount)\r\n" }
        text += "Connection: \(keepsAlive ? "keep-alive" : "close")\r\n\r\n"
        return Array(text.utf8)
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 413: "Content Too Large"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}

/// One client's socket: its requests read in turn, with what was read past each kept for the next.
private final class Connection {
    let socket: Int32
    private var buffer: [UInt8] = []
    /// The most a request's head or body may take.
    private static let headLimit = 64 * 1024
    private static let bodyLimit = 1 << 20

    init(socket: Int32) {
        self.socket = socket
        // An idle connection ends after a minute; a write to a gone client fails instead of stalling.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    struct Malformed: Error {}

    /// The next request; `nil` when the client closed the connection (or went quiet) between requests.
    func readRequest() -> Result<HTTPServer.Request, Malformed>? {
        var searched = 0
        var end: Int?
        while end == nil {
            if let found = Self.firstBlankLine(in: buffer, from: max(0, searched - 3)) {
                end = found
            } else {
                searched = buffer.count
                guard buffer.count < Self.headLimit else { return .failure(Malformed()) }
                guard fill() else { return buffer.isEmpty ? nil : .failure(Malformed()) }
                // Not HTTP at all (a TLS handshake, say): refused at once rather than after the idle timeout.
                guard Self.startsLikeARequest(buffer) else { return .failure(Malformed()) }
            }
        }
        let headEnd = end!
        let head = String(decoding: buffer[..<headEnd], as: UTF8.self)
        buffer.removeFirst(headEnd + 4)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."), let minor = Int(requestLine[2].dropFirst(7)),
            !requestLine[0].isEmpty, requestLine[1].hasPrefix("/") || requestLine[1] == "*"
        else { return .failure(Malformed()) }
        var headers: [(name: String, value: String)] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":"), !line.hasPrefix(" "), !line.hasPrefix("\t") else {
                return .failure(Malformed())
            }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        let request = HTTPServer.Request(
            method: String(requestLine[0]), target: String(requestLine[1]), minorVersion: minor, headers: headers)
        if request.header("Transfer-Encoding") != nil { return .failure(Malformed()) }
        guard let length = Int(request.header("Content-Length") ?? "0"), (0...Self.bodyLimit).contains(length) else {
            return .failure(Malformed())
        }
        while buffer.count < length {
            guard fill() else { return nil }
        }
        buffer.removeFirst(length)
        return .success(request)
    }

    /// Reads more into the buffer; false at the end of the stream, on a timeout or an error.
    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = recv(socket, &chunk, chunk.count, 0)
            if count > 0 {
                buffer += chunk[..<count]
                return true
            }
            if count < 0 && errno == EINTR { continue }
            return false
        }
    }

    /// Sends all of `bytes`; false when the client is gone.
    @discardableResult func sendAll(_ bytes: [UInt8]) -> Bool {
        #if canImport(Darwin)
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif
        var sent = 0
        while sent < bytes.count {
            let count = bytes.withUnsafeBytes { send(socket, $0.baseAddress! + sent, bytes.count - sent, flags) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    /// Whether `bytes` can begin a request line: a method of capital letters, then a space.
    private static func startsLikeARequest(_ bytes: [UInt8]) -> Bool {
        let method = bytes.prefix { $0 != 32 }
        return method.count <= 20 && method.allSatisfy { (65...90).contains($0) || $0 == 45 || $0 == 95 }
            && (method.count < bytes.count || bytes.count < 20)
    }

    private static func firstBlankLine(in bytes: [UInt8], from start: Int) -> Int? {
        guard bytes.count >= 4 else { return nil }
        var index = start
        while index + 3 < bytes.count {
            if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index
            }
            index += 1
        }
        return nil
    }
}
