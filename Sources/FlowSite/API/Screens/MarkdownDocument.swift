/// A Markdown document built from typed pieces, whose text is always escaped.
///
/// Every piece of text is escaped, so data can never add markup, HTML or links. Links carry routes, not URLs.
///
/// ```swift
/// var document = MarkdownDocument<AppRoute>()
/// document.heading("Films")
/// document.list(films.map { [.link($0.title, to: .film($0.id))] })
/// document.section(.attributes) { section in
///     section.attributes([("Height", "172 cm")])
/// }
/// ```
public struct MarkdownDocument<R: Route>: Sendable {
    /// The document's blocks, in order; a link holds the index of its route in ``routes``.
    var blocks: [MarkdownBlock]
    /// Every link's route, in reading order.
    var routes: [R]
    /// The last heading's level, 1 before any: user content's headings go under it.
    var headingLevel = 1
    /// Whether the document holds user content, whose links its page marks.
    var hasUserContent = false
    /// The app's own links out of the site (``Inline/externalLink(_:url:)``), in reading order, checked when the
    /// page is made.
    var externalURLs: [String] = []

    /// An empty document.
    public init() {
        blocks = []
        routes = []
    }

    /// A run of text inside a block.
    public enum Inline: Sendable, ExpressibleByStringLiteral {
        /// Plain text, escaped.
        case text(String)
        /// Emphasised inlines.
        case emphasis([Inline])
        /// Strongly emphasised inlines.
        case strong([Inline])
        /// Inline code.
        case code(String)
        /// A link to another screen.
        case link([Inline], R)
        /// A link to a file of the site, by its path from the site root (such as `search/index.json`).
        case siteFile([Inline], String)
        /// The app's own link out of the site: an absolute `https`, `http` or `mailto` URL (a privacy policy, a
        /// support address). Never walked; the page marks it as leaving the site. Any other URL, or one with
        /// control or bidirectional characters, fails the build naming the page.
        case externalLink([Inline], url: String)
        /// A hard line break.
        case lineBreak

        public init(stringLiteral value: String) { self = .text(value) }

        /// A link to `route` labelled with `text`.
        public static func link(_ text: String, to route: R) -> Inline { .link([.text(text)], route) }

        /// A link out of the site to `url` labelled with `text` (see ``externalLink(_:url:)``).
        public static func externalLink(_ text: String, to url: String) -> Inline {
            .externalLink([.text(text)], url: url)
        }
    }

    // MARK: Building

    /// Adds a heading (level 2 by default).
    public mutating func heading(_ text: String, level: Int = 2) {
        blocks.append(.heading(level: level, [.text(text)]))
        headingLevel = min(max(level, 1), 6)
    }

    /// Adds a code block that shows `code` exactly, every space kept; `language` (such as `swift`) becomes its
    /// `language-…` class, keeping only letters, digits and `+ - . _ #`.
    public mutating func codeBlock(_ code: String, language: String? = nil) {
        blocks.append(.codeBlock(language: language.map(Self.languageName) ?? "", code))
    }

    /// Adds Markdown the app's users wrote, made safe: raw HTML is dropped, a link keeps only its text unless it
    /// is `https:`, `http:` or `mailto:`, and the controls that reorder text are removed. Its headings go one level
    /// below the last heading, its links get `rel="nofollow ugc"`, and its images show only when `showsImages`.
    /// Outside a ``section(_:_:)`` it is wrapped in a `<div class="user-content">`.
    public mutating func userContent(_ markdown: String, showsImages: Bool = false) {
        let safe = UserMarkdown.sanitized(markdown, topHeadingLevel: headingLevel + 1, showsImages: showsImages)
        blocks.append(.userContent(safe))
        hasUserContent = true
    }

    /// A code block's language as its class can hold it.
    private static func languageName(_ language: String) -> String {
        let kept = language.unicodeScalars.filter {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || "+-._#".unicodeScalars.contains($0)
        }
        return String(String.UnicodeScalarView(kept))
    }

