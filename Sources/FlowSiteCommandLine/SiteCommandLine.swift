import ArgumentParser
@_spi(Engine) import FlowSite
import Foundation
import Logging

extension SiteBuilder {
    /// The command line of an app's site executable, the one the package plugins run
    /// (`swift package generate-site`, `swift package diff-site`, `swift package lint-site`):
    ///
    /// - `build --output DIR [--base-url URL] [--templates DIR] [--strict] [--lint-config FILE] [--force]`
    ///   builds the site and prints the build's report and its flow lint summary;
    /// - `lint [--format text|json|sarif] [--strict] [--config FILE] [--max-depth N]` walks the
    ///   app without writing a site and reports the holes in its flow;
    /// - `diff OLD NEW [--format text|markdown|json]` reports what changed between two built sites;
    /// - `graph [--format dot|mermaid|json] [--level screens|pages]` prints the navigation graph.
    ///
    /// `SITE --help` and `SITE help VERB` describe every option.
    ///
    /// ```swift
    /// // Sources/my-app-site/main.swift
    /// import FlowSiteCommandLine
    /// exit(await SiteBuilder.runCommandLine(coordinator: AppCoordinator(dependencies: .mock)))
    /// ```
    /// - Returns: the exit code: 0 on success (for `diff`, when the sites are the same), 1 when
    ///   flow lint fails (`--strict`, or an error-level finding for `lint`) or `diff` finds a
    ///   change, 2 on bad arguments or errors.
    public static func runCommandLine(
        _ arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        coordinator: @autoclosure () -> C
    ) async -> Int32 {
        let app = SiteProgram(coordinator: coordinator())
        return await SiteProgram.$current.withValue(app) {
            await SiteCommand.main(arguments)
        }
    }
}

/// The app a site executable's commands walk, with what each command needs of it as closures
/// over its coordinator (the commands are not generic: swift-argument-parser makes them).
struct SiteProgram: Sendable {
    @TaskLocal static var current: SiteProgram?

    var build: @Sendable (_ output: URL, _ settings: BuildSettings) async throws -> BuildReport
    var lint: @Sendable (FlowLintConfiguration?) async throws -> FlowLintReport
    var flow: @Sendable () async throws -> FlowGraph
    var pages: @Sendable (GraphFormat) async throws -> (text: String, pages: Int, links: Int)

    init<C: RootCoordinator>(coordinator: C) {
        build = { output, settings in
            let templates = try settings.templates.map { try TemplateSet.load(from: $0) } ?? .embedded
            var builder = SiteBuilder(coordinator: coordinator, templates: templates, baseURL: settings.baseURL, force: settings.force, logger: settings.logger)
            builder.strictFlowLint = settings.strict
            builder.flowLint = settings.flowLint
            return try await builder.build(into: output)
        }
        lint = { configuration in try await FlowLinter(coordinator: coordinator, configuration: configuration).run() }
        flow = { try await FlowLinter(coordinator: coordinator).walk().graph }
        pages = { format in
            let graph = try await SiteWalker(coordinator: coordinator).walk { _ in }
            try graph.requireNoFailures()
            return (graph.export(format), graph.routes.count, graph.distinctEdgeCount)
        }
    }

    /// The app the running command line was given.
    static func required() throws -> SiteProgram {
        guard let current else { throw ValidationError("No app: run this command through SiteBuilder.runCommandLine(coordinator:).") }
        return current
    }
}

/// What `build` asks of the app's site, from its options.
struct BuildSettings: Sendable {
    var baseURL: String?
    var templates: URL?
    var force = false
    var strict = false
    var flowLint: FlowLintConfiguration?
    var logger: Logger
}

/// The root command: the verbs, and the exit codes the plugins and CI read.
struct SiteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: CommandLineMessage.programName,
        abstract: "Build, check and compare the app's flow as a static site.",
        subcommands: [BuildCommand.self, ServeCommand.self, LintCommand.self, DiffCommand.self, GraphCommand.self]
    )

    /// Parses and runs `arguments`, printing errors and usage as swift-argument-parser does, and
    /// returns the exit code: 2 for a bad command line (not ArgumentParser's 64), so that 1
    /// always means "lint failed" or "the sites differ".
    static func main(_ arguments: [String]) async -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
            return 0
        } catch {
            return report(error)
        }
    }

    static func report(_ error: any Error) -> Int32 {
        if let error = error as? FlowSiteError {
            FileHandle.standardError.write(Data((TerminalText.safe("Error: " + CommandLineMessage.text(for: error)) + "\n").utf8))
            if case .flowLintFailed = error.reason { return 1 }
            return 2
        }
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        if !message.isEmpty {
            let out = code == .success ? FileHandle.standardOutput : FileHandle.standardError
            out.write(Data((TerminalText.safe(message) + "\n").utf8))
        }
        if code == .success || code.rawValue == 1 || code.rawValue == 2 { return code.rawValue }
        return 2
    }
}

/// Writes a report to a file (atomically), or to standard output made terminal-safe.
enum ReportOutput {
    static func write(_ text: String, to path: String?, forTerminal: Bool = true) throws {
        guard let path else {
            print(forTerminal ? TerminalText.safe(text) : text, terminator: "")
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw ValidationError("Cannot write to \(path): \(error.localizedDescription). Check that its folder exists and is writable.")
        }
    }
}
