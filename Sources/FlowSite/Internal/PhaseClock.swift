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

    /// One counter per phase, in `Phase` order: every page adds to several phases from both
    /// cores, and a lock taken six times a page was contended often enough to show in profiles.
    private let nanoseconds: [Total]
    private let clock = ContinuousClock()

    package init() {
        nanoseconds = Phase.allCases.map { _ in Total() }
    }

    /// Runs `body` and adds its time to `phase`.
    package func measure<T>(_ phase: Phase, _ body: () throws -> T) rethrows -> T {
        let start = clock.now
        defer { add(phase, clock.now - start) }
        return try body()
    }

    package func add(_ phase: Phase, _ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        nanoseconds[phase.rawValue].value.add(seconds * 1_000_000_000 + attoseconds / 1_000_000_000, ordering: .relaxed)
    }

    /// Seconds per phase, in the order of a build.
    package var seconds: [(phase: String, seconds: Double)] {
        Phase.allCases.map { ($0.name, Double(nanoseconds[$0.rawValue].value.load(ordering: .relaxed)) / 1e9) }
    }

    /// A phase's nanoseconds (atomics can't be copied into an array themselves).
    private final class Total: Sendable {
        let value = Atomic<Int64>(0)
    }
}