    /// Adds a paragraph of inlines.
    public mutating func paragraph(_ inlines: Inline...) { paragraph(inlines) }

    /// Adds a paragraph of inlines.
    public mutating func paragraph(_ inlines: [Inline]) { blocks.append(.paragraph(stored(inlines))) }

    /// Adds a bulleted list.
    public mutating func list(_ items: [[Inline]]) {
        // A list of plain links can run to tens of thousands of items: kept without an array per item.
        let plainLinks = items.map { item -> (label: String, route: R)? in
            guard item.count == 1, case .link(let label, let route) = item[0], label.count == 1,
                case .text(let text) = label[0]
            else { return nil }
            return (text, route)
        }
        if !items.isEmpty, plainLinks.allSatisfy({ $0 != nil }) {
            return linkList(plainLinks) { $0! }
        }
        var stored: [[MarkdownInline]] = []
        stored.reserveCapacity(items.count)
        for item in items { stored.append(self.stored(item)) }
        blocks.append(.list(stored))
    }

    /// Adds a bulleted list of links, `link` giving each element's label and route: ``list(_:)`` with one
    /// `.link` per item, without an array per item.
    public mutating func linkList<Elements: Collection>(
        _ elements: Elements, _ link: (Elements.Element) -> (label: String, route: R)
    ) {
        guard !elements.isEmpty else { return list([]) }
        let first = routes.count
        var labels: [String] = []
        labels.reserveCapacity(elements.count)
        routes.reserveCapacity(routes.count + elements.count)
        for element in elements {
            let (label, route) = link(element)
            labels.append(label)
            routes.append(route)
        }
        blocks.append(.linkList(labels, firstRoute: first))
    }

    /// Adds a numbered list.
    public mutating func orderedList(_ items: [[Inline]]) {
        var stored: [[MarkdownInline]] = []
        stored.reserveCapacity(items.count)
        for item in items { stored.append(self.stored(item)) }
        blocks.append(.orderedList(stored))
    }

    /// Adds name/value pairs.
    public mutating func attributes(_ pairs: [(String, [Inline])]) {
        var stored: [MarkdownAttribute] = []
        stored.reserveCapacity(pairs.count)
        for (name, value) in pairs { stored.append(MarkdownAttribute(name: name, value: self.stored(value))) }
        blocks.append(.attributes(stored))
    }

    /// Adds name/value pairs of plain text.
    public mutating func attributes(_ pairs: [(String, String)]) {
        var stored: [MarkdownAttribute] = []
        stored.reserveCapacity(pairs.count)
        for (name, value) in pairs { stored.append(MarkdownAttribute(name: name, value: [.text(value)])) }
        blocks.append(.attributes(stored))
    }

    /// Adds a styled section built by `build`.
    public mutating func section(_ style: SectionStyle, _ build: (inout MarkdownDocument) -> Void) {
        // The section's links go on numbering after this document's.
        var inner = MarkdownDocument()
        inner.headingLevel = headingLevel
        swap(&inner.routes, &routes)
        swap(&inner.externalURLs, &externalURLs)
        build(&inner)
        swap(&inner.routes, &routes)
        swap(&inner.externalURLs, &externalURLs)
        blocks.append(.section(style, inner.blocks))
        headingLevel = inner.headingLevel
        hasUserContent = hasUserContent || inner.hasUserContent
    }

    /// Adds an empty state: its title as a heading, when it has one, and its message, in an `empty-state` section.
    public mutating func emptyState(_ empty: EmptyState) {
        section(SectionStyle("empty-state")) { section in
            if let title = empty.title { section.heading(title) }
            section.paragraph(.text(empty.message))
        }
    }

    /// Adds a horizontal rule.
    public mutating func thematicBreak() { blocks.append(.thematicBreak) }

