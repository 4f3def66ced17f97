@_spi(Engine) import FlowSite
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Serves a built site over HTTP for previewing, the way a plain static host would: folders
/// answer with their `index.html` (a folder asked for without its slash is redirected, so
/// relative links resolve), and anything missing gets the site's own `404.html` with status 404.
///
/// It can serve the site under a subpath (``basePath``) to check a subpath deploy, move to the
/// next free port when its port is taken, and with a ``LiveReload`` channel add the live-reload
/// script to every HTML response (the files themselves are never changed). HTML is sent with
/// `Cache-Control: no-cache`, so a browser always sees the latest build.
public struct SiteServer: Sendable {
    /// The site folder.
    public var root: URL
    /// The address to listen on; 127.0.0.1 keeps the preview on this machine.
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int
    /// The path the site is served under, with a slash at each end: `/`, or `/deep/sub/`.
    public var basePath: String
    /// When the port is taken, how many ports after it to try.
    public var portAttempts: Int
    /// The live-reload channel whose script is added to HTML responses; `nil` for none.
    public var liveReload: LiveReload?
    public var logger: Logger

    public init(
        root: URL, host: String = "127.0.0.1", port: Int = 8000, basePath: String = "/", portAttempts: Int = 1,
        liveReload: LiveReload? = nil, logger: Logger = Logger(label: "holocron.serve")
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
    public static func normalizedBasePath(_ path: String) -> String {
        let inner = path.split(separator: "/", omittingEmptySubsequences: true).joined(separator: "/")
        return inner.isEmpty ? "/" : "/" + inner + "/"
    }

    /// Serves until the task is cancelled or the process gets SIGINT or SIGTERM.
    /// - Parameter onReady: called once with the port the server listens on.
    /// - Throws: ``FlowSiteError`` when the folder holds no site; the server's error when it
    ///   can't listen (for example, every port it may try is taken).
    public func run(onReady: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let index = root.appendingPathComponent("index.html")
        guard FileManager.default.fileExists(atPath: index.path) else {
            throw FlowSiteError(.siteUnreadable(path: root.path, message: "it has no index.html"))
        }
        var candidate = port
        var attempt = 1
        while true {
            do {
                try await makeApplication(port: candidate, onReady: onReady).runService()
                return
            } catch let error as IOError where error.errnoCode == EADDRINUSE && port != 0 && attempt < portAttempts && candidate < 65535 {
                attempt += 1
                candidate += 1
            }
        }
    }

    private func makeApplication(port: Int, onReady: @escaping @Sendable (Int) async -> Void) -> some ApplicationProtocol {
        let notFound = NotFoundPage<BasicRequestContext>(page: root.appendingPathComponent("404.html"))
        let router = Router()
        router.add(middleware: PreviewMiddleware(basePath: basePath, liveReload: liveReload, notFound: notFound))
        router.add(middleware: notFound)
        router.add(middleware: FileMiddleware(root.path, cacheControl: CacheControl([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true, logger: logger))
        var services: [any Service] = []
        if let liveReload {
            // Routes are matched on the path as asked for, base path and all.
            router.get(RouterPath(basePath.dropFirst() + LiveReload.scriptPath)) { _, _ in LiveReload.scriptResponse() }
            router.get(RouterPath(basePath.dropFirst() + LiveReload.eventsPath)) { _, _ in liveReload.eventsResponse() }
            services.append(LiveReloadKeepAlive(channel: liveReload))
        }
        return Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "holocron"),
            services: services,
            onServerRunning: { channel in await onReady(channel.localAddress?.port ?? port) },
            logger: logger
        )
    }
}

/// What makes the file server a preview of a deployed site: the site under its base path, the
/// live-reload script in HTML, and HTML never taken from a browser's cache.
struct PreviewMiddleware<Context: RequestContext>: RouterMiddleware {
    let basePath: String
    let liveReload: LiveReload?
    let notFound: NotFoundPage<Context>

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var request = request
        // A NUL ends a file name where the file server's system calls read it, so
        // `index.html%00.txt` would answer with `index.html`: no file name holds a control byte.
        if Self.isUnservable(request.uri.path) {
            return Response(status: .badRequest, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-cache"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "400 Bad Request: the path holds a control character or a malformed %-escape\n")))
        }
        if basePath != "/" {
            let path = request.uri.path
            // The server's root and the base path without its slash lead to the site.
            if path == "/" || path + "/" == basePath {
                return Response(status: .found, headers: [.location: basePath, .cacheControl: "no-cache"])
            }
            guard path.hasPrefix(basePath) else {
                return try await prepare(notFound.notFoundPage() ?? Response(status: .notFound), for: request)
            }
            var head = request.head
            head.path = "/" + path.dropFirst(basePath.count) + (request.uri.query.map { "?" + $0 } ?? "")
            request = Request(head: head, body: request.body)
        }
        if liveReload != nil {
            // Pages change with every build and carry the build they belong to: never "not modified".
            var head = request.head
            head.headerFields[.ifNoneMatch] = nil
            head.headerFields[.ifModifiedSince] = nil
            head.headerFields[.range] = nil
            request = Request(head: head, body: request.body)
        }
        var response = try await next(request, context)
        if basePath != "/", let location = response.headers[.location], location.hasPrefix("/") {
            response.headers[.location] = String(basePath.dropLast()) + location
        }
        return try await prepare(response, for: request)
    }

