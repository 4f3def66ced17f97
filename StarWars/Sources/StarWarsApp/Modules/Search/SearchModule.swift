import FlowSite
import Foundation
import SWAPI

/// One searchable resource.
public struct SearchEntry: Sendable, Hashable {
    public var name: String
    public var kind: ResourceKind
    public var route: AppRoute

    public init(name: String, kind: ResourceKind, route: AppRoute) {
        self.name = name
        self.kind = kind
        self.route = route
    }
}

/// The search screen's state.
public enum SearchState: Sendable, Hashable {
    case loading
    /// The results for `query` out of `total` entries; with an empty query, every entry A–Z.
    case filtered(query: String, results: [SearchEntry], total: Int)
    /// Nothing matches `query`.
    case empty(query: String, total: Int)
    /// More entries than one page can list for readers without JavaScript: the count of each
    /// kind instead, leading to its list pages (the search script still searches them all).
    case tooMany(total: Int, counts: [ResourceKind: Int])
    case error(String)
}

/// Owns the search page.
public struct SearchCoordinator: ChildCoordinator {
    let dependencies: AppDependencies

    public init(dependencies: AppDependencies) { self.dependencies = dependencies }

    public func handles(_ route: AppRoute) -> Bool { route == .search }

    public func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        SearchScreen(viewModel: SearchViewModel(dependencies: dependencies))
    }
}

/// The search page's view model: every resource as an entry, filtered by the query. Matching
/// is case- and accent-insensitive and partial, on the name.
///
/// The site shows the empty query's state (every entry, A–Z); typing runs the engine's search
/// script in the browser, which a test holds to this same filter (``state(query:entries:)``).
public struct SearchViewModel: ViewModel {
    public typealias Dependencies = HasCatalogService & HasStrings & Sendable

    let dependencies: any Dependencies
    /// What the reader searches for; the static page shows the empty query's state.
    public var query = ""

    public init(dependencies: any Dependencies) { self.dependencies = dependencies }

    /// The words the search page is written in.
    public var strings: Strings { dependencies.strings }

    /// The most entries the static search page lists; above it, a large archive would make a
    /// page of megabytes that no reader scrolls.
    public static let staticListLimit = 5_000

    public func load() async -> SearchState {
        do {
            let catalog = try await dependencies.catalog.catalog()
            let counts = Dictionary(uniqueKeysWithValues: ResourceKind.allCases.map { ($0, catalog.listCount(of: $0)) })
            let total = counts.values.reduce(0, +)
            if query.isEmpty && total > Self.staticListLimit { return .tooMany(total: total, counts: counts) }
            return Self.state(query: query, entries: Self.entries(catalog, strings: strings))
        } catch {
            return .error(strings.localizedString(.archiveError, ["error": "\(error)"]))
        }
    }

    /// The state for `query` over `entries`: a pure function, the same filter as the browser's.
    public static func state(query: String, entries: [SearchEntry]) -> SearchState {
        let query = query.trimmedSpaces
        // Fold each name once, not once per comparison.
        let keyed = entries.map { (key: fold($0.name), entry: $0) }
            .sorted { ($0.key, $0.entry.kind, $0.entry.name) < ($1.key, $1.entry.kind, $1.entry.name) }
        let sorted = keyed.map(\.entry)
        guard !query.isEmpty else { return .filtered(query: "", results: sorted, total: sorted.count) }
        let needle = fold(query)
        let results = keyed.filter { $0.key.contains(needle) }.map(\.entry)
        return results.isEmpty
            ? .empty(query: query, total: sorted.count) : .filtered(query: query, results: results, total: sorted.count)
    }

    /// Lower case with every final sigma as σ, canonically decomposed, without combining
    /// diacritical marks (U+0300–U+036F): exactly what the browser's script does.
    static func fold(_ text: String) -> String {
        let scalars = text.lowercased().replacingOccurrences(of: "ς", with: "σ").decomposedStringWithCanonicalMapping
            .unicodeScalars
        return String(String.UnicodeScalarView(scalars.filter { !(0x300...0x36F).contains($0.value) }))
    }

    /// Every resource of the catalog as a search entry, named as its page is (see
    /// ``Format/name(_:of:)``).
    public static func entries(_ catalog: Catalog, strings: Strings = .english) -> [SearchEntry] {
        let format = Format(strings)
        return ResourceKind.allCases.flatMap { kind in
            catalog.archive.resources(of: kind).map {
                SearchEntry(
                    name: format.name($0.displayName, of: kind), kind: kind, route: catalog.route(kind, id: $0.id))
            }
        }
    }
}

/// Renders the search page: the full A–Z list, what readers without JavaScript see and what the
/// search script filters until the site's search index has loaded.
public struct SearchScreen: StatefulScreen {
    public typealias R = AppRoute
    public let viewModel: SearchViewModel

    public init(viewModel: SearchViewModel) { self.viewModel = viewModel }

    public func page(for state: SearchState) -> Page<AppRoute> {
        let strings = viewModel.strings
        var document = MarkdownDocument<AppRoute>()
        switch state {
        case .loading:
            document.paragraph(.text(strings.localizedString(.stateLoading)))
        case .filtered(let query, let results, let total):
            document.paragraph(
                .text(
                    query.isEmpty
                        ? strings.localizedString(.searchAll, ["total": strings.formatted.integer(total)])
                        : strings.localizedString(
                            .searchMatches,
                            [
                                "count": strings.formatted.integer(results.count),
                                "total": strings.formatted.integer(total), "query": query
                            ])))
            document.section(.results) { section in
                section.list(results.map { [.link($0.name, to: $0.route), .text(" — \(strings.name(of: $0.kind))")] })
            }
        case .empty(let query, let total):
            document.section(.notice) {
                $0.paragraph(
                    .text(
                        strings.localizedString(
                            .searchNoMatch, ["total": strings.formatted.integer(total), "query": query])))
            }
        case .tooMany(let total, let counts):
            document.paragraph(
                .text(strings.localizedString(.searchTooMany, ["total": strings.formatted.integer(total)])))
            document.section(.results) { section in
                section.list(
                    ResourceKind.allCases.compactMap { kind in
                        guard let count = counts[kind], count > 0 else { return nil }
                        return [
                            .link(strings.name(of: kind, plural: true), to: .list(kind)),
                            .text(" — \(strings.formatted.integer(count))")
                        ]
                    })
            }
        case .error(let message):
            document.section(.notice) { $0.paragraph(.text(message)) }
        }
        return Page(
            title: strings.localizedString(.searchTitle),
            summary: strings.localizedString(.searchSummary),
            document: document,
            templateValues: ["search": "true"]
        )
    }
}