    /// `inlines` as the document keeps them, their routes added to ``routes``. A link inside a link's label keeps
    /// only its label (bold when it has several pieces).
    private mutating func stored(_ inlines: [Inline], inLabel: Bool = false) -> [MarkdownInline] {
        var out: [MarkdownInline] = []
        out.reserveCapacity(inlines.count)
        for inline in inlines {
            switch inline {
            case .text(let text): out.append(.text(text))
            case .code(let code): out.append(.code(code))
            case .lineBreak: out.append(.lineBreak)
            case .emphasis(let inner): out.append(.emphasis(stored(inner, inLabel: inLabel)))
            case .strong(let inner): out.append(.strong(stored(inner, inLabel: inLabel)))
            case .link(let label, _) where inLabel, .siteFile(let label, _) where inLabel,
                .externalLink(let label, _) where inLabel:
                let text = stored(label, inLabel: true)
                out.append(text.count == 1 ? text[0] : .strong(text))
            case .externalLink(let label, let url):
                externalURLs.append(url)
                out.append(.external(stored(label, inLabel: true), url))
            case .siteFile(let label, let path):
                out.append(.siteFile(stored(label, inLabel: true), path))
            case .link(let label, let route):
                let label = stored(label, inLabel: true)
                routes.append(route)
                out.append(.link(label, route: routes.count - 1))
            }
        }
        return out
    }

    // MARK: Reading

    /// Every route the document links to, in reading order (with repeats).
    public var linkedRoutes: [R] { routes }
}

/// A block of a ``MarkdownDocument``.
enum MarkdownBlock: Sendable {
    /// A heading, level 2 to 6 (the page title is the only level 1).
    case heading(level: Int, [MarkdownInline])
    /// A paragraph.
    case paragraph([MarkdownInline])
    /// A bulleted list; each item is a line of inlines.
    case list([[MarkdownInline]])
    /// A bulleted list of plain-text links: item `n` links to the document's route `firstRoute + n`.
    case linkList([String], firstRoute: Int)
    /// A numbered list.
    case orderedList([[MarkdownInline]])
    /// Definition-style name/value pairs, rendered as a list of "**Name:** value".
    case attributes([MarkdownAttribute])
    /// A group of blocks with a style the stylesheet knows (cards, pager, …).
    case section(SectionStyle, [MarkdownBlock])
    /// A horizontal rule.
    case thematicBreak
    /// Code shown exactly as it is, with its language's name (letters, digits, `+-._#`) or "".
    case codeBlock(language: String, String)
    /// Users' Markdown as ``UserMarkdown`` made it safe: written as it is.
    case userContent(String)
}

/// Inline content as a ``MarkdownDocument`` keeps it: a link holds its route's index.
enum MarkdownInline: Sendable {
    case text(String)
    case emphasis([MarkdownInline])
    case strong([MarkdownInline])
    case code(String)
    case link([MarkdownInline], route: Int)
    case siteFile([MarkdownInline], String)
    case external([MarkdownInline], String)
    case lineBreak
}

/// A name and its value in an attribute list.
struct MarkdownAttribute: Sendable {
    var name: String
    var value: [MarkdownInline]
}

/// The name of a section style: the CSS class the renderer wraps a section in.
/// Only lowercase letters, digits and hyphens, so a style can never inject markup.
public struct SectionStyle: Hashable, Sendable, CustomStringConvertible {
    /// The class name.
    public let name: String

    /// Makes a style; any other character than `a-z`, `0-9` and `-` is dropped.
    public init(_ name: String) {
        let kept = name.unicodeScalars.filter { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        self.name = kept.isEmpty ? "section" : String(String.UnicodeScalarView(kept))
    }

    public var description: String { name }

    /// A horizontally scrolling row of cards.
    public static let cards = SectionStyle("cards")
    /// Name/value pairs laid out as a table.
    public static let attributes = SectionStyle("attributes")
    /// Previous/next links and the page count.
    public static let pager = SectionStyle("pager")
    /// Links to related screens.
    public static let related = SectionStyle("related")
    /// A list of results or rows.
    public static let results = SectionStyle("results")
    /// An error or empty-state message.
    public static let notice = SectionStyle("notice")
    /// Content the app's users wrote (see ``MarkdownDocument/userContent(_:showsImages:)``).
    public static let userContent = SectionStyle("user-content")
}
