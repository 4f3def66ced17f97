import FlowSite
import FlowSiteCommandLine
import Foundation
import SWAPI
import SWAPILive

/// Prints fetch progress to standard error: on a terminal, one line that updates in place with
/// the count of each kind; retries on lines of their own; a summary at the end.
public final class ProgressReporter: Sendable {
    private let quiet: Bool
    private let isTerminal: Bool
    private let counts = Locked<[ResourceKind: (Int, Int?)]>([:])

    public init(quiet: Bool, isTerminal: Bool = isatty(STDERR_FILENO) == 1) {
        self.quiet = quiet
        self.isTerminal = isTerminal
    }

    func report(_ event: CrawlEvent) {
        guard !quiet else { return }
        switch event {
        case .progress(let kind, let count, let total):
            let line = counts.withLock { counts -> String in
                counts[kind] = (count, total)
                return ResourceKind.allCases.compactMap { kind in
                    counts[kind].map { "\(kind.rawValue) \($0.0)" + ($0.1.map { "/\($0)" } ?? "") }
                }.joined(separator: " · ")
            }
            if isTerminal { write("\r\u{1B}[2KFetching \(line)") }
        case .retrying(let url, let attempt, let of, let reason, let delay):
            let seconds = Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18
            write(
                (isTerminal ? "\r\u{1B}[2K" : "")
                    + """
                    Retrying \(TerminalText.safe("\(url)")) (\(TerminalText.safe("\(reason)"))), \
                    attempt \(attempt) of \(of), in \(String(format: "%.1f", seconds)) s\n
                    """
            )
        case .finished(let statistics):
            let resources = statistics.resources.values.reduce(0, +)
            let seconds =
                Double(statistics.duration.components.seconds) + Double(statistics.duration.components.attoseconds)
                / 1e18
            write(
                (isTerminal ? "\r\u{1B}[2K" : "")
                    + """
                    Fetched \(resources) resources with \(statistics.requests) requests (\(statistics.retries) \
                    retries, \(statistics.cacheHits) from the cache) in \(String(format: "%.2f", seconds)) s\n
                    """
            )
        }
    }

    private func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
