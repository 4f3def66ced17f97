/// A Markdown document built from typed pieces, whose text is always escaped.
///
/// Every piece of text goes through the engine's Markdown escaper, so cmark shows exactly that text:
/// data can never add markup, HTML or links. Links carry routes, not URLs; the renderer turns
/// them into relative URLs.
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
    /// The document's blocks, in order.
    var blocks: [Block]

    /// An empty document.
    public init() { blocks = [] }

    init(blocks: [Block]) { self.blocks = blocks }

    /// A block of the document.
    enum Block: Sendable {
        /// A heading, level 2 to 6 (the page title is the only level 1).
        case heading(level: Int, [Inline])
        /// A paragraph.
        case paragraph([Inline])
        /// A bulleted list; each item is a line of inlines.
        case list([[Inline]])
        /// A numbered list.
        case orderedList([[Inline]])
        /// Definition-style name/value pairs, rendered as a list of "**Name:** value".
        case attributes([Attribute])
        /// A group of blocks with a style the stylesheet knows (cards, pager, …).
        case section(Section)
        /// A horizontal rule.
        case thematicBreak
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
        /// A hard line break.
        case lineBreak

        public init(stringLiteral value: String) { self = .text(value) }

        /// A link to `route` labelled with `text`.
        public static func link(_ text: String, to route: R) -> Inline { .link([.text(text)], route) }
    }

    /// A name and its value in an attribute list.
    struct Attribute: Sendable {
        var name: String
        var value: [Inline]

        init(_ name: String, _ value: [Inline]) {
            self.name = name
            self.value = value
        }

        init(_ name: String, _ value: String) { self.init(name, [.text(value)]) }
    }

    /// A styled group of blocks.
    struct Section: Sendable {
        /// The class the renderer wraps the section in.
        var style: SectionStyle
        /// The blocks inside.
        var blocks: [Block]
    }

    // MARK: Building

    /// Adds a heading (level 2 by default).
    public mutating func heading(_ text: String, level: Int = 2) {
        blocks.append(.heading(level: level, [.text(text)]))
    }

    /// Adds a paragraph of inlines.
    public mutating func paragraph(_ inlines: Inline...) { blocks.append(.paragraph(inlines)) }

    /// Adds a paragraph of inlines.
    public mutating func paragraph(_ inlines: [Inline]) { blocks.append(.paragraph(inlines)) }

    /// Adds a bulleted list.
    public mutating func list(_ items: [[Inline]]) { blocks.append(.list(items)) }

    /// Adds a numbered list.
    public mutating func orderedList(_ items: [[Inline]]) { blocks.append(.orderedList(items)) }

    /// Adds name/value pairs.
    public mutating func attributes(_ pairs: [(String, [Inline])]) {
        blocks.append(.attributes(pairs.map { Attribute($0.0, $0.1) }))
    }

    /// Adds name/value pairs of plain text.
    public mutating func attributes(_ pairs: [(String, String)]) {
        blocks.append(.attributes(pairs.map { Attribute($0.0, $0.1) }))
    }

    /// Adds a styled section built by `build`.
    public mutating func section(_ style: SectionStyle, _ build: (inout MarkdownDocument) -> Void) {
        var inner = MarkdownDocument()
        build(&inner)
        blocks.append(.section(Section(style: style, blocks: inner.blocks)))
    }

    /// Adds a horizontal rule.
    public mutating func thematicBreak() { blocks.append(.thematicBreak) }

    // MARK: Reading

    /// Every route the document links to, in reading order (with repeats).
    public var linkedRoutes: [R] { linkedActions.map(\.route) }
}

/// The name of a section style: the CSS class the renderer wraps a section in.
///
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
}
