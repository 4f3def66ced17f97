import Foundation

/// An app's deep links: the URL that opens each screen, and the app's own parser that turns a URL back into a
/// route. Declared in ``RootCoordinator/deepLinks``, they are checked every build and lint: each page's link must
/// parse back to its route (`deep-link-round-trip`), and unknown links must land on ``notFound`` or `nil`
/// (`unknown-deep-link`).
///
/// ```swift
/// var deepLinks: DeepLinks<AppRoute>? {
///     DeepLinks(
///         link: { route in route.deepLinkURL },          // nil for screens no link opens
///         route: { url in DeepLinkParser.route(for: url) },  // the app's own parser
///         notFound: .notFound
///     )
/// }
/// ```
public struct DeepLinks<R: Route>: Sendable {
    /// The link that opens `route`, or `nil` when no link opens it.
    public var link: @Sendable (R) -> URL?
    /// The app's parser: the route a link opens, or `nil` for a link it doesn't know.
    public var route: @Sendable (URL) -> R?
    /// The route the app shows for a link it doesn't know, when it shows one rather than returning `nil`.
    public var notFound: R?
    /// Links that must land on the not-found screen, besides the ones the check makes.
    public var unknownLinks: [URL]

    /// The app's deep links: `link` makes a route's URL, `route` is the app's own parser, and
    /// `notFound` and `unknownLinks` say where unknown links must land.
    public init(
        link: @escaping @Sendable (R) -> URL?, route: @escaping @Sendable (URL) -> R?, notFound: R? = nil,
        unknownLinks: [URL] = []
    ) {
        self.link = link
        self.route = route
        self.notFound = notFound
        self.unknownLinks = unknownLinks
    }

    /// The path segment the check adds to a known link to make one that no route has.
    public static var unknownSegment: String { "flowsite-unknown-link" }
}
