import Synchronization

/// Time per build phase, summed over every task: `BuildReport.timings`.
final class PhaseClock: Sendable {
    enum Phase: Int, CaseIterable, Sendable {
        case viewModels, markdown, cmark, layout, write, steps, flow, linkCheck, swap

        var name: String {
            switch self {
            case .viewModels: "walk and view models"
            case .markdown: "Markdown"
            case .cmark: "cmark"
            case .layout: "layout"
            case .write: "write"
            case .steps: "build steps"
            case .flow: "flow lint and map"
            case .linkCheck: "link check"
            case .swap: "swap"
            }
        }
    }

    // One atomic per phase, not one lock: pages add from every core. Stored fields, not an array of boxes:
    // retaining shared boxes would make the cores trade their cache lines.
    private let viewModels = Atomic<Int64>(0)
    private let markdown = Atomic<Int64>(0)
    private let cmark = Atomic<Int64>(0)
    private let layout = Atomic<Int64>(0)
    private let write = Atomic<Int64>(0)
    private let steps = Atomic<Int64>(0)
    private let flow = Atomic<Int64>(0)
    private let linkCheck = Atomic<Int64>(0)
    private let swap = Atomic<Int64>(0)
    private let clock = ContinuousClock()

    init() {}

    func measure<T>(_ phase: Phase, _ body: () throws -> T) rethrows -> T {
        let start = clock.now
        defer { add(phase, clock.now - start) }
        return try body()
    }

    func add(_ phase: Phase, _ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let nanoseconds = seconds * 1_000_000_000 + attoseconds / 1_000_000_000
        _ = withCounter(phase) { $0.add(nanoseconds, ordering: .relaxed) }
    }

    /// In the order of a build.
    var seconds: [BuildReport.Timing] {
        Phase.allCases.map { phase in
            BuildReport.Timing(
                phase: phase.name, seconds: Double(withCounter(phase) { $0.load(ordering: .relaxed) }) / 1e9)
        }
    }

    private func withCounter<T>(_ phase: Phase, _ body: (borrowing Atomic<Int64>) -> T) -> T {
        switch phase {
        case .viewModels: body(viewModels)
        case .markdown: body(markdown)
        case .cmark: body(cmark)
        case .layout: body(layout)
        case .write: body(write)
        case .steps: body(steps)
        case .flow: body(flow)
        case .linkCheck: body(linkCheck)
        case .swap: body(swap)
        }
    }
}
