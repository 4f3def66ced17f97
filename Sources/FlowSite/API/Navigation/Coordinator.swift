import Foundation

/// Owns navigation for a set of routes: which screen shows a route, and how a route is presented.
///
/// The site walker follows every link by calling ``navigate(_:from:in:)`` with itself as the ``Navigator``,
/// so a link leads where the app's own navigation code goes.
public protocol Coordinator<R>: Sendable {
    /// The app's route type: the routes this coordinator makes screens for and presents.
    associatedtype R: Route

    /// Makes the screen for `route`, building its view model through a factory.
    func makeScreen(for route: R) async throws -> any Screen<R>

    /// The user followed `action` on `source`'s page: show exactly the action's route, once, on `navigator`,
    /// through the same code a tap runs. The default shows it as ``presentation(of:from:)`` says.
    func navigate(_ action: NavigationAction<R>, from source: R, in navigator: some Navigator<R>)

    /// How `route` is presented when reached from `source`, for coordinators that keep the
    /// default ``navigate(_:from:in:)``. The default is ``Presentation/push``.
    func presentation(of route: R, from source: R) -> Presentation

    /// A screen that explains a failure to build `route`'s screen, or `nil` (the default) to fail the build.
    func errorScreen(for route: R, error: any Error) -> (any Screen<R>)?

    /// The navigation stack `route` starts when presented as ``Presentation/root`` (what a deep link to it
    /// builds), ending with `route`. The default is the route alone.
    func rootStack(for route: R) -> [R]
}

extension Coordinator {
    public func navigate(_ action: NavigationAction<R>, from source: R, in navigator: some Navigator<R>) {
        navigator.show(action.route, as: presentation(of: action.route, from: source))
    }

    public func presentation(of route: R, from source: R) -> Presentation { .push }

    public func errorScreen(for route: R, error: any Error) -> (any Screen<R>)? { nil }

    public func rootStack(for route: R) -> [R] { [route] }
}

/// The app's top coordinator: where navigation starts and what every page shares.
public protocol RootCoordinator<R>: Coordinator {
    /// The first screen: the site's front page.
    var startRoute: R { get }
    /// The site's name, language, footer and top navigation.
    var siteInfo: SiteInfo<R> { get }
    /// The search index the site publishes with its filter script, or `nil` (the default) for none.
    var search: SiteSearch<R>? { get }
    /// The app's flow lint settings: rules turned off, suppressed findings, the deepest click depth allowed.
    /// The default runs every rule but those off by default (``FlowLintRule/isOnByDefault``).
    var flowLint: FlowLintConfiguration { get }
    /// The app's deep links and their parser, checked against every page's route; `nil` (the default) for none.
    var deepLinks: DeepLinks<R>? { get }
    /// The paths readers take through the app, each checked against every build's walk (`journey-broken`); the
    /// default is none.
    var journeys: [Journey<R>] { get }
    /// An example route of every kind of screen this configuration of the app can show, for `unreachable-screen`.
    /// The default is ``Route/screenKindExamples``; an app with two configurations leaves out the other's kinds.
    var declaredScreens: [R] { get }

    /// The reader selected `tab` in the tab bar (``SiteInfo/navigation``): show its route on `navigator`.
    /// Never passed to ``Coordinator/navigate(_:from:in:)`` and independent of the page, so the walker follows
    /// each tab once. The default shows the route as ``Presentation/root``.
    func selectTab(_ tab: NavigationAction<R>, in navigator: some Navigator<R>)
}

extension RootCoordinator {
    public var search: SiteSearch<R>? { nil }

    public var deepLinks: DeepLinks<R>? { nil }

    public var declaredScreens: [R] { R.screenKindExamples }

    public var journeys: [Journey<R>] { [] }

    public func selectTab(_ tab: NavigationAction<R>, in navigator: some Navigator<R>) {
        navigator.show(tab.route, as: .root)
    }

    public var flowLint: FlowLintConfiguration { FlowLintConfiguration() }

    /// Starts the app: shows the start route as the root of the navigation stack.
    public func start(in navigator: some Navigator<R>) {
        navigator.show(startRoute, as: .root)
    }
}

