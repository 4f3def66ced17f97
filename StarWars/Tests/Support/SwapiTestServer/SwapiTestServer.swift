import FlowSite
import Foundation
import SWAPI

// The preview's HTTP server, internal to the command-line library: tests build with testing enabled.
@testable import FlowSiteCommandLine

/// A SWAPI-format server on 127.0.0.1 (a free port) for tests: the root document, paginated
/// lists (`?page=N` with `next`/`previous` pointing back at itself, or plain arrays), single
/// resources, 404 for unknown ids, and faults injected per path.
public final class SwapiTestServer: Sendable {
    /// Something to go wrong once, the next time a path is requested.
    public enum Fault: Sendable, Equatable {
        /// Answer with this HTTP status.
        case status(Int)
        /// Answer 429 with `Retry-After: seconds`.
        case tooManyRequests(retryAfter: Int)
        /// Send only the first half of the body.
        case cutBody
        /// Wait this long before answering.
        case delay(Duration)
        /// Answer 200 with an HTML page, as a captive portal or a misconfigured proxy does.
        case html
        /// Answer 302 with `Location: location` (a path or a URL).
        case redirect(to: String)
        /// Answer the page as usual, but with this `next` link.
        case next(String)
    }

    /// The API root, such as `http://127.0.0.1:53127/api/`.
    public let baseURL: String
    private let state: Locked<State>
    private let running: Locked<HTTPServer?>

    struct State {
        var archive: SwapiArchive
        var plainArrays: Bool
        var pageSize: Int
        var unlisted: [ResourceKind: Set<Int>]
        var runaway: [ResourceKind: Int]
        var faults: [String: [Fault]] = [:]
        var requests: [String: Int] = [:]
    }

    private init(baseURL: String, state: State) {
        self.baseURL = baseURL
        self.state = Locked(state)
        self.running = Locked(nil)
    }

    /// Starts a server whose data is `archive(baseURL)`, so resource URLs point at the server.
    /// `unlisted` resources are left out of the lists but served by id, like a relation that
    /// points outside what the lists return. A `runaway` list keeps announcing its true count
    /// but its `next` links go on, page after empty page, up to the page given.
    public static func start(
        plainArrays: Bool = false, pageSize: Int = 10, unlisted: [ResourceKind: Set<Int>] = [:],
        runaway: [ResourceKind: Int] = [:],
        archive: @escaping @Sendable (String) -> SwapiArchive
    ) async throws -> SwapiTestServer {
        let box = Locked<SwapiTestServer?>(nil)
        let http = try HTTPServer(host: "127.0.0.1", port: 0) { request in
            guard let server = box.withLock({ $0 }) else { return HTTPServer.Response(status: 503) }
            guard request.method == "GET" || request.method == "HEAD" else { return HTTPServer.Response(status: 405) }
            return server.respond(path: request.path, query: request.query ?? "")
        }
        let base = "http://127.0.0.1:\(http.port)/api/"
        let server = SwapiTestServer(
            baseURL: base,
            state: State(
                archive: archive(base), plainArrays: plainArrays, pageSize: pageSize, unlisted: unlisted,
                runaway: runaway))
        server.running.withLock { $0 = http }
        box.withLock { $0 = server }
        http.start()
        return server
    }

    /// Stops the server: later connections are refused, requests in flight finish.
    public func stop() async {
        let running = self.running.withLock { running in
            defer { running = nil }
            return running
        }
        await running?.stop()
    }

    /// Makes the next request for `path` (such as `/api/people/?page=2` or `/api/films/1/`)
    /// fail with `fault`; several faults for one path happen in order, one per request.
    public func inject(_ fault: Fault, at path: String) {
        state.withLock { $0.faults[path, default: []].append(fault) }
    }

    /// Requests served so far, faults included.
    public var requestCount: Int { state.withLock { $0.requests.values.reduce(0, +) } }

    /// Requests for one path so far.
    public func requests(at path: String) -> Int { state.withLock { $0.requests[path] ?? 0 } }

    /// Every list-page and resource path of the data, for injecting faults everywhere.
    public var paths: [String] {
        state.withLock { state in
            var paths = ["/api/"]
            for kind in ResourceKind.allCases {
                let count = state.archive.count(of: kind) - (state.unlisted[kind]?.count ?? 0)
                let pages = state.plainArrays ? 1 : max(1, (count + state.pageSize - 1) / state.pageSize)
                paths.append("/api/\(kind.rawValue)/")
                if !state.plainArrays {
                    paths += (2...max(2, pages)).prefix(pages - 1).map { "/api/\(kind.rawValue)/?page=\($0)" }
                }
            }
            return paths
        }
    }

