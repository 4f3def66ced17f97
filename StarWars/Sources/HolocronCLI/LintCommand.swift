import ArgumentParser
@_spi(Engine) import FlowSite
import Foundation
import HolocronKit
@_spi(Engine) import FlowSiteCommandLine

extension LintAction.Format: ExpressibleByArgument {}

/// `holocron lint`: walks the app without writing a site and reports the holes in its flow.
struct LintCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check the app's flow: unhandled links, unreachable screens, dead ends, deep pages, dialogs over dialogs, unclear link texts.",
        discussion: """
            Prints the number of findings per rule and the first few of each, with the screen \
            kind, an example page and the source line. Rules: \(FlowLintRule.all.map(\.id).joined(separator: ", ")). \
            Exits 1 when a finding is an error, or with --strict when one is a warning; 0 otherwise. \
            Turn a rule off or suppress one finding, with the reason, in a JSON file given with \
            --config (see the README's "Flow lint").
            """
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("text, json or sarif (SARIF 2.1.0, for code-review tools).", valueName: "format"))
    var format: LintAction.Format = .text

    @Option(name: .shortAndLong, help: ArgumentHelp("A file to write the report to (default: standard output).", valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("A JSON file of lint settings: maximumClickDepth, disabledRules, suppressions.", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("The most clicks from the start page a page may be (default 4, or the config's).", valueName: "n"))
    var maxDepth: Int?

    @Option(help: ArgumentHelp("The folder SARIF file locations are relative to (default: the current folder).", valueName: "dir"))
    var sourceRoot: String?

    @Flag(help: "Exit 1 when any finding is a warning, not only an error.")
    var strict = false

    @OptionGroup(title: "Data")
    var fetch: FetchOptions

    @Flag(name: .shortAndLong, help: "Print nothing but the report and errors.")
    var quiet = false

    func validate() throws {
        if let maxDepth, maxDepth < 1 { throw ValidationError("--max-depth must be 1 or more, not \(maxDepth).") }
    }

    func run() async throws {
        var settings = try config.map { try LintSettings.load($0) }
        if let maxDepth {
            settings = (settings ?? FlowLintConfiguration()).merging(FlowLintConfiguration(maximumClickDepth: maxDepth))
        }
        let root = sourceRoot ?? FileManager.default.currentDirectoryPath
        let action = LintAction(source: fetch.source(), format: format, configuration: settings, sourceRoot: root, quiet: quiet)
        let (report, text) = try await action.run()
        if let output {
            do {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } catch {
                throw ValidationError("Cannot write the report to \(output): \(error.localizedDescription). Check that its folder exists and is writable.")
            }
            if !quiet { print("\(report.summaryLine); wrote the \(format.rawValue) report to \(output)") }
        } else {
            print(TerminalText.safe(text), terminator: "")
        }
        if report.hasErrors || (strict && report.failsStrict) { throw ExitCode(1) }
    }
}

/// Reading a lint configuration file for a command.
enum LintSettings {
    static func load(_ path: String) throws -> FlowLintConfiguration {
        do {
            return try FlowLintConfiguration.load(from: URL(fileURLWithPath: path))
        } catch let error as FlowSiteError {
            throw ValidationError("\(error) Fix it, or leave out the file to use the app's own settings.")
        }
    }
}
