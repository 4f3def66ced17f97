import ArgumentParser
import FlowSite
import Foundation

/// `diff`: what a change did to the site, grouped by screen kind.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: """
            Report what changed between two builds of the site: pages, their text, links, the flow and its lint, \
            other files.
            """,
        discussion: """
            Compares two folders the site's `build` made. Pages whose fingerprints match are not \
            read. --format markdown makes a pull-request comment; --format html (or --html-report \
            beside another format) a review page with the flow drawn before and after. Exits 0 \
            when the sites are the same, 1 when they differ, 2 on error.
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
public struct DiffReportOptions: ParsableArguments {
    /// The report's format, as `--format` takes it.
    public enum Format: String, ExpressibleByArgument, CaseIterable, Sendable {
        /// For a terminal.
        case text
        /// For a pull-request comment.
        case markdown
        /// For tools.
        case json
        /// A review page with the changed part of the flow drawn.
        case html
    }

    /// `--format`: text by default.
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            """
            text (for a terminal), markdown (for a pull-request comment), json, or html (a review page with the \
            flow drawn).
            """,
            valueName: "format"))
    public var format: Format = .text

    /// `--old-url`: where the old site is published, so pages named link to their before.
    @Option(
        help: ArgumentHelp("Where the old site is published, so each page named links to its before.", valueName: "url")
    )
    public var oldURL: String?

    /// `--new-url`: where the new site is published, so pages named link to their after.
    @Option(
        help: ArgumentHelp("Where the new site is published, so each page named links to its after.", valueName: "url"))
    public var newURL: String?

    /// `--limit`: how many pages a list names before "and N more".
    @Option(help: ArgumentHelp("Pages named per list before \"and N more\" (default 5).", valueName: "n"))
    public var limit = 5

    /// `--output`: the report's file; standard output when `nil`.
    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("A file to write the report to (default: standard output).", valueName: "file"))
    public var output: String?

    /// `--html-report`: a file for the HTML review page besides the report.
    @Option(
        help: ArgumentHelp(
            """
            Also write the HTML review page to this file, whatever --format is; a Markdown --output in the same \
            folder links to it.
            """,
            valueName: "file"))
    public var htmlReport: String?

    /// `--review-url`: where the review page is published, for the Markdown report to link.
    @Option(
        help: ArgumentHelp(
            "Where the review page will be published, for the Markdown report to link to it.", valueName: "url"))
    public var reviewURL: String?

    public init() {}

    public func validate() throws {
        guard limit >= 1 else { throw ValidationError("--limit must be 1 or more, not \(limit).") }
        for case let (name, url?) in [("--old-url", oldURL), ("--new-url", newURL)]
        where URL(string: url)?.scheme == nil {
            throw ValidationError("\(name) '\(url)' is not an absolute URL; write it like https://example.com/site/.")
        }
    }

    /// Compares the built sites `old` and `new` and writes the report; throws exit code 1 when they differ.
    public func write(comparing old: URL, with new: URL) throws {
        try write(SiteComparison(old: old, new: new))
    }

    /// Writes the report of `comparison` and throws exit code 1 when the sites differ.
    package func write(_ comparison: SiteComparison) throws {
        let options = SiteComparison.ReportOptions(
            limit: limit, oldURL: oldURL, newURL: newURL, reviewURL: reviewURL ?? reviewPageBesideOutput)
        let report: String
        switch format {
        case .text: report = comparison.text(options)
        case .markdown: report = comparison.markdown(options)
        case .json: report = comparison.json()
        case .html: report = try comparison.reviewPage(options)
        }
        try ReportOutput.write(report, to: output, forTerminal: format == .text)
        if let output {
            print(TerminalText.safe("\(comparison.summaryLine); wrote the \(format.rawValue) report to \(output)"))
        }
        if let htmlReport {
            try ReportOutput.write(try comparison.reviewPage(options), to: htmlReport, forTerminal: false)
            print(TerminalText.safe("Wrote the review page to \(htmlReport)"))
        }
        if !comparison.isEqual { throw ExitCode(1) }
    }

    /// The review page's path from the report's folder when it is in or below it, for the Markdown report's link.
    var reviewPageBesideOutput: String? {
        guard let htmlReport, let output else { return nil }
        let folder = URL(fileURLWithPath: output).standardizedFileURL.deletingLastPathComponent().path
        let page = URL(fileURLWithPath: htmlReport).standardizedFileURL.path
        guard page.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/") else { return nil }
        return String(page.dropFirst(folder.hasSuffix("/") ? folder.count : folder.count + 1))
    }
}
