import FlowSiteUtilities
import Foundation

/// A long build's progress line on standard error: it appears after `delay`, is redrawn in place at most once per
/// `interval` and is erased at the end, so the summary prints on a clean line.
final class BuildProgressLine: Sendable {
    private struct State {
        var started: Duration = .zero
        var drawn: Duration?
        var visible = false
    }

    /// Moves to the start of the line and clears it.
    static let erase = "\r\u{1B}[2K"

    private let enabled: Bool
    private let delay: Duration
    private let interval: Duration
    private let now: @Sendable () -> Duration
    private let write: @Sendable (String) -> Void
    private let state = Locked(State())

    /// A line drawn, if `enabled`, after `delay` and at most once per `interval`; tests replace `now` and `write`.
    init(
        enabled: Bool,
        delay: Duration = .milliseconds(500),
        interval: Duration = .milliseconds(100),
        now: @escaping @Sendable () -> Duration = BuildProgressLine.monotonicNow,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.enabled = enabled
        self.delay = delay
        self.interval = interval
        self.now = now
        self.write = write
    }

    /// Whether a build should draw the line: standard error is a terminal and the user didn't ask for quiet.
    static func shouldDraw(quiet: Bool) -> Bool {
        !quiet && isatty(STDERR_FILENO) == 1
    }

    /// Time since the process's first call, on a clock that never goes back.
    static let monotonicNow: @Sendable () -> Duration = {
        let origin = ContinuousClock.now
        return { ContinuousClock.now - origin }
    }()

    /// A build begins: the delay and the rate count from now.
    func start() {
        guard enabled else { return }
        let time = now()
        state.withLock { $0 = State(started: time) }
    }

    /// The build reports; suited to ``SiteBuilder/progress``.
    func update(_ update: BuildProgress) {
        guard enabled else { return }
        let time = now()
        state.withLock { state in
            let elapsed = time - state.started
            guard elapsed >= delay else { return }
            // The walk reports every page; a phase change is drawn at once.
            if let drawn = state.drawn, time - drawn < interval, update.phase == "pages" { return }
            state.drawn = time
            state.visible = true
            write(
                Self.erase
                    + Self.text(phase: update.phase, made: update.made, discovered: update.discovered, elapsed: elapsed)
            )
        }
    }

    /// The build ended, however: erases the line if it was drawn.
    func finish() {
        guard enabled else { return }
        state.withLock { state in
            if state.visible { write(Self.erase) }
            state.visible = false
            state.drawn = nil
        }
    }

    /// The line's text, such as `Building: 1200/2807 pages, 950 pages/s, making pages`.
    static func text(phase: String, made: Int, discovered: Int, elapsed: Duration) -> String {
        let seconds = elapsed.timeInterval
        let rate = seconds > 0 ? Int((Double(made) / seconds).rounded()) : 0
        let doing =
            switch phase {
            case "pages": "making pages"
            case "steps": "writing the site's other files"
            case "links": "checking links"
            case "swap": "swapping the new site in"
            default: phase
            }
        return "Building: \(made)/\(max(made, discovered)) pages, \(rate) pages/s, \(TerminalText.safe(doing))"
    }
}
