import FlowSiteUtilities
import Foundation

/// What a build did, for the one-line summary.
public struct BuildReport: Sendable, CustomStringConvertible {
    /// Pages written, one per reachable route.
    public let pages: Int
    /// Pages rendered; the others were the previous build's, unchanged.
    public let rendered: Int
    /// Navigation edges the walker followed.
    public let edges: Int
    /// Internal links and asset references checked.
    public let links: Int
    /// Files written, pages included.
    public let files: Int
    /// Bytes written.
    public let bytes: Int
    /// Files whose bytes were the same as in the previous site.
    public let unchangedFiles: Int
    /// Screens that showed their error screen.
    public let warnings: [String]
    /// How long the build took.
    public let duration: Duration
    /// Seconds per phase, summed over the tasks that worked on it in parallel.
    public var timings: [Timing] = []
    /// Whether `sitemap.xml` was written: only with a base URL, as a sitemap's locations must be absolute.
    public let sitemap: Bool
    /// The app's flow as screen kinds and transitions; `nil` when nothing was built.
    public var flow: FlowGraph?
    /// What flow lint found; `nil` when nothing was built.
    public var flowLint: FlowLintReport?
    /// Flow lint's one-line summary and active finding count: of this build, or for an up-to-date site, of the
    /// build that made it.
    public var flowLintSummary: FlowLintSummary? {
        flowLint.map { FlowLintSummary(findings: $0.active.count, line: $0.summaryLine) } ?? recordedFlowLint
    }
    /// What the site's manifest says the build that made it found, for an up-to-date site.
    var recordedFlowLint: FlowLintSummary?
    /// Pages an edit took from the last build's journal without a walk (part of the pages not ``rendered``).
    public var replayed: Int = 0
    /// The app's links out of the site a full build's pages have (``MarkdownDocument/Inline/externalLink(_:url:)``):
    /// checked to be absolute `https`, `http` or `mailto` URLs, but never followed, so the link check, which reads
    /// the site's own files, leaves them out; the summary line says how many, and `build --check-external-links`
    /// asks each.
    public var externalLinks: Int = 0
    /// Whether the command line checks the links out of the site after the build, and says so itself.
    package var checksExternalLinks = false
    /// A multilingual site's languages, in order, each with how many of its pages showed fallback text.
    public var languages: [Language] = []

    /// The seconds a build spent in one phase.
    public struct Timing: Sendable, Hashable {
        /// The phase: `walk`, `markdown`, `render`, `write`, `steps`, `links`, `swap`, and what a caller adds.
        public var phase: String
        /// Its seconds, summed over the tasks that worked on it at once.
        public var seconds: Double

        /// The seconds spent in `phase`.
        public init(phase: String, seconds: Double) {
            self.phase = phase
            self.seconds = seconds
        }
    }

    /// One language of a multilingual site.
    public struct Language: Sendable, Hashable {
        /// Its code, which is also its folder: `es` for `es/`.
        public var code: String
        /// How many of its pages showed text in the fallback language.
        public var fallbackPages: Int

        /// The language with `code`, `fallbackPages` of whose pages fell back.
        public init(code: String, fallbackPages: Int) {
            self.code = code
            self.fallbackPages = fallbackPages
        }
    }

    /// Flow lint's result in brief.
    public struct FlowLintSummary: Sendable, Hashable {
        /// Active findings.
        public var findings: Int
        /// The one-line summary, such as `1 warning (dead-end 1), 1 suppressed`.
        public var line: String

        /// A summary of `findings` active findings, told by `line`.
        public init(findings: Int, line: String) {
            self.findings = findings
            self.line = line
        }
    }

    /// Whether the site was already up to date: nothing was walked, rendered or written.
    public var isUpToDate: Bool { rendered == 0 && edges == 0 && unchangedFiles == files }

    /// One line: pages, links, bytes and seconds, and what was left out.
    public var description: String {
        let seconds = duration.timeInterval
        let kilobytes = Double(bytes) / 1024
        if isUpToDate {
            return "Up to date: " + count("countPages", pages) + " (" + count("countFiles", files)
                + """
                , \(String(format: "%.1f", kilobytes)) KiB), nothing written, \
                checked in \(String(format: "%.2f", seconds)) s
                """
        }
        let languages =
            languages.isEmpty
            ? "" : " in \(languages.count) languages (\(languages.map(\.code).joined(separator: ", ")))"
        var line =
            "Built " + count("countPages", pages) + languages + " (\(rendered) rendered, " + count("countFiles", files)
            + ", \(String(format: "%.1f", kilobytes)) KiB, \(unchangedFiles) files unchanged), checked "
            + count("countLinks", links) + " in \(String(format: "%.2f", seconds)) s"
        if externalLinks > 0, !checksExternalLinks {
            line += "; " + count("countLinks", externalLinks) + " out of the site not checked"
        }
        if replayed > 0 {
            line += "; " + count("countPages", pages - replayed) + " made again, the others kept as they were"
        }
        return sitemap ? line : line + "; no sitemap.xml without a base URL"
    }

    /// "1 page", "291 pages".
    private func count(_ key: String, _ value: Int) -> String { Wording.english(key, count: value) }
}
