import ArgumentParser
import FlowSite
import Foundation

/// `build`: the app's site into a folder, with its flow map and flow lint.
struct BuildCommand<App: SiteApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "build",
            abstract: "Build the app's site into a folder: one page per screen, the flow map, flow lint.",
            discussion: """
                The folder is replaced whole when the build succeeds and left as it was when it fails. \
                A folder that is not empty and was not made by a build is never written over \
                without --force. A build whose inputs are unchanged writes nothing; after an edit, \
                an app that fingerprints its inputs makes only the pages the edit reaches.
                """
        )
    }

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "The folder to build the site into\(App.commandLine.defaultOutput.map { " (default: \($0))" } ?? "").",
            valueName: "dir"))
    var output: String?

    @OptionGroup var site: SiteOptions

    @OptionGroup(title: "App")
    var app: App.Options

    @Flag(help: "Fail the build (exit 1) when flow lint finds a warning.")
    var strict = false

    @Option(
        help: ArgumentHelp(
            "A JSON file of flow lint settings: maximumClickDepth, disabledRules, suppressions.", valueName: "file"))
    var lintConfig: String?

    @Flag(help: "Replace the output folder even when a build did not make it.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Also print where the build's time went, phase by phase.")
    var timings = false

    @Flag(
        help: """
            After the build, ask each web address the site links to (with curl) and fail (exit 1) naming those that \
            do not answer; the site is kept.
            """)
    var checkExternalLinks = false

    func validate() throws {
        if output == nil && App.commandLine.defaultOutput == nil {
            throw ValidationError("Missing expected argument '--output <dir>'")
        }
    }

    func run() async throws {
        let output = output ?? App.commandLine.defaultOutput ?? "site"
        var action = try site.action(app: App(options: app), output: output, force: force, quiet: quiet)
        action.strictFlowLint = strict
        action.flowLint = try lintConfig.map(LintCommand<App>.configuration(from:))
        // Found before the build, so a missing curl fails before anything is written.
        let check = try checkExternalLinks ? ExternalLinkCheck() : nil
        var report = try await action.run()
        report.checksExternalLinks = check != nil
        if !quiet { printSummary(of: report) }
        if let check {
            let links = try ExternalLinks(site: action.output)
            let broken = await check.broken(links.web)
            let lines = ExternalLinkCheck.report(checked: links.web.count, broken: broken, mail: links.mail)
            if broken.isEmpty {
                if !quiet { print(TerminalText.safe(lines[0])) }
            } else {
                FileHandle.standardError.write(Data((lines.map(TerminalText.safe).joined(separator: "\n") + "\n").utf8))
                FileHandle.standardError.write(
                    Data("error: the site is built and kept; mend or remove the broken links and build again\n".utf8))
                throw ExitCode(1)
            }
        }
    }

    private func printSummary(of report: BuildReport) {
        print(
            TerminalText.safe(
                report.sitemap || report.isUpToDate ? "\(report)" : "\(report) (pass --base-url to write one)"))
        if let lint = report.flowLintSummary {
            print(
                TerminalText.safe(
                    lint.findings == 0 ? lint.line : "\(lint.line); run `\(App.commandLine.name) lint` for details"))
        }
        if timings {
            print("Time by phase (seconds, summed over parallel tasks):")
            for timing in report.timings {
                print(
                    "  " + timing.phase.padding(toLength: 26, withPad: " ", startingAt: 0)
                        + String(format: "%7.3f", timing.seconds))
            }
        }
    }
}

/// What decides a site's bytes besides the app (templates, base URL), shared by `build`, `serve` and app verbs.
public struct SiteOptions: ParsableArguments {
    /// `--templates`: a folder of templates and assets over the built-in ones, file by file.
    @Option(
        help: ArgumentHelp(
            """
            A folder of templates and assets over the built-in ones, file by file (layout.mustache, partials/, \
            assets/).
            """,
            valueName: "dir"))
    public var templates: String?

    /// `--base-url`: the absolute URL the site is served from, for the sitemap and canonical links.
    @Option(
        help: ArgumentHelp(
            """
            The absolute URL the site will be served from: writes sitemap.xml, canonical and Open Graph links, \
            and roots 404.html's links.
            """,
            valueName: "url"))
    public var baseURL: String?

    /// `--coverage`: flow coverage files or folders, merged, so the flow map marks untested transitions.
    @Option(
        help: ArgumentHelp(
            """
            A flow coverage file, or a folder of them (what the app's .flowCoverage() tests write); repeatable, \
            merged. The flow map marks the transitions no test takes.
            """,
            valueName: "path"))
    public var coverage: [String] = []

    public init() {}

    public func validate() throws {
        if let baseURL {
            guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else {
                throw ValidationError(
                    "--base-url '\(baseURL)' is not an absolute http(s) URL; write it like https://example.com/docs/.")
            }
        }
        if let templates {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: templates, isDirectory: &isDirectory), isDirectory.boolValue
            else {
                throw ValidationError(
                    "--templates '\(templates)' is not a folder; give a folder holding layout.mustache and friends.")
            }
        }
    }

    /// The build these options describe, of `app` into `output`.
    public func action<App: SiteApp>(app: App, output: String, force: Bool, quiet: Bool) -> SiteBuildAction<App> {
        var action = SiteBuildAction(
            app: app, output: URL(fileURLWithPath: output), templates: templates.map { URL(fileURLWithPath: $0) },
            baseURL: baseURL, force: force, quiet: quiet)
        action.coverage = coverage.map { URL(fileURLWithPath: $0) }
        return action
    }
}
