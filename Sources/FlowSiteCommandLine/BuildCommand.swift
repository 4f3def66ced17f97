import ArgumentParser
@_spi(Engine) import FlowSite
import Foundation
import Logging

/// `build`: the app's site into a folder, with its flow map and flow lint.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the app's site into a folder: one page per screen, the flow map, flow lint.",
        discussion: """
            The folder is replaced whole when the build succeeds and left as it was when it fails. \
            A folder that is not empty and was not made by a build is never written over \
            without --force.
            """
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder to build the site into.", valueName: "dir"))
    var output: String

    @Option(help: ArgumentHelp("Where the site will be published (absolute), for its sitemap and canonical links.", valueName: "url"))
    var baseURL: String?

    @Option(help: ArgumentHelp("A folder of templates over the built-in ones (layout.mustache, partials/, assets/).", valueName: "dir"))
    var templates: String?

    @Flag(help: "Fail the build (exit 1) when flow lint finds a warning.")
    var strict = false

    @Option(help: ArgumentHelp("A JSON file of flow lint settings: maximumClickDepth, disabledRules, suppressions.", valueName: "file"))
    var lintConfig: String?

    @Flag(help: "Replace the output folder even when a build did not make it.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if let baseURL, URL(string: baseURL)?.scheme == nil {
            throw ValidationError("--base-url '\(baseURL)' is not an absolute URL; write it like https://example.com/site/.")
        }
    }

    func run() async throws {
        let app = try SiteProgram.required()
        var logger = Logger(label: CommandLineMessage.programName) { TerminalSafeLogHandler(base: StreamLogHandler.standardError(label: $0)) }
        logger.logLevel = quiet ? .error : .info
        let settings = BuildSettings(
            baseURL: baseURL, templates: templates.map { URL(fileURLWithPath: $0) }, force: force, strict: strict,
            flowLint: try lintConfig.map(LintCommand.configuration(from:)), logger: logger
        )
        let report = try await app.build(URL(fileURLWithPath: output), settings)
        guard !quiet else { return }
        print(TerminalText.safe("\(report)"))
        if let lint = report.flowLint { print(TerminalText.safe(lint.summaryLine)) }
    }
}
