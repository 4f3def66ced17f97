import FlowSite
import FlowSiteUtilities
import Foundation
import Logging

/// What a site executable's `serve` does: builds the site (unless told not to), serves it, and rebuilds on each
/// change in the watched folders, keeping the old site on failure and telling open pages over live reload.
struct ServeAction: Sendable {
    /// Builds the site, given the paths changed since the last build (`nil` at first); `nil` serves the folder as is.
    var build: (@Sendable (_ changed: Set<String>?) async throws -> BuildReport)?
    /// The folder served.
    var root: URL
    var host = "127.0.0.1"
    /// The port; when it is taken the next free one after it is used (0 picks any free one).
    var port = 8000
    /// The path the site is served under, such as `/deep/sub/`; `/` for the server's root.
    var basePath = "/"
    /// Folders whose changes trigger a rebuild; empty for none (and then no live reload).
    var watched: [URL] = []
    /// Poll the watched folders even where the kernel could tell.
    var forcePolling = false
    /// Open the site in the default browser once it is served.
    var openBrowser = false
    /// The text of a failed rebuild, for the terminal and the pages' overlay alike.
    var describe: @Sendable (any Error) -> String = { "\($0)" }
    /// The server speaks up here only for problems.
    var logger = Logger(label: "flowsite.serve")
    /// Add the live-reload script even with nothing watched: a page reloads when it reconnects to a new server.
    var liveReloads = false
    /// A file whose text, while it exists, open pages show as a failed build (`preview-site`'s compile errors).
    var errorFile: URL?
    /// Stop when standard input closes: the program that starts the server (`preview-site`) holds the other end,
    /// so the server ends with it however it ends, even by a signal it can't catch.
    var stopsWhenInputCloses = false

    /// Shows `file`'s text on open pages whenever it appears or changes, looking every half second until cancelled.
    static func show(_ file: URL, on liveReload: LiveReload) async {
        var shown: Data?
        while !Task.isCancelled {
            let text = FileManager.default.contents(atPath: file.path).flatMap { $0.isEmpty ? nil : $0 }
            if let text, text != shown { liveReload.failed(String(decoding: text, as: UTF8.self)) }
            shown = text
            try? await Task.sleep(for: .milliseconds(500))
        }
    }

    /// Stops the server as SIGTERM does when standard input ends (read on a thread of its own: a read blocks).
    static func stopAtEndOfInput() {
        Thread.detachNewThread {
            var buffer = [UInt8](repeating: 0, count: 512)
            while true {
                let count = read(STDIN_FILENO, &buffer, buffer.count)
                if count == 0 || (count < 0 && errno != EINTR) { break }
            }
            kill(getpid(), SIGTERM)
        }
    }

    /// How many ports after a taken one are tried.
    static let portAttempts = 20

    /// What happened, for the command to tell the user.
    enum Event: Sendable {
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
    func run(events: @escaping @Sendable (Event) async -> Void) async throws {
        if let build { await events(.built(try await build(nil))) }
        var logger = logger
        logger.logLevel = max(logger.logLevel, .warning)
        let watching = build != nil && !watched.isEmpty
        let liveReload = watching || liveReloads ? LiveReload() : nil
        let server = SiteServer(
            root: root, host: host, port: port, basePath: basePath, portAttempts: Self.portAttempts,
            liveReload: liveReload, logger: logger
        )
        let watch = watching ? FolderWatcher(folders: watched, forcePolling: forcePolling).changes() : nil
        if let watch { await events(.watching(watch.method)) }
        let (build, host, port, basePath, openBrowser, describe) = (
            build, host, port, server.basePath, openBrowser, describe
        )
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
            if let errorFile, let liveReload {
                group.addTask { await Self.show(errorFile, on: liveReload) }
            }
            if stopsWhenInputCloses { Self.stopAtEndOfInput() }
            if let watch, let build, let liveReload {
                group.addTask {
                    await RebuildLoop.run(changes: watch.changes) { changed in
                        do {
                            let report = try await build(changed)
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
    /// A new private folder for the preview, on tmpfs (`/dev/shm`) if there is one so rebuilds never wait on disk.
    static func makePreviewFolder() throws -> URL {
        var parents = [FileManager.default.temporaryDirectory]
        var shm = stat()
        if stat("/dev/shm", &shm) == 0, shm.st_mode & S_IFMT == S_IFDIR, access("/dev/shm", W_OK | X_OK) == 0 {
            parents.insert(URL(fileURLWithPath: "/dev/shm"), at: 0)
        }
        var lastError: (any Error)?
        for parent in parents {
            removeAbandonedPreviews(in: parent)
            let folder = parent.appendingPathComponent("flowsite-preview-\(getpid())-\(UUID().uuidString.prefix(8))")
            do {
                try FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
                return folder
            } catch {
                lastError = error
            }
        }
        throw FlowSiteError(
            .fileSystem(
                path: parents.last!.path, message: "no folder for the preview: \(lastError.map { "\($0)" } ?? "")"))
    }

    /// Removes previews of servers that ended without removing them (SIGKILL): folders named for a dead process.
    static func removeAbandonedPreviews(in parent: URL) {
        for name in (try? FileManager.default.contentsOfDirectory(atPath: parent.path)) ?? []
        where name.hasPrefix("flowsite-preview-") {
            guard let pid = Int32(name.dropFirst("flowsite-preview-".count).prefix { $0 != "-" }), pid > 0,
                processHasEnded(pid)
            else { continue }
            try? FileManager.default.removeItem(at: parent.appendingPathComponent(name))
        }
    }

    /// Removes a folder ``makePreviewFolder()`` made, with the site and its spare in it.
    static func removePreviewFolder(_ folder: URL) {
        try? FileManager.default.removeItem(at: folder)
    }
}
