import ArgumentParser
@_spi(Engine) import FlowSite
import Foundation
import HolocronKit
@_spi(Engine) import FlowSiteCommandLine

/// `holocron serve`: builds the site, then serves it on this machine for previewing.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site and serve it at http://127.0.0.1:8000/ for previewing; Ctrl-C stops.",
        discussion: """
            The server behaves like a plain static host: folders answer with their index.html \
            and missing pages get the site's 404.html. With --watch it rebuilds on every change \
            and open pages reload by themselves (or show why the rebuild failed). It is for \
            previews, not production.
            """
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder to build the site into and serve (default: site; with --watch, a preview folder kept in memory, on tmpfs, and removed when serve stops).", valueName: "dir"))
    var output: String?

    @OptionGroup var site: SiteOptions

    @OptionGroup var listening: PreviewOptions

    @Flag(help: "Serve the folder as it is, without building it first.")
    var noBuild = false

    @Flag(help: "Rebuild when a file in the --templates or --data folder (or the API cache with --offline) changes, and reload open pages; a failed rebuild keeps the site being served and shows the error on the pages.")
    var watch = false

    @Flag(help: "Replace the output folder even if holocron did not create it.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if watch && watchedFolders.isEmpty {
            throw ValidationError("--watch follows the --templates and --data folders (or the API cache with --api --offline); give at least one of them.")
        }
        if watch && noBuild { throw ValidationError("--watch rebuilds the site; it can't go with --no-build.") }
    }

    /// The folders whose changes change the site: the templates, the data, and the API cache
    /// when the build reads only the cache.
    private var watchedFolders: [URL] {
        var folders = [site.templates, site.fetch.data].compactMap { $0.map { URL(fileURLWithPath: $0) } }
        if site.fetch.offline, case .api(let live) = site.fetch.source(cacheBeside: URL(fileURLWithPath: output ?? "site")) {
            folders.append(live.cache)
        }
        return folders
    }

    func run() async throws {
        // A live preview needn't wait on the disk: unless told where, it is built in memory.
        let preview = watch && output == nil ? try ServeAction.makePreviewFolder() : nil
        defer { if let preview { ServeAction.removePreviewFolder(preview) } }
        let output = preview?.appendingPathComponent("site").path ?? self.output ?? "site"
        var build = noBuild ? nil : site.action(output: output, force: force, quiet: quiet)
        // Nobody else reads the private preview: an edit that moves no page is written into it.
        build?.patchesInPlace = preview != nil
        let action = ServeAction(
            // Rebuilds make only the pages an edit reaches: the session remembers the last build.
            build: build?.rebuilds(remembering: watch),
            root: URL(fileURLWithPath: output), host: listening.host, port: listening.port, basePath: listening.basePath,
            watched: watch ? watchedFolders : [], forcePolling: listening.poll, openBrowser: listening.open,
            describe: { error in (error as? FlowSiteError).map(CommandLineMessage.text(for:)) ?? "\(error)" },
            logger: (build ?? BuildAction(output: URL(fileURLWithPath: output))).makeLogger()
        )
        let served = preview == nil ? output : "a preview in memory"
        let folders = watchedFolders.map(\.relativePath).joined(separator: ", ")
        try await action.run(events: ServeAction.printer(served: served, folders: folders, host: listening.host, quiet: quiet))
    }
}
