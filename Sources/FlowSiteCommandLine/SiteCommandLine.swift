import ArgumentParser
import FlowSite
import Foundation
import Logging

extension SiteBuilder {
    /// The command line of an app's site executable, the one the package plugins run
    /// (`swift package generate-site`, `swift package diff-site`, `swift package lint-site`):
    ///
    /// - `build --output DIR [--base-url URL] [--templates DIR] [--strict] [--lint-config FILE] [--force]`
    ///   builds the site and prints the build's report and its flow lint summary;
    /// - `lint [--format text|json|sarif] [--strict] [--config FILE] [--max-depth N] [--limit N]` walks the
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
    @inlinable
    public static func runCommandLine(
        _ arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        coordinator: @autoclosure () -> C
    ) async -> Int32 {
        await CoordinatorAppMaker.with(coordinator()) { await CoordinatorApp<C>.runCommandLine(arguments) }
    }
}

/// The root command: the verbs, and the exit codes the plugins and CI read.
struct SiteCommand<App: SiteApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        let commandLine = App.commandLine
        // A verb of the app's own replaces the built-in one of the same name.
        let own = Set(commandLine.moreCommands.map { $0._commandName })
        let builtIn: [any ParsableCommand.Type] = [
            BuildCommand<App>.self, ServeCommand<App>.self, LintCommand<App>.self, DiffCommand.self,
            GraphCommand<App>.self
        ]
        return CommandConfiguration(
            commandName: commandLine.name,
            abstract: commandLine.abstract,
            version: commandLine.version ?? "",
            subcommands: builtIn.filter { !own.contains($0._commandName) } + commandLine.moreCommands,
            defaultSubcommand: commandLine.buildsByDefault ? BuildCommand<App>.self : nil
        )
    }

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
            FileHandle.standardError.write(
                Data((TerminalText.safe("Error: " + CommandLineMessage.text(for: error)) + "\n").utf8))
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
            throw ValidationError(
                "Cannot write to \(path): \(error.localizedDescription). Check that its folder exists and is writable.")
        }
    }
}
