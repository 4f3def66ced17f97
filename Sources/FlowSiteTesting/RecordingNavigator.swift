import FlowSite
import FlowSiteUtilities

/// A navigator that remembers what it was asked to show: the stand-in for a mocked navigation controller in
/// coordinator tests. Under ``FlowCoverageTrait``, each call is a transition the test takes, from the kind on top
/// of the stack to the kind shown. A call on an empty stack (the app's start) is none: start on a screen with
/// ``init(stack:)``.
///
/// ```swift
/// let navigator = RecordingNavigator<AppRoute>(stack: [.home, .characters])
/// flow.show(.character(1), from: .characters, in: navigator)  // Character list → Character, push
/// #expect(navigator.shown == [.init(.character(1), .push)])
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

    /// The navigation stack: the one it started with, as the calls changed it.
    public var stack: [R] { state.withLock { $0.stack } }
}
