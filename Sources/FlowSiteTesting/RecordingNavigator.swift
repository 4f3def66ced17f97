import FlowSite

/// A navigator that remembers what it was asked to show: the site's stand-in for a mocked
/// navigation controller in coordinator tests.
///
/// ```swift
/// let navigator = RecordingNavigator<AppRoute>()
/// coordinator.start(in: navigator)
/// #expect(navigator.shown == [.init(.home, .root)])
/// ```
public final class RecordingNavigator<R: Route>: Navigator, Sendable {
    /// One call to ``show(_:as:at:)``.
    public struct Step: Hashable, Sendable, CustomStringConvertible {
        public let route: R
        public let presentation: Presentation

        public init(_ route: R, _ presentation: Presentation) {
            self.route = route
            self.presentation = presentation
        }

        public var description: String { "\(presentation) \(route)" }
    }

    private let steps = Locked<[Step]>([])

    public init() {}

    public func show(_ route: R, as presentation: Presentation, at location: CodeLocation) {
        steps.withLock { $0.append(Step(route, presentation)) }
    }

    /// Everything shown, in order.
    public var shown: [Step] { steps.withLock { $0 } }

    /// The navigation stack the calls have built, the way a navigation controller keeps it.
    public var stack: [R] {
        steps.withLock { steps in
            steps.reduce(into: [R]()) { stack, step in
                stack = step.presentation.stack(presenting: step.route, over: stack)
            }
        }
    }
}
