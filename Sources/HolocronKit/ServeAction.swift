import FlowSite
import Foundation

/// Everything `holocron serve` does, as a value: builds the site (unless told not to), serves
/// it, and with watched folders rebuilds on every change, keeping the old site on a failure.
public struct ServeAction: Sendable {
    /// The build that makes the site served; `nil` serves the folder as it is.
    public var build: BuildAction?
    /// The folder served.
    public var root: URL
    public var host: String
    public var port: Int
    /// Folders whose changes trigger a rebuild; empty for none.
    public var watched: [URL]

    public init(build: BuildAction?, root: URL, host: String = "127.0.0.1", port: Int = 8000, watched: [URL] = []) {
        self.build = build
        self.root = root
        self.host = host
        self.port = port
        self.watched = watched
    }

    /// What happened, for the command to tell the user.
    public enum Event: Sendable {
        /// A build finished.
        case built(BuildReport)
        /// The server listens on this port.
        case listening(port: Int)
        /// A rebuild failed; the previous site is still served.
        case rebuildFailed(any Error)
    }

    /// Builds, then serves until the task is cancelled or the process gets SIGINT or SIGTERM.
    public func run(events: @escaping @Sendable (Event) async -> Void) async throws {
        if let build { await events(.built(try await build.run())) }
        // The server's own start and stop lines would repeat ours; it speaks up only for problems.
        var logger = (build ?? BuildAction(output: root)).makeLogger()
        logger.logLevel = max(logger.logLevel, .warning)
        let server = SiteServer(root: root, host: host, port: port, logger: logger)
        let watcher = watched.isEmpty ? nil : FolderWatcher(folders: watched)
        let build = build
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                try await server.run { port in await events(.listening(port: port)) }
            }
            if let watcher, let build {
                group.addTask {
                    await watcher.watch {
                        do {
                            await events(.built(try await build.run()))
                        } catch {
                            await events(.rebuildFailed(error))
                        }
                    }
                }
            }
            // The server ends on Ctrl-C; the watcher goes with it.
            try await group.next()
            group.cancelAll()
        }
    }
}
