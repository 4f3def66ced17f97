import FlowSite
import Foundation
import Hummingbird
import Logging

/// Serves a built site over HTTP for previewing, the way a plain static host would: folders
/// answer with their `index.html` (a folder asked for without its slash is redirected, so
/// relative links resolve), and anything missing gets the site's own `404.html` with status 404.
public struct SiteServer: Sendable {
    /// The site folder.
    public var root: URL
    /// The address to listen on; 127.0.0.1 keeps the preview on this machine.
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int
    public var logger: Logger

    public init(root: URL, host: String = "127.0.0.1", port: Int = 8000, logger: Logger = Logger(label: "holocron.serve")) {
        self.root = root
        self.host = host
        self.port = port
        self.logger = logger
    }

    /// Serves until the task is cancelled or the process gets SIGINT or SIGTERM.
    /// - Parameter onReady: called once with the port the server listens on.
    /// - Throws: ``FlowSiteError`` when the folder holds no site; the server's error when it
    ///   can't listen (for example, the port is taken).
    public func run(onReady: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let index = root.appendingPathComponent("index.html")
        guard FileManager.default.fileExists(atPath: index.path) else {
            throw FlowSiteError(.siteUnreadable(path: root.path, message: "it has no index.html"))
        }
        let router = Router()
        router.add(middleware: NotFoundPage(page: root.appendingPathComponent("404.html")))
        router.add(middleware: FileMiddleware(root.path, cacheControl: CacheControl([(MediaType(type: .any), [.noCache])]), searchForIndexHtml: true, logger: logger))
        let fallbackPort = port
        let app = Application(
            router: router,
            configuration: .init(address: .hostname(host, port: port), serverName: "holocron"),
            onServerRunning: { channel in await onReady(channel.localAddress?.port ?? fallbackPort) },
            logger: logger
        )
        try await app.runService()
    }
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

    private func notFoundPage() -> Response? {
        guard let body = try? Data(contentsOf: page) else { return nil }
        return Response(
            status: .notFound,
            headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body))
        )
    }
}
