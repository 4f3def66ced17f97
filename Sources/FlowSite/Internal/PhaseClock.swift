import Synchronization

/// Time spent per phase of a build, summed over every task that worked on it: what
/// `BuildReport.timings` reports.
package final class PhaseClock: Sendable {
    package enum Phase: Int, CaseIterable, Sendable {
        case viewModels, markdown, cmark, layout, write, steps, linkCheck, swap

        package var name: String {
            switch self {
            case .viewModels: "walk and view models"
            case .markdown: "Markdown"
            case .cmark: "cmark"
            case .layout: "layout"
            case .write: "write"
            case .steps: "build steps"
            case .linkCheck: "link check"
            case .swap: "swap"
            }
        }
    }

    private let nanoseconds = Mutex([Int64](repeating: 0, count: Phase.allCases.count))
    private let clock = ContinuousClock()

    package init() {}

    /// Runs `body` and adds its time to `phase`.
    package func measure<T>(_ phase: Phase, _ body: () throws -> T) rethrows -> T {
        let start = clock.now
        defer { add(phase, clock.now - start) }
        return try body()
    }

    package func add(_ phase: Phase, _ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        nanoseconds.withLock { $0[phase.rawValue] += seconds * 1_000_000_000 + attoseconds / 1_000_000_000 }
    }

    /// Seconds per phase, in the order of a build.
    package var seconds: [(phase: String, seconds: Double)] {
        let totals = nanoseconds.withLock { $0 }
        return Phase.allCases.map { ($0.name, Double(totals[$0.rawValue]) / 1e9) }
    }
}
