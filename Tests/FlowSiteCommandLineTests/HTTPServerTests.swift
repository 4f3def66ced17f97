import Foundation
import TestSupport
import Testing

@testable import FlowSiteCommandLine

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The preview's HTTP/1.1 server at the byte level, through a plain TCP client: keep-alive, HEAD, refusals of
/// what is not HTTP, and a stop that ends idle connections but lets a request in flight finish.
@Suite struct HTTPServerTests {
    /// A TCP client on 127.0.0.1 that writes bytes and reads what comes back, used from one thread at a time.
    final class Client: @unchecked Sendable {
        let socket: Int32

        init(port: Int) throws {
            guard let socket = Sockets.connect(port: port, timeout: 20) else { throw Refused() }
            self.socket = socket
        }

        struct Refused: Error {}

        deinit { close(socket) }

        func write(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { send(socket, $0.baseAddress, bytes.count, 0) }
        }

        /// Reads until `text` holds `marker` (or the server closes the connection): what was read.
        func read(until marker: String) -> String {
            var text = ""
            var chunk = [UInt8](repeating: 0, count: 4096)
            while !text.contains(marker) {
                let count = recv(socket, &chunk, chunk.count, 0)
                guard count > 0 else { break }
                text += String(decoding: chunk[..<count], as: UTF8.self)
            }
            return text
        }

        /// Reads to the end of the stream: what was read, when the server closed the connection.
        func readToEnd() -> String { read(until: "\u{0}never\u{0}") }
    }

    /// Runs `work`, which blocks on sockets, on a thread of its own rather than on the task pool's few.
    static func blocking<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    static func start(_ handler: @escaping HTTPServer.Handler) throws -> HTTPServer {
        let server = try HTTPServer(host: "127.0.0.1", port: 0, handler: handler)
        server.start()
        return server
    }

    static let hello: HTTPServer.Handler = { request in
        HTTPServer.Response.text(200, "hello \(request.path) \(request.query ?? "-")")
    }

    @Test func twoRequestsShareAConnectionAndHeadSendsNoBody() async throws {
        let server = try Self.start(Self.hello)
        let (first, second) = try await Self.blocking {
            let client = try Client(port: server.port)
            client.write("GET /a?x=1 HTTP/1.1\r\nHost: here\r\n\r\n")
            let first = client.read(until: "hello /a x=1")
            client.write("HEAD /b HTTP/1.1\r\nHost: here\r\nConnection: close\r\n\r\n")
            return (first, client.readToEnd())
        }
        #expect(first.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(first)")
        #expect(first.contains("Content-Length: 12\r\n") && first.contains("Connection: keep-alive\r\n"), "\(first)")
        #expect(second.hasPrefix("HTTP/1.1 200 OK\r\n") && second.contains("Content-Length: 10\r\n"), "\(second)")
        #expect(second.hasSuffix("Connection: close\r\n\r\n"), "HEAD has no body: \(second)")
        await server.stop()
    }

    @Test(arguments: [
        "\u{16}\u{3}\u{1}\u{2}\u{0}\u{1}", // a TLS handshake's first bytes
        "GET /\r\n\r\n", // no version
        "GET / HTTP/1.1\r\n folded: header\r\n\r\n",
        "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
    ])
    func whatIsNotHTTPIsRefusedAtOnceAndClosed(request: String) async throws {
        let server = try Self.start(Self.hello)
        let answer = try await Self.blocking {
            let client = try Client(port: server.port)
            client.write(request)
            return client.readToEnd()
        }
        #expect(answer.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(answer)")
        #expect(answer.contains("Connection: close"), "\(answer)")
        await server.stop()
    }

    @Test func aRequestBodyIsReadAndTheNextRequestAnswered() async throws {
        let server = try Self.start { request in HTTPServer.Response.text(200, "\(request.method) \(request.path)") }
        let answers = try await Self.blocking {
            let client = try Client(port: server.port)
            client.write("POST /form HTTP/1.1\r\nContent-Length: 5\r\n\r\nabcdeGET /next HTTP/1.1\r\n\r\n")
            return client.read(until: "GET /next")
        }
        #expect(answers.contains("POST /form") && answers.contains("GET /next"), "\(answers)")
        await server.stop()
    }

    @Test func stopEndsIdleConnectionsAndLetsARequestInFlightFinish() async throws {
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let server = try Self.start { request in
            if request.path == "/slow" {
                entered.signal()
                release.wait()
            }
            return HTTPServer.Response.text(200, "done \(request.path)")
        }
        let (idle, busy, quick) = try await Self.blocking {
            let idle = try Client(port: server.port)
            idle.write("GET /quick HTTP/1.1\r\n\r\n")
            let quick = idle.read(until: "done /quick")
            let busy = try Client(port: server.port)
            busy.write("GET /slow HTTP/1.1\r\n\r\n")
            entered.wait()
            return (idle, busy, quick)
        }
        #expect(quick.contains("done /quick"))
        let stopped = Task { await server.stop() }
        // The idle connection is closed (so the stop has begun); the busy one is then answered, told that the
        // connection closes, and closed.
        let closed = try await Self.blocking { idle.readToEnd() }
        #expect(closed.isEmpty)
        release.signal()
        let answer = try await Self.blocking { busy.readToEnd() }
        #expect(answer.contains("Connection: close") && answer.hasSuffix("done /slow"), "\(answer)")
        await stopped.value
        #expect(throws: Client.Refused.self) { _ = try Client(port: server.port) }
    }

    @Test func aTakenPortIsNamedInTheError() async throws {
        let first = try HTTPServer(host: "127.0.0.1", port: 0, handler: Self.hello)
        #expect {
            _ = try HTTPServer(host: "127.0.0.1", port: first.port, handler: Self.hello)
        } throws: { error in
            "\(error)".contains("127.0.0.1:\(first.port)") && "\(error)".contains("--port")
        }
        let next = try HTTPServer(host: "127.0.0.1", port: first.port, portAttempts: 5, handler: Self.hello)
        #expect(next.port > first.port && next.port <= first.port + 4)
        await first.stop()
        await next.stop()
    }
}