    private func respond(path: String, query: String) -> HTTPServer.Response {
        let key = query.isEmpty ? path : "\(path)?\(query)"
        let (fault, body) = state.withLock { state -> (Fault?, (Int, String)) in
            state.requests[key, default: 0] += 1
            var fault: Fault?
            if var queue = state.faults[key], !queue.isEmpty {
                fault = queue.removeFirst()
                state.faults[key] = queue
            }
            var next: String?
            if case .next(let link)? = fault { next = link }
            return (fault, Self.body(path: path, query: query, state: state, base: baseURL, next: next))
        }
        let json = [(name: "Content-Type", value: "application/json")]
        switch fault {
        case .status(let code)?:
            return HTTPServer.Response(status: code, headers: json, body: Array(#"{"detail":"injected"}"#.utf8))
        case .tooManyRequests(let seconds)?:
            return HTTPServer.Response(
                status: 429, headers: json + [("Retry-After", "\(seconds)")],
                body: Array(#"{"detail":"slow down"}"#.utf8))
        case .cutBody?:
            return HTTPServer.Response(
                status: body.0, headers: json, body: Array(body.1.utf8.prefix(body.1.utf8.count / 2)))
        case .delay(let duration)?:
            // On the connection's own thread, as a slow server would.
            let (seconds, attoseconds) = duration.components
            Thread.sleep(forTimeInterval: Double(seconds) + Double(attoseconds) / 1e18)
        case .html?:
            let page =
                """
                <!DOCTYPE html>\n<html><head><title>Sign in</title></head>\n\
                <body><p>Sign in to the network.</p></body></html>\n
                """
            return HTTPServer.Response(
                status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(page.utf8))
        case .redirect(let location)?:
            return HTTPServer.Response(status: 302, headers: [("Location", location)])
        case .next?, nil:
            break
        }
        return HTTPServer.Response(status: body.0, headers: json, body: Array(body.1.utf8))
    }

    private static func body(
        path: String, query: String, state: State, base: String, next nextOverride: String?
    ) -> (Int, String) {
        let parts = path.split(separator: "/").map(String.init)
        guard parts.first == "api" else { return (404, #"{"detail":"Not found"}"#) }
        if parts.count == 1 {
            let root = Dictionary(
                uniqueKeysWithValues: ResourceKind.allCases.map { ($0.rawValue, "\(base)\($0.rawValue)/") })
            return (200, encode(root))
        }
        guard let kind = ResourceKind(rawValue: parts[1]) else { return (404, #"{"detail":"Not found"}"#) }
        let resources = state.archive.resources(of: kind)
        if parts.count == 3 {
            guard let id = Int(parts[2]), let resource = resources.first(where: { $0.id == id }) else {
                return (404, #"{"detail":"Not found"}"#)
            }
            return (200, encodeResource(resource))
        }
        let hidden = state.unlisted[kind] ?? []
        let objects = resources.filter { !hidden.contains($0.id) }.map(encodeResource)
        if state.plainArrays { return (200, "[" + objects.joined(separator: ",") + "]") }
        let page =
            query.split(separator: "&").compactMap { pair -> Int? in
                let kv = pair.split(separator: "=")
                return kv.count == 2 && kv[0] == "page" ? Int(kv[1]) : nil
            }.first ?? 1
        let realPages = max(1, (objects.count + state.pageSize - 1) / state.pageSize)
        let pages = max(realPages, state.runaway[kind] ?? 0)
        guard (1...pages).contains(page) else { return (404, #"{"detail":"Not found"}"#) }
        let slice =
            page <= realPages ? objects[((page - 1) * state.pageSize)..<min(objects.count, page * state.pageSize)] : []
        var next = page < pages ? "\"\(base)\(kind.rawValue)/?page=\(page + 1)\"" : "null"
        if let nextOverride { next = "\"\(nextOverride)\"" }
        let previous = page > 1 ? "\"\(base)\(kind.rawValue)/?page=\(page - 1)\"" : "null"
        return (
            200,
            #"""
            {"count":\#(objects.count),"next":\#(next),"previous":\#(previous),\#
            "results":[\#(slice.joined(separator: ","))]}
            """#
        )
    }

    private static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("null".utf8), as: UTF8.self)
    }

    private static func encodeResource(_ resource: any SwapiResource) -> String {
        encode(AnyResource(resource))
    }

    private struct AnyResource: Encodable {
        let resource: any SwapiResource
        init(_ resource: any SwapiResource) { self.resource = resource }
        func encode(to encoder: any Encoder) throws { try resource.encode(to: encoder) }
    }
}
