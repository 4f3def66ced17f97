import FlowSiteUtilities
import Foundation

/// A built site's links out of it (the app's own external links and users'), each URL once with the pages that
/// have it: what the command line's `build --check-external-links` asks the web about. Read from the site's HTML
/// pages, so a full build, an edit and an up-to-date site give the same list.
package struct ExternalLinks: Sendable, Equatable {
    package struct Link: Sendable, Equatable {
        /// An absolute `https` or `http` URL, as the page's `href` has it.
        package var url: String
        /// The pages that link to it, from the site's root (`settings/index.html`), in path order.
        package var pages: [String]
    }

    /// In the order of their first page, then of the page.
    package var web: [Link] = []
    /// `mailto` links, which only an email app can follow: counted, never checked.
    package var mail = 0

    /// The external links of the site in `folder`.
    /// - Throws: ``FlowSiteError`` when the folder is not a built site or a page can't be read.
    package init(site folder: URL) throws {
        let site = try BuiltSite(at: folder)
        var index: [String: Int] = [:]
        var mails = Set<String>()
        for page in site.manifest.files.keys.sorted() where page.hasSuffix(".html") && !page.hasPrefix("flow/") {
            for href in Self.externalHrefs(in: try site.bytes(page)) {
                let lower = href.lowercased()
                if lower.hasPrefix("mailto:") {
                    mails.insert(href)
                } else if lower.hasPrefix("https://") || lower.hasPrefix("http://") {
                    if let at = index[href] {
                        if web[at].pages.last != page { web[at].pages.append(page) }
                    } else {
                        index[href] = web.count
                        web.append(Link(url: href, pages: [page]))
                    }
                }
            }
        }
        mail = mails.count
    }

    /// The `href` of every `<a>` whose classes include `external`, in order, entities decoded.
    static func externalHrefs(in html: [UInt8]) -> [String] {
        var scanner = HTMLScanner(html)
        var hrefs: [String] = []
        while let token = scanner.next() {
            guard case .start("a", let attributes) = token,
                let classes = attributes.first(where: { $0.name == "class" })?.value,
                classes.split(separator: " ").contains("external"),
                let href = attributes.first(where: { $0.name == "href" })?.value
            else { continue }
            hrefs.append(HTMLScanner.decodeEntities(href))
        }
        return hrefs
    }
}
