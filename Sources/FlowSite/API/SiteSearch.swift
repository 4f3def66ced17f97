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

    /// One page's entry, or `nil` for a page the index leaves out. `path` is the page's file,
    /// when the caller has made it already.
    func entry(for route: R, page: Page<R>, path: String? = nil) -> Entry? {
        guard includes(route) else { return nil }
        return Entry(
            url: path ?? route.path.file,
            title: page.title,
            section: section(route),
            summary: summaries ? page.summary : nil
        )
    }

    /// The index file: entries by title, ignoring case and accents, then by URL, so the same
    /// site always gives the same bytes. Written straight into bytes: at 280,000 pages an
    /// encoder's tree of values costs more than the file.
    static func json(_ entries: [Entry]) throws -> Data {
        let sorted = entries.sorted { ($0.sortKey, $0.url) < ($1.sortKey, $1.url) }
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(entries.count * 96)
        for (index, entry) in sorted.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            // Keys in sorted order, as a sorted-keys encoder writes them; absent values left out.
            var first = true
            func field(_ name: String, _ value: String?) {
                guard let value else { return }
                out.append(contentsOf: (first ? "{\"" : ",\"").utf8)
                out.append(contentsOf: name.utf8)
                out.append(contentsOf: "\":".utf8)
                appendJSONString(value, to: &out)
                first = false
            }
            field("section", entry.section)
            field("summary", entry.summary)
            field("title", entry.title)
            field("url", entry.url)
            out.append(UInt8(ascii: "}"))
        }
        out.append(contentsOf: "]\n".utf8)
        return Data(out)
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped, `/` and
    /// everything else as it is.
    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0x08: out.append(contentsOf: "\\b".utf8)
            case 0x0C: out.append(contentsOf: "\\f".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    struct Entry: Sendable {
        let url: String
        let title: String
        let section: String?
        let summary: String?
        /// The title without case and accents, the index's order; made where the page is.
        let sortKey: String

        init(url: String, title: String, section: String?, summary: String?) {
            self.url = url
            self.title = title
            self.section = section
            self.summary = summary
            self.sortKey = title.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
    }
}
