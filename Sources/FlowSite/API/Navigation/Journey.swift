/// A path a reader takes through the app, which the app declares (``RootCoordinator/journeys``) and every build
/// checks against its walk: from a start route, each step a link the reader follows on the page the previous
/// step reached.
///
/// A step names a link by what the page shows (its label) or, when the label is data, by the route it leads to;
/// it may state how the link is presented and what the page it reaches shows. A journey that breaks is a build
/// warning and a `journey-broken` finding at the journey's line, naming the step, the page and the links it has.
///
/// ```swift
/// var journeys: [Journey<AppRoute>] {
///     [
///         Journey("Sign in to like an item", from: .home, steps: [
///             .follow(to: .item(1)),
///             .follow("Sign in", as: .modal, title: "Sign in"),
///         ]),
///         Journey("Open the saved items", from: .home, steps: [.tab("Saved", ending: .emptyState)]),
///     ]
/// }
/// ```
public struct Journey<R: Route>: Sendable {
    /// What the journey is, in the team's words: "Read a film's planets".
    public var name: String
    /// The page the reader starts on.
    public var start: R
    /// The links followed, in order.
    public var steps: [Step]
    /// Where the journey is declared, where its finding points.
    public var location: CodeLocation

    /// A journey named `name` from `start` through `steps`, located at the caller.
    public init(
        _ name: String, from start: R, steps: [Step], fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line
    ) {
        self.name = name
        self.start = start
        self.steps = steps
        location = CodeLocation(fileID: fileID, filePath: filePath, line: line)
    }

    /// One link the reader follows, and what the page it reaches shows.
    public struct Step: Sendable, Hashable {
        enum Link: Sendable, Hashable {
            case label(String), route(R), tab(String)
        }

        let link: Link
        /// How the app presents the link (push, dialog…); `nil` takes any.
        public let presentation: Presentation?
        /// The title the page reached has; `nil` expects none in particular.
        public let title: String?
        /// How the page reached ends its flow (``Page/Ending/emptyState`` for its empty state); `nil` expects none
        /// in particular.
        public let ending: Page<R>.Ending?

        /// Follows the link whose text is `label` (the first, when several are).
        public static func follow(
            _ label: String, as presentation: Presentation? = nil, title: String? = nil, ending: Page<R>.Ending? = nil
        ) -> Step {
            Step(link: .label(label), presentation: presentation, title: title, ending: ending)
        }

        /// Follows the link to `route`: for a link whose text is data.
        public static func follow(
            to route: R, as presentation: Presentation? = nil, title: String? = nil, ending: Page<R>.Ending? = nil
        ) -> Step {
            Step(link: .route(route), presentation: presentation, title: title, ending: ending)
        }

        /// Selects the tab bar's item labelled `label` (``SiteInfo/navigation``), there on every page.
        public static func tab(_ label: String, title: String? = nil, ending: Page<R>.Ending? = nil) -> Step {
            Step(link: .tab(label), presentation: nil, title: title, ending: ending)
        }
    }
}
