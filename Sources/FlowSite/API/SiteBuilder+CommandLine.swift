import Foundation

extension SiteBuilder {
    /// The command line of an app's site executable, the one the package plugins run
    /// (`swift package generate-site`, `swift package diff-site`):
    ///
    /// - `build --output DIR [--base-url URL] [--strict] [--force]` builds the site into DIR
    ///   and prints the build's report and its flow lint summary;
    /// - `diff OLD NEW [--format text|markdown|json] [--old-url URL] [--new-url URL] [--limit N]
    ///   [--output FILE]` reports what changed between two built sites, like `holocron diff`.
    ///
    /// ```swift
    /// // Sources/my-app-site/main.swift
    /// import FlowSite
    /// exit(await SiteBuilder.runCommandLine(coordinator: AppCoordinator(dependencies: .mock)))
    /// ```
    /// - Returns: the exit code: 0 on success (for `diff`, when the sites are the same), 1 when
    ///   strict flow lint fails the build or `diff` finds a change, 2 on bad arguments or errors.
    public static func runCommandLine(
        _ arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        coordinator: @autoclosure () -> C
    ) async -> Int32 {
        let usage = """
            usage: build --output DIR [--base-url URL] [--strict] [--force]
                   diff OLD NEW [--format text|markdown|json] [--old-url URL] [--new-url URL] [--limit N] [--output FILE]
            """
        func fail(_ message: String) -> Int32 {
            FileHandle.standardError.write(Data("error: \(message)\n\(usage)\n".utf8))
            return 2
        }
        var words = arguments[...]
        guard let verb = words.popFirst() else { return fail("say what to do: build or diff") }
        var options: [String: String] = [:]
        var flags: Set<String> = []
        var positional: [String] = []
        let valued: Set<String> = ["--output", "--base-url", "--format", "--old-url", "--new-url", "--limit"]
        while let word = words.popFirst() {
            if valued.contains(word) {
                guard let value = words.popFirst() else { return fail("\(word) needs a value") }
                options[word] = value
            } else if word == "--strict" || word == "--force" {
                flags.insert(word)
            } else if word.hasPrefix("--") {
                return fail("unknown option \(word)")
            } else {
                positional.append(word)
            }
        }
        do {
            switch verb {
            case "build":
                guard positional.isEmpty else { return fail("build takes no arguments but options, not \(positional.joined(separator: " "))") }
                guard let output = options["--output"] else { return fail("build needs --output DIR") }
                var builder = SiteBuilder(coordinator: coordinator(), baseURL: options["--base-url"], force: flags.contains("--force"))
                builder.strictFlowLint = flags.contains("--strict")
                let report = try await builder.build(into: URL(fileURLWithPath: output))
                print(report)
                if let lint = report.flowLint { print(lint.summaryLine) }
                return 0
            case "diff":
                guard positional.count == 2 else { return fail("diff needs two site folders, OLD and NEW") }
                let limit = Int(options["--limit"] ?? "5") ?? 0
                guard limit >= 1 else { return fail("--limit takes a number, 1 or more") }
                let comparison = try SiteComparison(old: URL(fileURLWithPath: positional[0]), new: URL(fileURLWithPath: positional[1]))
                let report = SiteComparison.ReportOptions(limit: limit, oldURL: options["--old-url"], newURL: options["--new-url"])
                let text: String
                switch options["--format"] ?? "text" {
                case "text": text = comparison.text(report)
                case "markdown": text = comparison.markdown(report)
                case "json": text = comparison.json()
                case let other: return fail("--format takes text, markdown or json, not \(other)")
                }
                if let output = options["--output"] {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                    print("\(comparison.summaryLine); wrote the report to \(output)")
                } else {
                    print(text, terminator: "")
                }
                return comparison.isEqual ? 0 : 1
            default:
                return fail("unknown command \(verb)")
            }
        } catch let error as FlowSiteError {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            if case .flowLintFailed = error.reason { return 1 }
            return 2
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            return 2
        }
    }
}
