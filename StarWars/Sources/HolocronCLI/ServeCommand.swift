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

    @Option(help: ArgumentHelp("The address to listen on; 0.0.0.0 also serves other devices on the network.", valueName: "host"))
    var host = "127.0.0.1"

    @Option(name: .shortAndLong, help: ArgumentHelp("The port to listen on; when it is taken, the next free one (0 picks any free one).", valueName: "port"))
    var port = 8000

    @Option(help: ArgumentHelp("Serve the site under this path, such as /deep/sub/, to check a subpath deploy.", valueName: "path"))
    var basePath = "/"

    @Flag(help: "Serve the folder as it is, without building it first.")
    var noBuild = false

    @Flag(help: "Rebuild when a file in the --templates or --data folder (or the API cache with --offline) changes, and reload open pages; a failed rebuild keeps the site being served and shows the error on the pages.")
    var watch = false

    @Flag(help: "Open the site in the default browser.")
    var open = false

    @Flag(help: "With --watch, look for changes by reading the folders every 0.5 s instead of asking the system (for network file systems).")
    var poll = false

    @Flag(help: "Replace the output folder even if holocron did not create it.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535.") }
        guard basePath.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~/".contains($0)) }),
            !basePath.split(separator: "/").contains(where: { $0 == "." || $0 == ".." })
        else {
            throw ValidationError("--base-path '\(basePath)' may hold only letters, digits, '-', '.', '_', '~' and '/', and no '.' or '..' folders; write it like /deep/sub/.")
        }
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
            build: build,
            root: URL(fileURLWithPath: output), host: host, port: port, basePath: basePath,
            watched: watch ? watchedFolders : [], forcePolling: poll, openBrowser: open,
            describe: { error in (error as? FlowSiteError).map(CommandLineMessage.text(for:)) ?? "\(error)" }
        )
        let quiet = quiet
        let served = preview == nil ? output : "a preview in memory"
        let folders = watchedFolders.map(\.relativePath).joined(separator: ", ")
        try await action.run { event in
            switch event {
            case .built(let report):
                if !quiet { print(report) }
            case .watching(let method):
                guard !quiet else { break }
                switch method {
                case .inotify:
                    print(TerminalText.safe("Watching \(folders) for changes; open pages reload after each rebuild."))
                case .polling(let reason):
                    let why = reason.map { " (\($0))" } ?? ""
                    print(TerminalText.safe("Watching \(folders) by looking every 0.5 s\(why); open pages reload after each rebuild."))
                }
            case .listening(let address):
                if let requested = address.requestedPort {
                    FileHandle.standardError.write(Data("Port \(requested) is in use; using \(address.port).\n".utf8))
                }
                if !quiet {
                    print(TerminalText.safe("Serving \(served) at \(address.local) (Ctrl-C stops)"))
                    for url in address.network { print("On your network: \(url)") }
                    if address.network.isEmpty && (action.host == "0.0.0.0" || action.host == "::") {
                        print("On your network: no address found besides this machine's own.")
                    }
                }
            case .rebuildFailed(let message):
                FileHandle.standardError.write(Data(TerminalText.safe("Rebuild failed; still serving the previous site. \(message)\n").utf8))
            case .browserNotOpened(let message):
                FileHandle.standardError.write(Data(TerminalText.safe(message + "\n").utf8))
            }
            fflush(nil)  // whoever reads a pipe needs the address now, not at exit
        }
    }
}
