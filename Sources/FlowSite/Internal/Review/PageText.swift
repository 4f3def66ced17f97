import FlowSiteUtilities

/// What a reader sees of a built page, as the command line's `diff` compares it: title, content items under their
/// headings, links, and the layout's text. Scans the HTML FlowSite writes, not any HTML; the content is what
/// `<main>` holds.
struct PageText: Sendable, Equatable {
    struct Item: Sendable, Hashable {
        /// The nearest heading above it in the content.
        var section: String?
        var text: String

        /// "Height: 172 cm" → "Height".
        var label: String? {
            guard let colon = text.range(of: ": "), text.distance(from: text.startIndex, to: colon.lowerBound) <= 40
            else { return nil }
            return String(text[..<colon.lowerBound])
        }

        var value: String {
            guard let label else { return text }
            return String(text.dropFirst(label.count + 2))
        }
    }

    var title = ""
    var items: [Item] = []
    /// From the site's root, in order, each once.
    var links: [String] = []
    /// The layout around the content.
    var chrome: [Item] = []
    /// The items of `<nav class="breadcrumbs">`, the page's own last; also in ``chrome``.
    var trail: [String] = []

    private static let blocks: Set<String> = [
        "h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "tr", "dt", "dd", "caption", "figcaption", "blockquote", "pre",
        "summary", "title"
    ]
    private static let skipped: Set<String> = ["script", "style", "template", "svg", "noscript"]

    /// `path` (from the site's root) resolves the page's relative links.
    init(html: [UInt8], path: String) {
        var scanner = HTMLScanner(html)
        var text: [UInt8] = []
        var inMain = false
        var mainDepth = 0
        var section: String?
        var skipping: String?
        var seenLinks: Set<String> = []
        var titleTag = ""
        var inCell = false
        var currentBlock: String?
        var inTrail = false
        let directory = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().map(String.init)

        func flush() {
            let value = Self.collapsed(text)
            text.removeAll(keepingCapacity: true)
            guard !value.isEmpty else { return }
            switch currentBlock {
            case "title":
                titleTag = value
                return
            case "h1" where inMain && title.isEmpty:
                title = value
            case "h2", "h3", "h4", "h5", "h6":
                if inMain { section = value }
            default:
                break
            }
            if inMain {
                items.append(Item(section: currentBlock?.first == "h" ? nil : section, text: value))
            } else {
                chrome.append(Item(section: nil, text: value))
                if inTrail { trail.append(value) }
            }
        }

        while let token = scanner.next() {
            switch token {
            case .text(let bytes):
                if skipping == nil { text.append(contentsOf: bytes) }
            case .other:
                continue
            case .start(let name, let attributes):
                if skipping != nil { continue }
                if Self.skipped.contains(name) {
                    skipping = name
                    continue
                }
                // What the layout adds to a link or a trail (its note, the trail's lead) is not the page's text.
                if name == "span", let classes = Self.value(of: "class", in: attributes),
                    classes == "link-note" || classes == "trail-lead"
                {
                    skipping = name
                    continue
                }
                if name == "main" {
                    flush()
                    inMain = true
                    mainDepth += 1
                } else if Self.blocks.contains(name) {
                    flush()
                    currentBlock = name
                    inCell = false
                } else if name == "td" || name == "th" {
                    if inCell || !text.isEmpty { text.append(contentsOf: " | ".utf8) }
                    inCell = true
                } else if name == "nav", !inMain, Self.isTrail(Self.value(of: "class", in: attributes)) {
                    flush()
                    inTrail = true
                } else if name == "br" {
                    text.append(UInt8(ascii: " "))
                } else if name == "a", inMain, let href = Self.value(of: "href", in: attributes),
                    let target = Self.resolve(href, in: directory), seenLinks.insert(target).inserted
                {
                    links.append(target)
                }
            case .end(let name):
                if let skip = skipping {
                    if skip == name { skipping = nil }
                    continue
                }
                if name == "main" {
                    flush()
                    mainDepth -= 1
                    inMain = mainDepth > 0
                } else if name == "nav", inTrail {
                    flush()
                    inTrail = false
                } else if Self.blocks.contains(name) || name == "ul" || name == "ol" || name == "table" || name == "dl"
                    || name == "div" || name == "section"
                {
                    flush()
                    currentBlock = nil
                }
            }
        }
        flush()
        if title.isEmpty { title = titleTag }
    }

    /// The attribute's value with its character references decoded.
    private static func value(of name: String, in attributes: [HTMLScanner.Attribute]) -> String? {
        attributes.first { $0.name == name }.map { HTMLScanner.decodeEntities($0.value) }
    }

    private static func isTrail(_ classes: String?) -> Bool {
        classes?.split(separator: " ").contains("breadcrumbs") ?? false
    }

    /// `nil` for a link off the site, to a fragment only, or out of the site's root.
    static func resolve(_ href: String, in directory: [String]) -> String? {
        var href = Substring(href)
        if let hash = href.firstIndex(of: "#") { href = href[..<hash] }
        if let query = href.firstIndex(of: "?") { href = href[..<query] }
        guard !href.isEmpty, !href.hasPrefix("/"), !href.contains(":") else { return nil }
        var parts = directory
        for part in href.split(separator: "/", omittingEmptySubsequences: false) {
            switch part {
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            case ".", "":
                continue
            default:
                parts.append(String(part))
            }
        }
        if href.hasSuffix("/") { parts.append("index.html") }
        return parts.joined(separator: "/")
    }

    /// Entities decoded, white space collapsed and trimmed.
    static func collapsed(_ bytes: [UInt8]) -> String {
        let decoded = HTMLScanner.decodeEntities(String(decoding: bytes, as: UTF8.self))
        var out = ""
        out.reserveCapacity(decoded.utf8.count)
        var pendingSpace = false
        for character in decoded {
            if character.isWhitespace {
                pendingSpace = !out.isEmpty
            } else {
                if pendingSpace { out.append(" ") }
                pendingSpace = false
                out.append(character)
            }
        }
        return out
    }
}
