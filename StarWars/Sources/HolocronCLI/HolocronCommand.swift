import ArgumentParser
@_spi(Engine) import FlowSite
import Foundation
import HolocronKit
@_spi(Engine) import FlowSiteCommandLine

/// The `holocron` command: turns an app's navigation graph into a static site.
public struct HolocronCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "holocron",
        abstract: "Turn an MVVM-C app's navigation graph into a static site, one page per screen.",
        discussion: """
            holocron walks every route of the app offline, renders each screen's state to Markdown, \
            turns it into HTML with cmark and writes one page per screen, with relative links that \
            work from any web server path and straight from disk.
            """,
        version: HolocronVersion.current,
        subcommands: [BuildCommand.self, ServeCommand.self, CheckCommand.self, LintCommand.self, DiffCommand.self, SnapshotCommand.self, GraphCommand.self, TemplatesCommand.self, CmarkFloorCommand.self],
        defaultSubcommand: BuildCommand.self
    )

    public init() {}

    /// Parses the arguments and runs the command, like `main()`, but prints every message
    /// terminal-safe: errors quote names, URLs and files from the data.
    public static func runMain(_ arguments: [String]? = nil) async {
        // The process's own command line: a build's no-change check starts while it is parsed.
        if arguments == nil, let output = BuildCommand.outputToCheckEarly(in: Array(CommandLine.arguments.dropFirst())) {
            BuildAction.beginUnchangedSiteCheck(at: output)
        }
        do {
            var command = try await asyncParseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let message = TerminalText.safe(
                (error as? FlowSiteError).map { "Error: " + CommandLineMessage.text(for: $0) } ?? fullMessage(for: error)
            )
            var code = exitCode(for: error)
            // `holocron diff` keeps diff's convention, 1 for "different" and 2 for trouble,
            // usage errors included.
            if !code.isSuccess, code != ExitCode(1), (arguments ?? Array(CommandLine.arguments.dropFirst())).first == "diff" { code = ExitCode(2) }
            if !message.isEmpty {
                if code.isSuccess {
                    print(message)
                } else {
                    FileHandle.standardError.write(Data((message + "\n").utf8))
                }
            }
            Foundation.exit(code.rawValue)
        }
    }
}
