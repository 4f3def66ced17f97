import ArgumentParser
import FlowSite
import FlowSiteCommandLine
import Foundation
import HolocronKit

/// `holocron check`: builds afresh into a temporary folder and compares it with a site on disk,
/// for CI jobs that keep a built site under version control.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check that a built site is up to date: build it afresh, check every link, compare file by file.",
        discussion: """
            Give the same data, templates and base URL as the build that made the site. Exits 0 \
            when every file is the same, 1 with the changed, missing and extra files otherwise. \
            The site itself is never written.
            """
    )

    @Option(help: ArgumentHelp("The built site to check.", valueName: "dir"))
    var site: String = "site"

    @OptionGroup var options: SiteOptions

    @OptionGroup(title: "App")
    var app: StarWarsOptions

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func run() async throws {
        let build = options.action(app: StarWarsSite(options: app), output: site, force: true, quiet: quiet)
        let result = try await Self.check(URL(fileURLWithPath: site), against: build)
        guard result.differences.isEmpty else {
            var message = "\(site) is not what a build makes now:\n"
            message += result.differences.map { "  \($0)\n" }.joined()
            message += "Run `holocron build --output \(site)` with the same options, and commit the result."
            FileHandle.standardError.write(Data((TerminalText.safe(message) + "\n").utf8))
            throw ExitCode(1)
        }
        if !quiet {
            print(
                """
                \(site) is up to date: \(result.report.pages) pages, \(result.report.files) files, \
                \(result.report.links) links checked
                """
            )
        }
    }

    /// Builds afresh into a temporary folder (link check included) and compares it with `site`
    /// file by file: the fresh build's report, and one line per changed, missing or extra file.
    /// The site itself is never written.
    static func check(
        _ site: URL, against build: BuildAction
    ) async throws -> (report: BuildReport, differences: [String]) {
        var build = build
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "holocron-check-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        build.output = scratch
        build.force = true
        let report = try await build.run()
        return (report, try SiteDifference(expected: scratch, actual: site).lines())
    }
}
