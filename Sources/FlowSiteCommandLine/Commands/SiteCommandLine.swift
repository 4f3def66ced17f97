import ArgumentParser
import FlowSite
import Foundation
import Logging

extension SiteBuilder {
    /// The command line of an app's site executable, which the package plugins run: `build` (the site, its report
    /// and flow lint summary), `serve`, `lint` (the flow's holes, without a site), `diff` (what changed between two
    /// built sites) and `graph` (the navigation graph). `SITE --help` and `SITE help VERB` describe every option.
    ///
    /// ```swift
    /// import FlowSiteCommandLine  // Sources/my-app-site/main.swift
    /// exit(await SiteBuilder.runCommandLine(coordinator: AppCoordinator(dependencies: .mock)))
    /// ```
    /// - Returns: 0 on success (for `diff`, the same sites), 1 when flow lint fails (`--strict`, or an error for
    ///   `lint`) or `diff` finds a change, 2 on bad arguments or errors.
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

    /// Runs `arguments`; a bad command line exits 2, not 64, so 1 always means "lint failed" or "the sites differ".
    static func main(_ arguments: [String]) async -> Int32 {
        #if DEBUG
        // Where the argument parser would stop the program on a clash: in debug builds, the tests' included.
        if let clash = optionClash() {
            FileHandle.standardError.write(Data((TerminalText.safe("Error: " + clash) + "\n").utf8))
            return 2
        }
        #endif
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

    /// The app's option whose name one of FlowSite's verbs takes too, said in a sentence; `nil` for none. The
    /// argument parser finds such a clash only when that verb is run, and then stops a debug build with a crash, so
    /// a debug build's first parse (a test's) looks for it first, whatever the verb.
    static func optionClash() -> String? {
        typealias Plain = CoordinatorApp<App.Coordinator>
        guard App.Options.self != Plain.Options.self else { return nil }
        let own = optionNames(in: App.Options.helpMessage(columns: 400)).subtracting(["-h", "--help"])
        guard !own.isEmpty else { return nil }
        let verbs: [(name: String, type: any ParsableCommand.Type)] = [
            ("build", BuildCommand<Plain>.self), ("serve", ServeCommand<Plain>.self),
            ("lint", LintCommand<Plain>.self), ("graph", GraphCommand<Plain>.self)
        ]
        for verb in verbs {
            guard let name = own.intersection(optionNames(in: verb.type.helpMessage(columns: 400))).min() else {
                continue
            }
            return """
                The app's option \(name) has the name of the \(verb.name) verb's own \(name): give it another \
                in \(App.Options.self), so that both can be given.
                """
        }
        return nil
    }

    /// The option names a help text lists (`-o`, `--output`, `--no-watch`), from the lines that start with one.
    static func optionNames(in help: String) -> Set<String> {
        var names = Set<String>()
        for line in help.split(separator: "\n") where line.drop(while: { $0 == " " }).hasPrefix("-") {
            let head = line.drop(while: { $0 == " " }).prefix { $0 != "<" }.split(separator: " ").prefix(3)
            for token in head.flatMap({ $0.split(separator: "/") }) {
                let name = token.trimmingCharacters(in: CharacterSet(charactersIn: ","))
                if name.hasPrefix("-"), name.count > 1 { names.insert(name) }
            }
        }
        return names
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
