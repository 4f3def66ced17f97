import ArgumentParser
import FlowSite
import Foundation

/// `diff`: what a change did to the site, grouped by screen kind.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Report what changed between two builds of the site: pages, their text, links, the flow and its lint, other files.",
        discussion: """
            Compares two folders the site's `build` made. Pages whose fingerprints match are not \
            read. --format markdown makes a pull-request comment. Exits 0 when the sites are the \
            same, 1 when they differ, 2 on error.
            """
    )

    @Argument(help: ArgumentHelp("The site before the change (a folder `build` made).", valueName: "old"))
    var oldSite: String

    @Argument(help: ArgumentHelp("The site after the change.", valueName: "new"))
    var newSite: String

    @OptionGroup var report: DiffReportOptions

    func run() async throws {
        let comparison = try SiteComparison(old: URL(fileURLWithPath: oldSite), new: URL(fileURLWithPath: newSite))
        try report.write(comparison)
    }
}

/// How `diff` reports: its format, links to the published sides, and where it writes.
@_spi(Engine) public struct DiffReportOptions: ParsableArguments {
    public enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
        case text, markdown, json
    }

    @Option(name: .shortAndLong, help: ArgumentHelp("text (for a terminal), markdown (for a pull-request comment) or json.", valueName: "format"))
    public var format: Format = .text

    @Option(help: ArgumentHelp("Where the old site is published, so each page named links to its before.", valueName: "url"))
    public var oldURL: String?

    @Option(help: ArgumentHelp("Where the new site is published, so each page named links to its after.", valueName: "url"))
    public var newURL: String?

    @Option(help: ArgumentHelp("Pages named per list before \"and N more\" (default 5).", valueName: "n"))
    public var limit = 5

    @Option(name: .shortAndLong, help: ArgumentHelp("A file to write the report to (default: standard output).", valueName: "file"))
    public var output: String?

    public init() {}

    public func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be 1 or more, not \(limit).") }
        for case let (name, url?) in [("--old-url", oldURL), ("--new-url", newURL)] where URL(string: url)?.scheme == nil {
            throw ValidationError("\(name) '\(url)' is not an absolute URL; write it like https://example.com/site/.")
        }
    }

    /// Compares the built sites `old` and `new` (page by page, by screen kind) and writes the
    /// report; throws exit code 1 when they differ.
    public func write(comparing old: URL, with new: URL) throws {
        try write(SiteComparison(old: old, new: new))
    }

    /// Writes the report of `comparison` and throws exit code 1 when the sites differ.
    package func write(_ comparison: SiteComparison) throws {
        let options = SiteComparison.ReportOptions(limit: limit, oldURL: oldURL, newURL: newURL)
        let report = switch format {
        case .text: comparison.text(options)
        case .markdown: comparison.markdown(options)
        case .json: comparison.json()
        }
        try ReportOutput.write(report, to: output, forTerminal: format == .text)
        if let output { print(TerminalText.safe("\(comparison.summaryLine); wrote the \(format.rawValue) report to \(output)")) }
        if !comparison.isEqual { throw ExitCode(1) }
    }
}
