import Foundation

/// A search index of the site's pages and the script that filters it in the browser: an app
/// opts in by returning one from ``RootCoordinator/search``.
///
/// The index is a JSON array written at ``indexPath`` in the site root, one object per page
/// that ``includes`` accepts, holding its `url` (from the site root) and the fields chosen.
/// Pages whose template values set `search` show a search form whose script, the default
/// template set's `assets/search.js`, matches the typed words against each page's title,
/// ignoring case and accents.
///
/// ```swift
/// var search: SiteSearch<AppRoute>? {
///     SiteSearch(includes: { $0.isDetail }, section: { $0.kindName })
/// }
/// ```
public struct SiteSearch<R: Route>: Sendable {
    /// Whether entries carry the page's one-sentence summary (the title, the URL and the
    /// section, when ``section`` gives one, they always carry).
    public var summaries: Bool
    /// Where the index is written, from the site root.
    public var indexPath: String
    /// Which pages are in the index.
    public var includes: @Sendable (R) -> Bool
    /// The label of the part of the site a page belongs to, such as "Film", or `nil`.
    public var section: @Sendable (R) -> String?

    public init(
        includes: @escaping @Sendable (R) -> Bool = { _ in true },
        section: @escaping @Sendable (R) -> String? = { _ in nil },
        summaries: Bool = false,
        indexPath: String = "search-index.json"
    ) {
        self.summaries = summaries
        self.indexPath = indexPath
        self.includes = includes
        self.section = section
    }

    /// The script that filters the index, among the template set's assets.
    static var script: String { SiteWriter.assetsFolder + "/search.js" }

    /// One page's entry, or `nil` for a page the index leaves out.
    func entry(for route: R, page: Page<R>) -> Entry? {
        guard includes(route) else { return nil }
        return Entry(
            url: route.path.file,
            title: page.title,
            section: section(route),
            summary: summaries ? page.summary : nil
        )
    }

    /// The index file: entries by title, ignoring case and accents, then by URL, so the same
    /// site always gives the same bytes.
    static func json(_ entries: [Entry]) throws -> Data {
        let sorted = entries
            .map { (key: $0.title.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil), entry: $0) }
            .sorted { ($0.key, $0.entry.url) < ($1.key, $1.entry.url) }
            .map(\.entry)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(sorted)
        data.append(0x0A)
        return data
    }

    struct Entry: Encodable, Sendable {
        let url: String
        let title: String
        let section: String?
        let summary: String?
    }
}
