import Foundation

/// An app's deep links: the URL that opens each screen, and the app's own parser that turns a
/// URL back into a route. A ``RootCoordinator`` that declares them (``RootCoordinator/deepLinks``)
/// has them checked offline against the whole flow, every build and lint:
///
/// - every page's route makes a link that the parser reads back as the same route
///   (`deep-link-round-trip`, an error); a route without a link, of a kind whose other pages
///   have one, is reported (`unlinkable-route`), and a kind no link opens is not deep-linkable;
/// - unknown links (``unknownLinks`` and ones made from each kind's link by adding a path
///   segment no route has) land on the app's not-found screen: the parser returns `nil` or
///   ``notFound`` (`unknown-deep-link`);
/// - the flow map marks the kinds a deep link opens.
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
    /// The route the app shows for a link it doesn't know, when it shows one rather than
    /// returning `nil`.
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