    /// Whether `path`, as asked for or with its %-escapes decoded, holds a control character
    /// (C0, DEL or C1), or has a %-escape that does not decode to UTF-8.
    static func isUnservable(_ path: String) -> Bool {
        guard let decoded = path.removingPercentEncoding else { return path.contains("%") }
        func control(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) }
        return path.unicodeScalars.contains(where: control) || decoded.unicodeScalars.contains(where: control)
    }

    /// HTML responses get `Cache-Control: no-cache` and, with live reload, its script.
    private func prepare(_ response: Response, for request: Request) async throws -> Response {
        guard response.headers[.contentType]?.hasPrefix("text/html") == true else { return response }
        var response = response
        response.headers[.cacheControl] = "no-cache"
        guard let liveReload else { return response }
        response.headers[.eTag] = nil
        response.headers[.lastModified] = nil
        guard request.method != .head else {
            response.headers[.contentLength] = nil
            return response
        }
        let collector = CollectingWriter()
        let body = response.body
        try await body.write(collector)
        let html = Self.inject(liveReload.scriptTag(basePath: basePath), into: collector.box.bytes)
        response.headers[.contentLength] = String(html.readableBytes)
        response.body = ResponseBody(byteBuffer: html)
        return response
    }

    /// `html` with `tag` just before `</head>` (or `</body>`, or at the end), byte for byte
    /// otherwise.
    static func inject(_ tag: String, into html: [UInt8]) -> ByteBuffer {
        let at = firstIndex(of: "</head>", in: html) ?? firstIndex(of: "</body>", in: html) ?? html.count
        var buffer = ByteBuffer()
        buffer.reserveCapacity(html.count + tag.utf8.count)
        buffer.writeBytes(html[..<at])
        buffer.writeString(tag)
        buffer.writeBytes(html[at...])
        return buffer
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
}

/// A response body writer that keeps what is written, to rewrite a page before it is sent.
struct CollectingWriter: ResponseBodyWriter {
    final class Box {
        var bytes: [UInt8] = []
    }

    let box = Box()

    mutating func write(_ buffer: ByteBuffer) async throws {
        box.bytes.append(contentsOf: buffer.readableBytesView)
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
}

/// Answers a request nothing else answered with the site's 404 page, as static hosts do.
struct NotFoundPage<Context: RequestContext>: RouterMiddleware {
    let page: URL

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            guard response.status == .notFound else { return response }
            return notFoundPage() ?? response
        } catch let error as any HTTPResponseError where error.status == .notFound {
            guard let response = notFoundPage() else { throw error }
            return response
        }
    }

    func notFoundPage() -> Response? {
        guard let body = try? Data(contentsOf: page) else { return nil }
        return Response(
            status: .notFound,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
