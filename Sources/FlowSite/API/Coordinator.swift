import Foundation

/// Owns navigation for a set of routes: which screen shows a route, and how a route is
/// presented when the user follows a link to it.
///
/// An app has one root coordinator (see ``RootCoordinator``) that hands each route to a child
/// coordinator or flow controller. The site walker asks the root coordinator for every screen,
/// and follows every link on a page by calling ``navigate(_:from:in:)`` with itself as the
/// ``Navigator``: what the app's own navigation code shows is what the link leads to.
public protocol Coordinator<R>: Sendable {
    /// The app's route type: the routes this coordinator makes screens for and presents.
    associatedtype R: Route

    /// Makes the screen for `route`, building its view model through a factory.
    func makeScreen(for route: R) async throws -> any Screen<R>

    /// The user followed `action` on `source`'s page: show the action's route on `navigator`,
    /// through the same code a tap runs (the owning coordinator or flow controller, its factory's
    /// `pushIn…`/`rootIn…` methods, down to ``Navigator/show(_:as:at:)``). It must show exactly the
    /// action's route, once. The default shows it as ``presentation(of:from:)`` says.
    func navigate(_ action: NavigationAction<R>, from source: R, in navigator: some Navigator<R>)

    /// How `route` is presented when reached from `source`, for coordinators that keep the
    /// default ``navigate(_:from:in:)``. The default is ``Presentation/push``.
    func presentation(of route: R, from source: R) -> Presentation

    /// A screen that explains a failure to build `route`'s screen, or `nil` to fail the build.
    /// The default is `nil`.
    func errorScreen(for route: R, error: any Error) -> (any Screen<R>)?

    /// The navigation stack `route` starts when it is presented as ``Presentation/root``: what
    /// a deep link to it builds, ending with `route`. The default is the route alone.
    ///
    /// A coordinator that shows a character from anywhere inside its Characters flow returns
    /// `[.home, .characters, .character(id)]`, so the breadcrumbs read Home › Characters › Luke
    /// whichever page linked there.
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
    /// The search index the site publishes with its filter script, or `nil` for none (the
    /// default).
    var search: SiteSearch<R>? { get }
    /// The app's own settings for flow lint: rules turned off, findings suppressed (each with
    /// its reason) and the deepest click depth allowed. The default is `FlowLintConfiguration()`:
    /// every rule on but those off by default (``FlowLintRule/isOnByDefault``).
    var flowLint: FlowLintConfiguration { get }
    /// The app's deep links and its parser for them, checked against every page's route; `nil`
    /// (the default) when the app has none.
    var deepLinks: DeepLinks<R>? { get }
    /// An example route of every kind of screen this configuration of the app can show, which
    /// `unreachable-screen` compares with the kinds the walk reaches. The default is the route
    /// type's ``Route/screenKindExamples``; an app with two configurations (signed in, guest)
    /// leaves out of each the kinds only the other shows, instead of suppressing them.
    ///
    /// ```swift
    /// var declaredScreens: [AppRoute] {
    ///     AppRoute.screenKindExamples.filter { session.isGuest || $0 != .signIn }
    /// }
    /// ```
    var declaredScreens: [R] { get }

    /// The reader selected `tab` in the tab bar (``SiteInfo/navigation``): show its route on
    /// `navigator`, as the app's tab bar controller does. A selection is its own kind of
    /// navigation, never passed to ``Coordinator/navigate(_:from:in:)``, so a coordinator tells it
    /// from an in-page link to the same route; it doesn't depend on the page it was made from,
    /// so the walker follows each tab once. The default shows the route as
    /// ``Presentation/root``, which starts the trail again at the tab's root.
    ///
    /// ```swift
    /// func selectTab(_ tab: NavigationAction<AppRoute>, in navigator: some Navigator<AppRoute>) {
    ///     navigator.show(tab.route, as: .root)  // a sign-in tab is a tab root, not the dialog
    /// }
    /// ```
    func selectTab(_ tab: NavigationAction<R>, in navigator: some Navigator<R>)
}

extension RootCoordinator {
    public var search: SiteSearch<R>? { nil }

    public var deepLinks: DeepLinks<R>? { nil }

