import Dispatch
import FlowSite
import Foundation
import Logging

/// Serves a built site for previewing as a plain static host would: folders answer with `index.html` (and are
/// redirected to their slash, so relative links resolve), missing paths with the site's `404.html`, status 404.
/// Serves under ``basePath``, moves to a free port, adds ``LiveReload``'s script to HTML responses; no TLS.
struct SiteServer: Sendable {
    /// The site folder.
    var root: URL
    /// The address to listen on; 127.0.0.1 keeps the preview on this machine.
    var host: String
    /// The port; 0 picks a free one.
    var port: Int
    /// The path the site is served under, with a slash at each end: `/`, or `/deep/sub/`.
    var basePath: String
    /// When the port is taken, how many ports after it to try.
    var portAttempts: Int
    /// The live-reload channel whose script is added to HTML responses; `nil` for none.
    var liveReload: LiveReload?
    var logger: Logger

    init(
        root: URL, host: String = "127.0.0.1", port: Int = 8000, basePath: String = "/", portAttempts: Int = 1,
        liveReload: LiveReload? = nil, logger: Logger = Logger(label: "flowsite.serve")
    ) {
        self.root = root
        self.host = host
        self.port = port
        self.basePath = Self.normalizedBasePath(basePath)
        self.portAttempts = max(1, portAttempts)
        self.liveReload = liveReload
        self.logger = logger
    }

    /// `deep/sub`, `/deep/sub` and `/deep/sub/` all mean `/deep/sub/`.
    static func normalizedBasePath(_ path: String) -> String {
        let inner = path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        return inner.isEmpty ? "/" : "/" + inner + "/"
    }

    /// Serves until the task is cancelled or the process gets SIGINT or SIGTERM; `onReady` gets the port.
    /// - Throws: ``FlowSiteError`` when the folder holds no site; why it can't listen when it can't.
    func run(onReady: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let index = root.appendingPathComponent("index.html")
        guard FileManager.default.fileExists(atPath: index.path) else {
            throw FlowSiteError(.siteUnreadable(path: root.path, message: "it has no index.html"))
        }
        let server = try HTTPServer(host: host, port: port, portAttempts: portAttempts) { request in
            respond(to: request)
        }
        server.start()
        await onReady(server.port)
        let keepAlive = liveReload.map { liveReload in
            Task {
                while (try? await Task.sleep(for: .seconds(15))) != nil { liveReload.keepAlive() }
            }
        }
        await ShutdownSignals.wait()
        keepAlive?.cancel()
        // Event streams end with the channel; then no connection outlives the server.
        liveReload?.close()
        await server.stop()
    }

    /// The response to `request`: the file, with the live-reload script in HTML; or the event stream.
    private func respond(to request: HTTPServer.Request) -> HTTPServer.Response {
        switch answer(to: request) {
        case .events:
            guard let liveReload else { return notFound() }
            let (id, events) = liveReload.subscribe()
            return HTTPServer.Response(
                status: 200,
                headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache")],
                stream: HTTPServer.Stream(next: events.next) { liveReload.unsubscribe(id) })
        case .response(var response):
            if response.isHTML, let liveReload {
                response.body = Self.inject(liveReload.scriptTag(basePath: basePath), into: response.body)
            }
            response.headers += [("Cache-Control", "no-cache"), ("Server", "FlowSite preview")]
            return response
        }
    }

    /// What a request gets: a file, a redirect, a refusal, or the live-reload event stream.
    enum Answer {
        case response(HTTPServer.Response)
        case events
    }

    typealias Response = HTTPServer.Response

