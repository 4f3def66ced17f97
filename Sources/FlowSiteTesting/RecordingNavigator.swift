import FlowSite

/// A navigator that remembers what it was asked to show: the site's stand-in for a mocked
/// navigation controller in coordinator tests.
///
/// ```swift
/// let navigator = RecordingNavigator<AppRoute>()
/// coordinator.start(in: navigator)
/// #expect(navigator.shown == [.init(.home, .root)])
/// ```
///
/// Under the ``FlowCoverageTrait`` (`@Suite(.flowCoverage())`), each call is also a transition
/// of the app's flow the test takes: from the kind of the screen on top of the stack before the
/// call to the kind of the route shown, with its presentation. A call on an empty stack (the
/// app's start) is no transition. A test that starts on some screen says so with
/// ``init(stack:)``, as a navigation controller that already shows it:
///
/// ```swift
/// let navigator = RecordingNavigator<AppRoute>(stack: [.home, .characters])
/// flow.show(.character(1), from: .characters, in: navigator)  // Character list → Character, push
/// ```
public final class RecordingNavigator<R: Route>: Navigator, Sendable {
    /// One call to ``show(_:as:at:)``.
    public struct Step: Hashable, Sendable, CustomStringConvertible {
        /// The route shown.
        public let route: R
        /// How it was shown.
        public let presentation: Presentation

        /// A step that showed `route` as `presentation`, to compare with ``RecordingNavigator/shown``.
        public init(_ route: R, _ presentation: Presentation) {
            self.route = route
            self.presentation = presentation
        }

        public var description: String { "\(presentation) \(route)" }
    }

    private let state: Locked<(steps: [Step], stack: [R])>

    /// A navigator showing `stack` (bottom first; empty by default, before the app starts).
    public init(stack: [R] = []) {
        state = Locked(([], stack))
    }

    public func show(_ route: R, as presentation: Presentation, at location: CodeLocation) {
        let top = state.withLock { state in
            let top = state.stack.last
            state.steps.append(Step(route, presentation))
            state.stack = presentation.stack(presenting: route, over: state.stack)
            return top
        }
        if let top, let recorder = FlowCoverageRecorder.current {
            recorder.record(from: top.screenKind.id, to: route.screenKind.id, presentation: presentation)
        }
    }

    /// Everything shown, in order.
    public var shown: [Step] { state.withLock { $0.steps } }

    /// The navigation stack: the one it started with, and what the calls made of it, the way a
    /// navigation controller keeps it.
    public var stack: [R] { state.withLock { $0.stack } }
}
