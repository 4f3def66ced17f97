import Foundation

/// The sitemap and robots.txt of a site.
struct Sitemap {
    /// The absolute URL of the site root, with a trailing slash.
    let baseURL: String?
    /// Each page's file from the site root (`index.html` for the front page), sorted.
    let pages: [String]

    /// The sitemap, or `nil` without a base URL: the protocol allows only absolute locations.
    /// Each location is the URL the site's own links and the page's canonical link use
    /// (`…/characters/index.html`), so there is one address per page.
    var xml: String? {
        guard let baseURL else { return nil }
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"#,
        ]
        for page in pages {
            lines.append("  <url><loc>\(escape(baseURL + page))</loc></url>")
        }
        lines.append("</urlset>")
        return lines.joined(separator: "\n") + "\n"
    }

    var robots: String {
        var text = "User-agent: *\nAllow: /\n"
        if let baseURL { text += "Sitemap: \(baseURL)sitemap.xml\n" }
        return text
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }
}
