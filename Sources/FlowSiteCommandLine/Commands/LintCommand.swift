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
                rule off or suppress one finding, with the reason, in a JSON file given with --config. \
                With --coverage and --write-tests FILE, it also writes a Swift Testing suite with a test for \
                each untested transition, to paste into the app's test target.
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

    @Option(
        help: ArgumentHelp(
            """
            Write a Swift Testing suite with a test for each transition the --coverage given leaves untested to \
            this file ('-' for standard output, in place of the report); the suite is named after the file.
            """,
            valueName: "file"))
    var writeTests: String?

    @Option(
        help: ArgumentHelp(
            """
            The Swift expression that makes the app's root coordinator in the tests --write-tests writes \
            (default: its type's init()), such as 'AppCoordinator(dependencies: .mock)'.
            """,
            valueName: "expression"))
    var testCoordinator: String?

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
        if let writeTests {
            guard !coverage.isEmpty else {
                throw ValidationError(
                    """
                    --write-tests \(writeTests) writes tests of the transitions no test takes, by the coverage \
                    given: add --coverage with the folder the app's .flowCoverage() tests write (flow-coverage).
                    """)
            }
            if writeTests != "-", writeTests.hasSuffix("/") || !writeTests.hasSuffix(".swift") {
                throw ValidationError("--write-tests \(writeTests) is no Swift file: name one that ends in .swift.")
            }
        }
        if let testCoordinator {
            guard writeTests != nil else {
                throw ValidationError("--test-coordinator is for the tests --write-tests FILE writes; add that.")
            }
            guard !testCoordinator.trimmingCharacters(in: .whitespaces).isEmpty, !testCoordinator.contains("\n")
            else {
                throw ValidationError(
                    "--test-coordinator '\(testCoordinator)' is no expression: give one line of Swift, such as "
                        + "'AppCoordinator(dependencies: .mock)'.")
            }
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
        let linter = FlowLinter(coordinator: content.coordinator, configuration: settings, coverage: flowCoverage)
        let report: FlowLintReport
        if let writeTests {
            // A rare run, for a developer: the walk keeps its edges, unspecialised.
            let (lint, tests) = try await linter.runWritingTests(
                TransitionTestOptions(coordinator: testCoordinator, suite: Self.suiteName(writingTo: writeTests)))
            // Swift source: written as it is, whole or not at all.
            try ReportOutput.write(tests, to: writeTests == "-" ? nil : writeTests, forTerminal: false)
            report = lint
        } else {
            report = try await SiteEngine<App.Coordinator>.forCommand.lint(linter)
        }
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
        if writeTests == "-" && output == nil {
            // The tests are the standard output: the report's one line goes to standard error.
            if !quiet { Self.printError(report.summaryLine) }
        } else {
            try ReportOutput.write(text, to: output, forTerminal: format == .text)
            if output != nil, !quiet {
                print(TerminalText.safe("\(report.summaryLine); wrote the \(format.rawValue) report to \(output!)"))
            }
        }
        if let writeTests, writeTests != "-", !quiet {
            let count = report.coverage?.reduce(0) { $0 + $1.untested.count } ?? 0
            let tests = count == 1 ? "1 untested transition" : "\(count) untested transitions"
            Self.printError("Wrote the tests of \(tests) to \(writeTests)")
        }
        if report.hasErrors || (strict && report.failsStrict) { throw ExitCode(1) }
    }

    /// The suite's name for tests written to `path`: the file's name when it is an identifier
    /// (`UntestedTransitionTests.swift`), else ``TransitionTestOptions/defaultSuite``.
    static func suiteName(writingTo path: String) -> String {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        return path != "-" && TransitionTestOptions.isIdentifier(name) ? name : TransitionTestOptions.defaultSuite
    }

    private static func printError(_ line: String) {
        FileHandle.standardError.write(Data((TerminalText.safe(line) + "\n").utf8))
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
