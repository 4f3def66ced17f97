@_spi(Engine) import FlowSite
import Foundation

/// Everything `holocron serve` does, as a value: builds the site (unless told not to), serves
/// it, and with watched folders rebuilds on every change, keeping the old site on a failure and
/// telling open pages to reload (or to show the failure) over the live-reload channel.
public struct ServeAction: Sendable {
    /// The build that makes the site served; `nil` serves the folder as it is.
    public var build: BuildAction?
    /// The folder served.
    public var root: URL
    public var host: String
    /// The port; when it is taken the next free one after it is used (0 picks any free one).
    public var port: Int
    /// The path the site is served under, such as `/deep/sub/`; `/` for the server's root.
    public var basePath: String
    /// Folders whose changes trigger a rebuild; empty for none (and then no live reload).
    public var watched: [URL]
    /// Poll the watched folders even where the kernel could tell.
    public var forcePolling: Bool
    /// Open the site in the default browser once it is served.
    public var openBrowser: Bool
    /// The text of a failed rebuild, for the terminal and the pages' overlay alike.
    public var describe: @Sendable (any Error) -> String

    public init(
        build: BuildAction?, root: URL, host: String = "127.0.0.1", port: Int = 8000, basePath: String = "/",
        watched: [URL] = [], forcePolling: Bool = false, openBrowser: Bool = false,
        describe: @escaping @Sendable (any Error) -> String = { "\($0)" }
    ) {
        self.build = build
        self.root = root
        self.host = host
        self.port = port
        self.basePath = SiteServer.normalizedBasePath(basePath)
        self.watched = watched
        self.forcePolling = forcePolling
        self.openBrowser = openBrowser
        self.describe = describe
    }

    /// How many ports after a taken one are tried.
    static let portAttempts = 20

    /// What happened, for the command to tell the user.
    public enum Event: Sendable {
        /// A build finished (and, when rebuilt, open pages were told to reload).
        case built(BuildReport)
        /// The server listens; where it can be reached.
        case listening(ServeAddress)
        /// The watched folders are followed this way.
        case watching(FolderWatcher.Method)
        /// A rebuild failed; the previous site is still served, and open pages show `message`.
        case rebuildFailed(message: String)
        /// `openBrowser` was asked for and no browser could be opened.
        case browserNotOpened(String)
    }

    /// Builds, then serves until the task is cancelled or the process gets SIGINT or SIGTERM.
    public func run(events: @escaping @Sendable (Event) async -> Void) async throws {
        var building = build
        // Rebuilds make only the pages an edit reaches: each remembers the last.
        if !watched.isEmpty, building?.session == nil { building?.session = EditSession() }
        if let building { await events(.built(try await building.run())) }
        // The server's own start and stop lines would repeat ours; it speaks up only for problems.
        var logger = (build ?? BuildAction(output: root)).makeLogger()
        logger.logLevel = max(logger.logLevel, .warning)
        let watching = build != nil && !watched.isEmpty
        let liveReload = watching ? LiveReload() : nil
        let server = SiteServer(
            root: root, host: host, port: port, basePath: basePath, portAttempts: Self.portAttempts,
            liveReload: liveReload, logger: logger
        )
        let watch = watching ? FolderWatcher(folders: watched, forcePolling: forcePolling).changes() : nil
        if let watch { await events(.watching(watch.method)) }
        let (build, host, port, basePath, openBrowser, describe) = (building, host, port, basePath, openBrowser, describe)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.run { actual in
                    let address = ServeAddress(host: host, port: actual, requestedPort: port, basePath: basePath)
                    await events(.listening(address))
                    guard openBrowser else { return }
                    do {
                        try BrowserOpener.open(address.local)
                    } catch {
                        await events(.browserNotOpened("\(error)"))
                    }
                }
            }
            if let watch, let build, let liveReload {
                group.addTask {
                    await RebuildLoop.run(changes: watch.changes) { changed in
                        do {
                            build.session?.changedPaths = changed
                            let report = try await build.run()
                            // The new site is in place: pages may reload now.
                            liveReload.rebuilt(stylesheetsOnly: changed.allSatisfy { $0.hasSuffix(".css") })
                            await events(.built(report))
                        } catch {
                            let message = describe(error)
                            liveReload.failed(message)
                            await events(.rebuildFailed(message: message))
                        }
                    }
                }
            }
            // The server ends on Ctrl-C; the watcher goes with it.
            defer { liveReload?.close() }
            try await group.next()
            group.cancelAll()
        }
    }
}

extension ServeAction {
    /// A new private folder for `serve --watch`'s preview: on tmpfs (`/dev/shm`) where there is
    /// one, so a rebuild never waits on the disk's write-back, else in the temporary folder.
    public static func makePreviewFolder() throws -> URL {
        var parents = [FileManager.default.temporaryDirectory]
        var shm = stat()
        if stat("/dev/shm", &shm) == 0, shm.st_mode & S_IFMT == S_IFDIR, access("/dev/shm", W_OK | X_OK) == 0 {
            parents.insert(URL(fileURLWithPath: "/dev/shm"), at: 0)
        }
        var lastError: (any Error)?
        for parent in parents {
            let folder = parent.appendingPathComponent("holocron-preview-\(getpid())-\(UUID().uuidString.prefix(8))")
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                return folder
            } catch {
                lastError = error
            }
        }
        throw FlowSiteError(.fileSystem(path: parents.last!.path, message: "no folder for the preview: \(lastError.map { "\($0)" } ?? "")"))
    }

    /// Removes a folder ``makePreviewFolder()`` made, with the site and its spare in it.
    public static func removePreviewFolder(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }
}