    public var declaredScreens: [R] { R.screenKindExamples }

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
    /// The app's tab bar, or any site-wide navigation: shown on every page but dialogs (which
    /// show their Close link instead, as a modal covers the tab bar). Selecting a tab goes
    /// through ``RootCoordinator/selectTab(_:in:)``, not ``Coordinator/navigate(_:from:in:)``;
    /// the flow map draws the tabs once, as a tab bar. An app with two configurations (signed
    /// in, guest) gives each its own tabs and builds a site of each.
    public var navigation: [NavigationAction<R>]
    /// The words the templates write around the pages' content, by key, in the site's
    /// language; a key left out reads as in ``defaultLabels`` (in English: a build in another
    /// language whose labels lack some keys names them once, in a warning). Templates read them as
    /// `{{labels.previous}}`; `{title}`, `{site}` and `{number}` are filled in where the keys
    /// below say.
    public var labels: [String: String]
    /// The language the app shows a text in when the site's language lacks it, when it may
    /// (a build that falls back instead of failing on a missing translation): each page then
    /// listens for ``StringTable/shownInFallbackLanguage(_:)`` and notes the texts it showed that way. `nil`
    /// when every text is translated.
    public var fallbackLanguage: String?
    /// Writes a count as the site's language does ("1,234", "1.234"); `nil` groups thousands
    /// with commas. The flow map's counts use it.
    public var formatsCount: (@Sendable (Int) -> String)?
    /// The locale the site's numbers are written for (`en-GB`), when not its language's: the
    /// search script counts its results in it.
    public var numberLocale: String?

    /// What every page of a site named `name` shares, in `language`, with `footer`, the top
    /// `navigation` bar and the templates' `labels` over ``defaultLabels``.
    ///
    /// ```swift
    /// SiteInfo(name: "Holocron", navigation: [NavigationAction("Films", to: .films)], labels: ["close": "Done"])
    /// ```
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

    /// The English words of the built-in templates: the skip link, the landmarks' names, the
    /// pagination, the dialogs' Close link, the 404 page, the flow map, and flow lint's findings
    /// and notes (the `lint…` keys, which the findings of ``FlowLinter`` and of a build read).
    public static var defaultLabels: [String: String] { Wording.site }

    /// The label for `key`, with the defaults under the app's own.
    func label(_ key: String, _ values: [String: String] = [:]) -> String {
        Wording(labels).text(key, values)
    }

    /// The labels whose text depends on a count: each has one entry per CLDR plural category
    /// the language uses, `key.one`, `key.other` and so on (see `label(_:count:rules:_:)`).
    public static var countedLabels: [String] { Wording.counted }

    /// The counted label `key` in the form `count` takes by `rules` (the site's language's):
    /// `key.<category>`, or `key.other` when the labels lack that category.
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

    /// Whether the site's language is written right to left (Arabic, Hebrew, `ar-XB`), by the
    /// locale data Foundation has for it: the layout then sets `dir="rtl"`.
    public var isRightToLeft: Bool {
        Locale.Language(identifier: language).characterDirection == .rightToLeft
    }

    /// Every label, the defaults under the app's own.
    var allLabels: [String: String] { Self.defaultLabels.merging(labels) { _, own in own } }
}

/// Receives navigation, like a navigation controller: the site walker is one (it records what
/// coordinators show and turns it into links and breadcrumbs), and tests use a recording one.
public protocol Navigator<R>: Sendable {
    /// The app's route type: what the navigator is asked to show.
    associatedtype R: Route
    /// Shows `route` with the given presentation; `location` is the app's code that asked
    /// (apps call ``show(_:as:fileID:filePath:line:)``, which fills it in).
    func show(_ route: R, as presentation: Presentation, at location: CodeLocation)
}

extension Navigator {
    /// Shows `route` with the given presentation, recording the caller's file and line: the
    /// flow graph and flow lint name it as the place that chose this transition.
    ///
    /// A helper that presents routes for its callers (a factory's `pushIn…` method) can take
    /// the same defaulted arguments and pass them on, so the location is its caller's.
    public func show(
        _ route: R, as presentation: Presentation, fileID: String = #fileID, filePath: String = #filePath,
        line: Int = #line
    ) {
        show(route, as: presentation, at: CodeLocation(fileID: fileID, filePath: filePath, line: line))
    }
}
