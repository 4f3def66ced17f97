import FlowSite
import FlowSiteUtilities
import Testing

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

    private let state: Locked<(steps: [Step], stack: [R], selectingTab: Bool, source: R?)>

    /// A navigator showing `stack` (bottom first; empty by default, before the app starts).
    public init(stack: [R] = []) {
        state = Locked(([], stack, false, nil))
    }

    public func show(_ route: R, as presentation: Presentation, at location: CodeLocation) {
        let (top, fromTabBar) = state.withLock { state in
            let top = state.source ?? state.stack.last
            state.steps.append(Step(route, presentation))
            state.stack = presentation.stack(presenting: route, over: state.stack)
            return (top, state.selectingTab)
        }
        FlowCoverageRecorder.current?.show(route, as: presentation, over: fromTabBar ? nil : top, tab: fromTabBar)
    }

    /// Follows `action` on `source`'s screen as a tap does: runs `coordinator`'s
    /// `Coordinator.navigate(_:from:in:)` on this navigator. Flow coverage records what it shows from `source`,
    /// the screen the test says it taps on; when the stack's top is another route (a navigator reused from an
    /// earlier step, a stack that starts elsewhere), the test gets a warning naming both, as the transition the
    /// stack implies is not the app's.
    ///
    /// ```swift
    /// let navigator = RecordingNavigator<AppRoute>(stack: [.home, .characters])
    /// navigator.follow(NavigationAction("Luke", to: .character(1)), from: .characters, on: flow)
    /// ```
    public func follow<C: Coordinator>(
        _ action: NavigationAction<R>, from source: R, on coordinator: C,
        sourceLocation: SourceLocation = #_sourceLocation
    ) where C.R == R {
        let top = state.withLock { state in
            state.source = source
            return state.stack.last
        }
        defer { state.withLock { $0.source = nil } }
        if let top, top != source, FlowCoverageRecorder.current != nil {
            Issue.record(
                """
                The test follows '\(action.label)' from \(source.path) (\(source.screenKind.id)), but the navigator's \
                stack has \(top.path) (\(top.screenKind.id)) on top: flow coverage records it from \
                \(source.screenKind.id). Start the navigator on the source's stack (RecordingNavigator(stack:)) or \
                use a new one for each step.
                """, severity: .warning, sourceLocation: sourceLocation)
        }
        coordinator.navigate(action, from: source, in: self)
    }

    /// Selects `tab` in the tab bar, as a tap does: runs `coordinator`'s `RootCoordinator.selectTab(_:in:)` on this
    /// navigator, and flow coverage records what it shows from the tab bar (`FlowGraph.Coverage.tabBar`), as the
    /// map, lint and the graph name a tab selection, whatever page is on top.
    ///
    /// ```swift
    /// navigator.selectTab(NavigationAction("Settings", to: .settings), on: app)  // Tab bar → Settings, root
    /// ```
    public func selectTab<C: RootCoordinator>(_ tab: NavigationAction<R>, on coordinator: C) where C.R == R {
        state.withLock { $0.selectingTab = true }
        defer { state.withLock { $0.selectingTab = false } }
        coordinator.selectTab(tab, in: self)
    }

    /// Everything shown, in order.
    public var shown: [Step] { state.withLock { $0.steps } }

    /// The navigation stack: the one it started with, as the calls changed it.
    public var stack: [R] { state.withLock { $0.stack } }
}