/// What every page of a site shares.
public struct SiteInfo<R: Route>: Sendable {
    /// The site's name, shown in the header and page titles.
    public var name: String
    /// The pages' language, such as `en`.
    public var language: String
    /// The footer text.
    public var footer: String
    /// The app's tab bar or other site-wide navigation, shown on every page but dialogs. Selecting a tab goes
    /// through ``RootCoordinator/selectTab(_:in:)``, not ``Coordinator/navigate(_:from:in:)``.
    public var navigation: [NavigationAction<R>]
    /// The templates' words by key, in the site's language, read as `{{labels.previous}}`; a missing key reads
    /// as in ``defaultLabels`` (English), and a build in another language warns once about missing keys.
    public var labels: [String: String]
    /// The language a text is shown in when the site's language lacks it, for a build that falls back instead
    /// of failing; pages then note such texts (``StringTable/shownInFallbackLanguage(_:)``). `nil` when unused.
    public var fallbackLanguage: String?
    /// Writes a count as the site's language does ("1,234", "1.234"); `nil` groups thousands with commas.
    public var formatsCount: (@Sendable (Int) -> String)?
    /// The locale the search script counts its results in (`en-GB`), when not the site's language's.
    public var numberLocale: String?
    /// What else every page depends on that the program does not carry, such as the fingerprint of a string
    /// table the app reads at run time: when it changes, every page is made again. `nil` when there is none.
    public var revision: String?

    /// What every page of a site named `name` shares; `labels` go over ``defaultLabels``.
    public init(
        name: String, language: String = "en", footer: String = "", navigation: [NavigationAction<R>] = [],
        labels: [String: String] = [:]
    ) {
        self.name = name
        self.language = language
        self.footer = footer
        self.navigation = navigation
        self.labels = labels
    }

    /// The built-in templates' English words, flow lint's findings and notes (the `lint…` keys) included.
    public static var defaultLabels: [String: String] { Wording.site }

    /// The label for `key`, with the defaults under the app's own.
    func label(_ key: String, _ values: [String: String] = [:]) -> String {
        Wording(labels).text(key, values)
    }

    /// The labels whose text depends on a count: one entry per CLDR plural category (`key.one`, `key.other`…).
    public static var countedLabels: [String] { Wording.counted }

    /// The counted label `key` in the form `count` takes by `rules`: `key.<category>`, else `key.other`.
    func label(_ key: String, count: Int, rules: PluralRules?, _ values: [String: String] = [:]) -> String {
        Wording(labels, rules: rules).text(key, count: count, values)
    }

    /// The search script's words as JSON for its `data-messages` (see `search.js`), or `nil`
    /// when they are its own English ones and the locale is the language's.
    var searchMessages: String? {
        let all = allLabels
        let defaults = Self.defaultLabels
        let keys = ["searchNoResults"] + PluralRules.Category.allCases.map { "searchResults.\($0.rawValue)" }
        guard numberLocale != nil || keys.contains(where: { all[$0] != defaults[$0] }) else { return nil }
        var results: [String: String] = [:]
        for category in PluralRules.Category.allCases {
            if let text = all["searchResults.\(category.rawValue)"] { results[category.rawValue] = text }
        }
        var object: [String: Any] = ["noResults": all["searchNoResults"] ?? "", "results": results]
        if let numberLocale { object["locale"] = numberLocale }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    /// `count` as the site's language writes it (see ``formatsCount``).
    func number(_ count: Int) -> String {
        formatsCount?(count) ?? FlowMapSVG.count(count)
    }

    /// Whether the site's language is written right to left (Arabic, Hebrew, `ar-XB`): the layout sets `dir="rtl"`.
    public var isRightToLeft: Bool {
        Locale.Language(identifier: language).characterDirection == .rightToLeft
    }

    /// Every label, the defaults under the app's own.
    var allLabels: [String: String] { Self.defaultLabels.merging(labels) { _, own in own } }
}

/// Receives navigation, like a navigation controller: the site walker is one, and tests use a recording one.
public protocol Navigator<R>: Sendable {
    /// The app's route type: what the navigator is asked to show.
    associatedtype R: Route
    /// Shows `route` with the given presentation; `location` is the app's code that asked
    /// (apps call ``show(_:as:fileID:filePath:line:)``, which fills it in).
    func show(_ route: R, as presentation: Presentation, at location: CodeLocation)
}

extension Navigator {
    /// Shows `route`, recording the caller's file and line as the place that chose this transition.
    /// A helper that presents routes for its callers can take the same defaulted arguments and pass them on.
    public func show(
        _ route: R, as presentation: Presentation, fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line
    ) {
        show(route, as: presentation, at: CodeLocation(fileID: fileID, filePath: filePath, line: line))
    }
}