    func answer(to request: HTTPServer.Request) -> Answer {
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = Response.text(405, "405 Method Not Allowed: a preview serves GET and HEAD\n")
            response.headers.append(("Allow", "GET, HEAD"))
            return .response(response)
        }
        let (path, query) = (request.path, request.query)
        // A NUL ends a file name in system calls (`index.html%00.txt` would serve `index.html`).
        if Self.isUnservable(path) {
            return .response(
                .text(400, "400 Bad Request: the path holds a control character or a malformed %-escape\n"))
        }
        var inSite = path
        if basePath != "/" {
            // The server's root and the base path without its slash lead to the site.
            if path == "/" || path + "/" == basePath { return .response(Self.redirect(302, to: basePath)) }
            guard path.hasPrefix(basePath) else { return .response(notFound()) }
            inSite = "/" + path.dropFirst(basePath.count)
        }
        if liveReload != nil {
            if inSite == "/" + LiveReload.scriptPath {
                return .response(
                    Response(
                        status: 200, headers: [("Content-Type", "text/javascript; charset=utf-8")],
                        body: LiveReload.script))
            }
            if inSite == "/" + LiveReload.eventsPath { return .events }
        }
        guard let decoded = inSite.removingPercentEncoding,
            !decoded.split(separator: "/").contains(where: { $0 == ".." || $0 == "." })
        else { return .response(notFound()) }
        let file = root.appendingPathComponent(String(decoded.dropFirst()))
        var status = stat()
        guard stat(file.path, &status) == 0 else { return .response(notFound()) }
        if status.st_mode & S_IFMT == S_IFDIR {
            guard decoded.hasSuffix("/") else {
                // Relative links resolve against the folder only with its slash.
                let location = String(basePath.dropLast()) + inSite + "/" + (query.map { "?" + $0 } ?? "")
                return .response(Self.redirect(301, to: location))
            }
            return .response(serveFile(file.appendingPathComponent("index.html")) ?? notFound())
        }
        return .response(serveFile(file) ?? notFound())
    }

    /// A regular file's bytes with their type; `nil` when there is none to read.
    private func serveFile(_ file: URL) -> Response? {
        var status = stat()
        guard stat(file.path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            let bytes = FileManager.default.contents(atPath: file.path)
        else { return nil }
        return Response(
            status: 200, headers: [("Content-Type", Self.contentType(of: file.pathExtension))], body: Array(bytes))
    }

    /// The site's own 404 page with status 404, as static hosts answer.
    private func notFound() -> Response {
        guard let page = FileManager.default.contents(atPath: root.appendingPathComponent("404.html").path) else {
            return .text(404, "404 Not Found\n")
        }
        return Response(status: 404, headers: [("Content-Type", "text/html; charset=utf-8")], body: Array(page))
    }

    private static func redirect(_ status: Int, to location: String) -> Response {
        Response(status: status, headers: [("Location", location)])
    }

    /// Whether `path`, raw or %-decoded, holds a control character (C0, DEL, C1) or a %-escape that isn't UTF-8.
    static func isUnservable(_ path: String) -> Bool {
        guard let decoded = path.removingPercentEncoding else { return path.contains("%") }
        func control(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }
        return path.unicodeScalars.contains(where: control) || decoded.unicodeScalars.contains(where: control)
    }

    /// `html` with `tag` just before `</head>` (or `</body>`, or at the end), byte for byte otherwise.
    static func inject(_ tag: String, into html: [UInt8]) -> [UInt8] {
        let at = firstIndex(of: "</head>", in: html) ?? firstIndex(of: "</body>", in: html) ?? html.count
        return Array(html[..<at]) + Array(tag.utf8) + Array(html[at...])
    }

    /// Where an ASCII `needle` first occurs in `bytes`, ignoring ASCII case.
    static func firstIndex(of needle: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(needle.utf8)
        guard bytes.count >= needle.count else { return nil }
        func lower(_ byte: UInt8) -> UInt8 { (65...90).contains(byte) ? byte + 32 : byte }
        outer: for start in 0...(bytes.count - needle.count) {
            for (offset, byte) in needle.enumerated() where lower(bytes[start + offset]) != byte { continue outer }
            return start
        }
        return nil
    }

    /// The Content-Type of a file, by its extension.
    static func contentType(of pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "html", "htm": "text/html; charset=utf-8"
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json; charset=utf-8"
        case "xml": "application/xml; charset=utf-8"
        case "txt", "md": "text/plain; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "webp": "image/webp"
        case "ico": "image/x-icon"
        case "woff2": "font/woff2"
        case "woff": "font/woff"
        case "pdf": "application/pdf"
        default: "application/octet-stream"
        }
    }
}

/// SIGINT and SIGTERM end the server instead of the process, so its runner can clean up and exit 0.
enum ShutdownSignals {
    /// Returns on the first SIGINT or SIGTERM, or when the task is cancelled.
    static func wait() async {
        let (stream, continuation) = AsyncStream<Void>.makeStream()
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield() }
            source.resume()
            return source
        }
        defer { for source in sources { source.cancel() } }
        for await _ in stream { return }
    }
}

extension HTTPServer.Response {
    var isHTML: Bool { header("Content-Type")?.hasPrefix("text/html") == true }
}
