import ArgumentParser
import FlowSite
import Foundation

/// `lint`: the holes in the app's flow, without writing a site.
struct LintCommand<App: SiteApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "lint",
            abstract: """
                Check the app's flow: unhandled links, unreachable screens, dead ends, deep pages, dialogs over \
                dialogs, unclear link texts.
                """,
            discussion: """
                Prints the number of findings per rule and every finding (the first N of each \
                with --limit N), with the screen kind, an example page and the source line (a path \
                from --source-root, an editor \
                opens it). Rules: \(FlowLintRule.all.map(\.id).joined(separator: ", ")) \
                (\(FlowLintRule.all.filter { !$0.isOnByDefault }.map(\.id).joined(separator: ", ")) off unless \
                enabled, with --enable or the config's enabledRules). With --coverage, \
                the report also counts, per flow, the transitions the app's tests take. Exits 1 when \
                a finding is an error, or with --strict when one is a warning; 0 otherwise. Turn a \
                rule off or suppress one finding, with the reason, in a JSON file given with --config.
                """
        )
    }

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("text, json or sarif (SARIF 2.1.0, for code scanning).", valueName: "format"))
    var format: LintFormat = .text

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("A file to write the report to (default: standard output).", valueName: "file"))
    var output: String?

    @Option(
        help: ArgumentHelp(
            "A JSON file of lint settings: maximumClickDepth, disabledRules, suppressions.", valueName: "file"))
    var config: String?

    @Option(
        help: ArgumentHelp(
            "The most clicks from the start page a page may be (default 4, or the config's).", valueName: "n"))
    var maxDepth: Int?

    @Option(
        help: ArgumentHelp(
            """
            A flow coverage file, or a folder of them (what the app's .flowCoverage() tests write); repeatable, \
            merged. The report counts per flow the transitions the tests take and lists the others.
            """,
            valueName: "path"))
    var coverage: [String] = []

    @Option(
        name: .customLong("enable"),
        help: ArgumentHelp(
            """
            Turn on a rule that is off by default (\(FlowLintRule.all.filter { !$0.isOnByDefault }.map(\.id).joined(
                separator: ", "))); repeatable.
            """, valueName: "rule"))
    var enabledRules: [String] = []

    @Option(
        help: ArgumentHelp(
            "List at most n findings of each rule in the text report (default: all).",
            valueName: "n"))
    var limit: Int?

    @Option(
        help: ArgumentHelp(
            """
            The folder source locations are relative to (default: the current folder, the package's root under \
            the plugins).
            """,
            valueName: "dir"))
    var sourceRoot: String?

    @Flag(help: "Exit 1 when any finding is a warning, not only an error.")
    var strict = false

    @OptionGroup(title: "App")
    var app: App.Options

    @Flag(name: .shortAndLong, help: "Print nothing but the report and errors.")
    var quiet = false

    func validate() throws {
        if let maxDepth, maxDepth < 1 { throw ValidationError("--max-depth must be 1 or more, not \(maxDepth).") }
        if let limit, limit < 1 {
            throw ValidationError("--limit must be 1 or more, not \(limit); leave it out to list every finding.")
        }
        let offByDefault = FlowLintRule.all.filter { !$0.isOnByDefault }.map(\.id)
        for id in enabledRules where !FlowLintRule.all.contains(where: { $0.id == id }) {
            throw ValidationError(
                """
                --enable '\(id)' is no flow lint rule; the rules off by default are \
                \(offByDefault.joined(separator: ", ")).
                """
            )
        }
        for id in enabledRules where !offByDefault.contains(id) {
            throw ValidationError(
                """
                --enable '\(id)' is not a rule that is off by default; those are \
                \(offByDefault.joined(separator: ", ")).
                """
            )
        }
    }

    func run() async throws {
        var settings = try config.map(Self.configuration(from:))
        if let maxDepth {
            settings = (settings ?? FlowLintConfiguration()).merging(FlowLintConfiguration(maximumClickDepth: maxDepth))
        }
        if !enabledRules.isEmpty {
            let base = settings ?? FlowLintConfiguration()
            settings = base.merging(
                FlowLintConfiguration(maximumClickDepth: base.maximumClickDepth, enabledRules: enabledRules))
        }
        let flowCoverage =
            try coverage.isEmpty ? nil : FlowGraph.Coverage.load(from: coverage.map { URL(fileURLWithPath: $0) })
        let logger = CommandLineMessage.logger(quiet: quiet)
        let content = try await App(options: app).load(SiteLoad(logger: logger, quiet: quiet))
        let report = try await SiteEngine<App.Coordinator>.forCommand.lint(
            FlowLinter(coordinator: content.coordinator, configuration: settings, coverage: flowCoverage))
        let root = sourceRoot ?? FileManager.default.currentDirectoryPath
        let text =
            switch format {
            case .text: report.text(limit: limit, sourceRoot: root, seeAll: "run without --limit to see all")
            case .json: report.json(sourceRoot: root)
            case .sarif:
                report.sarif(
                    toolName: App.commandLine.name, version: App.commandLine.version ?? FlowSiteVersion.current,
                    sourceRoot: root)
            }
        try ReportOutput.write(text, to: output, forTerminal: format == .text)
        if output != nil, !quiet {
            print(TerminalText.safe("\(report.summaryLine); wrote the \(format.rawValue) report to \(output!)"))
        }
        if report.hasErrors || (strict && report.failsStrict) { throw ExitCode(1) }
    }

    /// A lint configuration file, or a message that says which file and what to fix.
    static func configuration(from path: String) throws -> FlowLintConfiguration {
        do {
            return try FlowLintConfiguration.load(from: URL(fileURLWithPath: path))
        } catch let error as FlowSiteError {
            throw ValidationError("\(error) Fix it, or leave out the file to use the app's own settings.")
        }
    }
}

/// lint's report formats.
enum LintFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json, sarif
}

/// The version SARIF logs name as the tool's.
enum FlowSiteVersion {
    static let current = "0.1.0"
}
