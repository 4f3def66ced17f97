/// How a coordinator shows a route: the navigation-stack operation behind a link, which decides the breadcrumbs
/// of the page it leads to.
public enum Presentation: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Starts a new stack, the one ``Coordinator/rootStack(for:)`` gives: a tab, a deep link, Home from anywhere.
    case root
    /// Adds the page over the presenter, as a navigation controller pushes a screen.
    case push
    /// Shows the page as a dialog over the presenter, with a Close link back to it.
    case modal
    /// Takes the place of the page on top, as the next page of a list or another filter does.
    case replace
    /// Goes back to `route`, a page below on the stack: pops pushed pages or dismisses a dialog, as a form's Done
    /// or Cancel does. The map draws it as a return; it never starts a trail, and the page it leads to keeps its own.
    case back

    public var description: String { rawValue }

    /// The navigation stack after presenting `route` over `stack`; going ``back`` to a route that is not on the
    /// stack pops the top page only.
    public func stack<R: Equatable>(presenting route: R, over stack: [R]) -> [R] {
        switch self {
        case .root: [route]
        case .push, .modal: stack + [route]
        case .replace: stack.dropLast() + [route]
        case .back: stack.lastIndex(of: route).map { Array(stack[...$0]) } ?? Array(stack.dropLast())
        }
    }
}

/// Something the user can do on a screen that leads to another screen: a label and a route. View models never
/// build URLs; the coordinator that owns the flow decides how the route is presented.
public struct NavigationAction<R: Route>: Sendable, Hashable {
    /// The text of the link or button.
    public var label: String
    /// Where the action leads.
    public var route: R

    /// An action labelled `label` that leads to `route`.
    public init(_ label: String, to route: R) {
        self.label = label
        self.route = route
    }
}
