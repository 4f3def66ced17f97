import ArgumentParser
import FlowSite
import Foundation
import HolocronKit

/// `holocron serve`: builds the site, then serves it on this machine for previewing.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site and serve it at http://127.0.0.1:8000/ for previewing; Ctrl-C stops.",
        discussion: """
            The server behaves like a plain static host: folders answer with their index.html \
            and missing pages get the site's 404.html. It is for previews, not production.
            """
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder to build the site into and serve.", valueName: "dir"))
    var output: String = "site"

    @OptionGroup var site: SiteOptions

    @Option(help: ArgumentHelp("The address to listen on.", valueName: "host"))
    var host = "127.0.0.1"

    @Option(name: .shortAndLong, help: ArgumentHelp("The port to listen on (0 picks a free one).", valueName: "port"))
    var port = 8000

    @Flag(help: "Serve the folder as it is, without building it first.")
    var noBuild = false

    @Flag(help: "Rebuild when a file in the --templates or --data folder changes (a failed rebuild keeps the site being served).")
    var watch = false

    @Flag(help: "Replace the output folder even if holocron did not create it.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535.") }
        if watch && watchedFolders.isEmpty {
            throw ValidationError("--watch follows the --templates and --data folders; give at least one of them.")
        }
        if watch && noBuild { throw ValidationError("--watch rebuilds the site; it can't go with --no-build.") }
    }

    private var watchedFolders: [URL] {
        [site.templates, site.fetch.data].compactMap { $0.map { URL(fileURLWithPath: $0) } }
    }

    func run() async throws {
        let action = ServeAction(
            build: noBuild ? nil : site.action(output: output, force: force, quiet: quiet),
            root: URL(fileURLWithPath: output), host: host, port: port, watched: watch ? watchedFolders : []
        )
        let quiet = quiet
        let output = output
        let shown = host.contains(":") ? "[\(host)]" : host
        try await action.run { event in
            switch event {
            case .built(let report):
                if !quiet { print(report) }
            case .listening(let port):
                if !quiet { print("Serving \(output) at http://\(shown):\(port)/ (Ctrl-C stops)") }
            case .rebuildFailed(let error):
                let text = (error as? FlowSiteError).map(CommandLineMessage.text(for:)) ?? "\(error)"
                FileHandle.standardError.write(Data(TerminalText.safe("Rebuild failed; still serving the previous site. \(text)\n").utf8))
            }
            fflush(nil)  // whoever reads a pipe needs the address now, not at exit
        }
    }
}
