import Foundation

/// The sitemap and robots.txt of a site.
struct Sitemap {
    /// With a trailing slash.
    let baseURL: String?
    /// From the site root, sorted.
    let pages: [String]
    /// In a multilingual site: each page's translations (code and absolute URL).
    var alternates: ((String) -> [(code: String, url: String)])?

    /// `nil` without a base URL: the protocol allows only absolute locations. Locations are the URLs the site's
    /// own links use (`…/characters/index.html`), so there is one address per page.
    var xml: String? {
        guard let baseURL else { return nil }
        var lines = [#"<?xml version="1.0" encoding="UTF-8"?>"#]
        guard let alternates else {
            lines.append(#"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#)
            for page in pages {
                lines.append("  <url><loc>\(escape(baseURL + page))</loc></url>")
            }
            lines.append("</urlset>")
            return lines.joined(separator: "\n") + "\n"
        }
        lines.append(
            #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">"#)
        for page in pages {
            lines.append("  <url>")
            lines.append("    <loc>\(escape(baseURL + page))</loc>")
            for alternate in alternates(page) {
                lines.append(
                    #"""
                        <xhtml:link rel="alternate" hreflang="\#(escape(alternate.code))" \#
                    href="\#(escape(alternate.url))"/>
                    """#
                )
            }
            lines.append("  </url>")
        }
        lines.append("</urlset>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// The languages' sitemaps (`en/sitemap.xml`, …), for a multilingual site's root; `nil` without a base URL.
    static func index(baseURL: String?, folders: [String]) -> String? {
        guard let baseURL else { return nil }
        let sitemap = Sitemap(baseURL: baseURL, pages: [])
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#
        ]
        for folder in folders {
            lines.append("  <sitemap><loc>\(sitemap.escape(baseURL + folder + "sitemap.xml"))</loc></sitemap>")
        }
        lines.append("</sitemapindex>")
        return lines.joined(separator: "\n") + "\n"
    }

    var robots: String {
        var text = "User-agent: *\nAllow: /\n"
        if let baseURL { text += "Sitemap: \(baseURL)sitemap.xml\n" }
        return text
    }

    func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }
}
