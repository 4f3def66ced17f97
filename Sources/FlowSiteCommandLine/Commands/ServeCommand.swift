import ArgumentParser
import FlowSite
import Foundation
import Logging

/// `serve`: builds the site and serves it locally; with `--watch`, rebuilds on change and open pages reload.
struct ServeCommand<App: SiteApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "serve",
            abstract: "Build the site and serve it at http://127.0.0.1:8000/ for previewing; Ctrl-C stops.",
            discussion: """
                The server behaves like a plain static host: folders answer with their index.html \
                and missing pages get the site's 404.html. With --watch it rebuilds when a file in \
                the --templates folder, the app's data or a --watch-folder changes, and open \
                pages reload by themselves; a failed rebuild keeps the previous site and shows the \
                error on the pages. It is for previews, not production. (For edits to the app's \
                code, `swift package preview-site` rebuilds the executable and restarts the server.)
                """
        )
    }

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            """
            The folder to build the site into and serve (default: a preview folder, on tmpfs where there is one, \
            removed when serve stops).
            """,
            valueName: "dir"))
    var output: String?

    @OptionGroup var site: SiteOptions

    @OptionGroup(title: "App")
    var app: App.Options

    @Option(
        help: ArgumentHelp(
            """
            With --watch, another folder whose changes change the site (a data folder the app reads); repeat for \
            more.
            """,
            valueName: "dir"))
    var watchFolder: [String] = []

    @OptionGroup var listening: PreviewOptions

    @Flag(help: "Rebuild when a watched file changes, and reload open pages.")
    var watch = false

    @Flag(help: "Serve the --output folder as it is, without building it first.")
    var noBuild = false

    @Flag(
        help: """
            Add the live-reload script to pages even without --watch: a page reloads when it reconnects to a new \
            server.
            """
    )
    var liveReload = false

    @Option(
        help: ArgumentHelp(
            "A file whose text, while it is there, open pages show as a failed build.", valueName: "file"))
    var errorFile: String?

    @Flag(help: "Stop when standard input closes (for a program that starts serve and holds its input open).")
    var stopWhenInputCloses = false

    @Flag(help: "Replace the output folder even when a build did not make it.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    /// The folders whose changes change the site.
    func watchedFolders(of app: App) -> [URL] {
        ([site.templates].compactMap { $0 } + watchFolder).map { URL(fileURLWithPath: $0) }
            + app.watchedFolders(output: URL(fileURLWithPath: output ?? App.commandLine.defaultOutput ?? "site"))
    }

    func validate() throws {
        if noBuild && output == nil {
            throw ValidationError("--no-build serves a folder as it is: give it with --output.")
        }
        if watch && noBuild { throw ValidationError("--watch rebuilds the site; it can't go with --no-build.") }
    }

    func run() async throws {
        let app = try App(options: app)
        let watched = watchedFolders(of: app)
        if watch && watched.isEmpty {
            throw ValidationError(
                """
                --watch follows the --templates folder, the app's data folders and each --watch-folder; give at \
                least one of them.
                """
            )
        }
        let preview = output == nil ? try ServeAction.makePreviewFolder() : nil
        defer { if let preview { ServeAction.removePreviewFolder(preview) } }
        let folder = preview?.appendingPathComponent("site") ?? URL(fileURLWithPath: output ?? "site")
        let build = site.action(app: app, output: folder.path, force: force, quiet: quiet)
        let action = ServeAction(
            build: noBuild ? nil : build.rebuilds(),
            root: folder, host: listening.host, port: listening.port, basePath: listening.basePath,
            watched: watch ? watched : [], forcePolling: listening.poll, openBrowser: listening.open,
            describe: { error in (error as? FlowSiteError).map(CommandLineMessage.text(for:)) ?? "\(error)" },
            logger: build.logger, liveReloads: liveReload || errorFile != nil,
            errorFile: errorFile.map { URL(fileURLWithPath: $0) }, stopsWhenInputCloses: stopWhenInputCloses
        )
        let served = output == nil ? "a preview in memory" : folder.relativePath
        let folders = watched.map(\.relativePath).joined(separator: ", ")
        try await action.run(
            events: ServeAction.printer(served: served, folders: folders, host: listening.host, quiet: quiet))
    }
}
