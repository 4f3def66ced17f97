import ArgumentParser
import Foundation

/// Where and how `serve` listens: the options every site executable's `serve` shares.
package struct PreviewOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The address to listen on; 0.0.0.0 also serves other devices on the network.", valueName: "host"))
    package var host = "127.0.0.1"

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The port to listen on; when it is taken, the next free one (0 picks any free one).", valueName: "port"))
    package var port = 8000

    @Option(
        help: ArgumentHelp(
            "Serve the site under this path, such as /deep/sub/, to check a subpath deploy.", valueName: "path"))
    package var basePath = "/"

    @Flag(help: "Open the site in the default browser.")
    package var open = false

    @Flag(
        help: """
            With --watch, look for changes by reading the folders every 0.5 s instead of asking the system \
            (for network file systems).
            """
    )
    package var poll = false

    package init() {}

    package func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port takes 0 to 65535.") }
        guard basePath.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._~/".contains($0)) }),
            !basePath.split(separator: "/").contains(where: { $0 == "." || $0 == ".." })
        else {
            throw ValidationError(
                """
                --base-path '\(basePath)' may hold only letters, digits, '-', '.', '_', '~' and '/', and no '.' or \
                '..' folders; write it like /deep/sub/.
                """
            )
        }
    }
}

extension ServeAction {
    /// What `serve` prints of each event; `served` names what is served, `folders` the watched folders.
    static func printer(
        served: String, folders: String, host: String, quiet: Bool
    ) -> @Sendable (Event) async -> Void {
        { event in
            switch event {
            case .built(let report):
                if !quiet { print(TerminalText.safe("\(report)")) }
            case .watching(let method):
                guard !quiet else { break }
                switch method {
                case .inotify:
                    print(TerminalText.safe("Watching \(folders) for changes; open pages reload after each rebuild."))
                case .polling(let reason):
                    let why = reason.map { " (\($0))" } ?? ""
                    print(
                        TerminalText.safe(
                            "Watching \(folders) by looking every 0.5 s\(why); open pages reload after each rebuild."))
                }
            case .listening(let address):
                if let requested = address.requestedPort {
                    FileHandle.standardError.write(Data("Port \(requested) is in use; using \(address.port).\n".utf8))
                }
                if !quiet {
                    print(TerminalText.safe("Serving \(served) at \(address.local) (Ctrl-C stops)"))
                    for url in address.network { print("On your network: \(url)") }
                    if address.network.isEmpty && (host == "0.0.0.0" || host == "::") {
                        print("On your network: no address found besides this machine's own.")
                    }
                }
            case .rebuildFailed(let message):
                FileHandle.standardError.write(
                    Data(TerminalText.safe("Rebuild failed; still serving the previous site. \(message)\n").utf8))
            case .browserNotOpened(let message):
                FileHandle.standardError.write(Data(TerminalText.safe(message + "\n").utf8))
            }
            fflush(nil) // whoever reads a pipe needs the address now, not at exit
        }
    }
}
