import Foundation

/// A search index of the site's pages and the script that filters it in the browser; an app opts in through
/// ``RootCoordinator/search``.
///
/// The index is a JSON array at ``indexPath``: one object per page ``includes`` accepts, with its `url` and the
/// fields chosen. The script matches typed words against titles, ignoring case and accents.
///
/// ```swift
/// var search: SiteSearch<AppRoute>? {
///     SiteSearch(includes: { $0.isDetail }, section: { $0.kindName })
/// }
/// ```
public struct SiteSearch<R: Route>: Sendable {
    /// Whether entries carry the page's summary besides its title, URL and ``section``.
    public var summaries: Bool
    /// Where the index is written, from the site root.
    public var indexPath: String
    /// Which pages are in the index.
    public var includes: @Sendable (R) -> Bool
    /// The label of the part of the site a page belongs to, such as "Film", or `nil`.
    public var section: @Sendable (R) -> String?

    /// An index of the pages `includes` accepts, with their `section` and, when `summaries`, their summary.
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
    static var script: String { SiteLayout.assetsFolder + "/search.js" }

    /// Where one page stands in the index, or `nil` if left out; the caller sets ``Entry/page``.
    func entry(for route: R, page: Page<R>) -> Entry? {
        guard includes(route) else { return nil }
        return Entry(page: -1, section: section(route), title: page.title)
    }

    /// The index file, entries sorted by folded title then URL so the same site gives the same bytes; written
    /// straight into bytes, as an encoder's tree of values costs more than the file.
    static func json(
        _ entries: [Entry], pages: [BuildStep.BuiltPage], summaries: Bool
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 96)
        write(entries, pages: pages, summaries: summaries) { out.append(contentsOf: $0) }
        return out
    }

    /// ``json(_:pages:summaries:)`` handed to `emit` a few entries at a time, never holding the file whole.
    static func write(
        _ entries: [Entry], pages: [BuildStep.BuiltPage], summaries: Bool,
        emit: (UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        // Sort positions, not entries: a sorted copy would hold the entries twice.
        var order = (0..<Int32(entries.count)).map { $0 }
        entries.withUnsafeBufferPointer { entries in
            order.sort { a, b in
                let (a, b) = (entries[Int(a)], entries[Int(b)])
                return a.sortKey != b.sortKey
                    ? a.sortKey < b.sortKey : pages[Int(a.page)].path < pages[Int(b.page)].path
            }
        }
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(1 << 16)
        for (index, position) in order.enumerated() {
            let entry = entries[Int(position)]
            if index > 0 { out.append(UInt8(ascii: ",")) }
            let page = pages[Int(entry.page)]
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
            field("summary", summaries ? page.summary : nil)
            field("title", page.title)
            field("url", page.path)
            out.append(UInt8(ascii: "}"))
            if out.count >= 1 << 16 - 1024 {
                try out.withUnsafeBytes(emit)
                out.removeAll(keepingCapacity: true)
            }
        }
        out.append(contentsOf: "]\n".utf8)
        try out.withUnsafeBytes(emit)
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped, `/` kept as it is.
    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        // Most titles and paths need no escape: copy them whole.
        if !text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out.append(contentsOf: text.utf8)
            out.append(UInt8(ascii: "\""))
            return
        }
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

    /// A page in the index: its position among the build's pages, its section, and its title folded for sorting.
    struct Entry: Sendable {
        /// The page's position among the build's pages, which hold its file, title and summary.
        var page: Int32
        let section: String?
        let sortKey: String

        init(page: Int32, section: String?, title: String) {
            self.page = page
            self.section = section
            self.sortKey = Self.sortKey(of: title)
        }

        /// The title without case or diacritics, as the index sorts it; an ASCII title is just lowercased.
        static func sortKey(of title: String) -> String {
            if title.utf8.allSatisfy({ $0 < 0x80 }) { return title.lowercased() }
            return title.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        }
    }
}
