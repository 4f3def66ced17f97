import CCmark
import FlowSiteUtilities
import Foundation

/// Markdown written by an app's users, made safe to put inside a page.
///
/// In cmark's tree, raw HTML goes; links and images not to `https:`, `http:` (or `mailto:`) keep only their text;
/// images become alt text unless shown; headings move under the screen's; bidi embeddings, overrides and isolates
/// go; characters HTML forbids, entities included, become U+FFFD. The tree is written back as CommonMark. A body
/// nested deeper than ``maximumDepth`` is shown as typed, in a code block.
enum UserMarkdown {
    /// Of blocks and inlines.
    static let maximumDepth = 48

    /// Level-1 headings go to `topHeadingLevel` (at most 6).
    static func sanitized(_ body: String, topHeadingLevel: Int, showsImages: Bool) -> String {
        let stripped = cleaned(body)
        let root = stripped.withCString { cmark_parse_document($0, strlen($0), CMARK_OPT_VALIDATE_UTF8) }
        guard let root else { return asCode(stripped) }
        defer { cmark_node_free(root) }
        guard clean(root, topHeadingLevel: topHeadingLevel, showsImages: showsImages) else { return asCode(stripped) }
        guard let rendered = cmark_render_commonmark(root, CMARK_OPT_VALIDATE_UTF8, 0) else { return "" }
        defer { free(rendered) }
        var markdown = String(cString: rendered)
        while markdown.last?.isNewline == true { markdown.removeLast() }
        // A rare mix of hostile text reads back as raw HTML despite cmark's escaping: shown as typed instead.
        return readsAsHTML(markdown) ? asCode(stripped) : markdown
    }

    private static func readsAsHTML(_ markdown: String) -> Bool {
        guard let root = markdown.withCString({ cmark_parse_document($0, strlen($0), CMARK_OPT_VALIDATE_UTF8) }),
            let iterator = cmark_iter_new(root)
        else { return true }
        defer {
            cmark_iter_free(iterator)
            cmark_node_free(root)
        }
        while case let event = cmark_iter_next(iterator), event != CMARK_EVENT_DONE {
            let type = cmark_node_get_type(cmark_iter_get_node(iterator))
            if type == CMARK_NODE_HTML_BLOCK || type == CMARK_NODE_HTML_INLINE { return true }
        }
        return false
    }

    /// Cleans the tree in place; `false` when it is nested too deeply to keep.
    private static func clean(_ root: OpaquePointer, topHeadingLevel: Int, showsImages: Bool) -> Bool {
        var dropped: [OpaquePointer] = []
        var unwrapped: [OpaquePointer] = []
        guard let iterator = cmark_iter_new(root) else { return false }
        defer { cmark_iter_free(iterator) }
        var depth = 0
        while true {
            let event = cmark_iter_next(iterator)
            if event == CMARK_EVENT_DONE { break }
            guard let node = cmark_iter_get_node(iterator) else { continue }
            if event == CMARK_EVENT_EXIT {
                depth -= 1
                continue
            }
            if !isLeaf(node) {
                depth += 1
                if depth > maximumDepth { return false }
            }
            cleanText(of: node)
            switch cmark_node_get_type(node) {
            case CMARK_NODE_HTML_BLOCK, CMARK_NODE_HTML_INLINE, CMARK_NODE_CUSTOM_BLOCK, CMARK_NODE_CUSTOM_INLINE:
                dropped.append(node)
            case CMARK_NODE_HEADING:
                let level = Int(cmark_node_get_heading_level(node))
                cmark_node_set_heading_level(node, Int32(min(6, max(1, level + topHeadingLevel - 1))))
            case CMARK_NODE_LINK:
                if !isAllowed(cmark_node_get_url(node), schemes: ["https", "http", "mailto"]) { unwrapped.append(node) }
            case CMARK_NODE_IMAGE:
                if !showsImages || !isAllowed(cmark_node_get_url(node), schemes: ["https", "http"]) {
                    unwrapped.append(node)
                }
            default:
                break
            }
        }
        for node in dropped {
            cmark_node_unlink(node)
            cmark_node_free(node)
        }
        for node in unwrapped {
            while let child = cmark_node_first_child(node) {
                cmark_node_insert_before(node, child)
            }
            cmark_node_unlink(node)
            cmark_node_free(node)
        }
        return true
    }

    /// Also the destination, title and code info: entities can spell what the body's own text may not hold.
    private static func cleanText(of node: OpaquePointer) {
        typealias Field = (
            get: (OpaquePointer?) -> UnsafePointer<CChar>?, set: (OpaquePointer?, UnsafePointer<CChar>?) -> Int32
        )
        let fields: [Field] = [
            (cmark_node_get_literal, cmark_node_set_literal), (cmark_node_get_url, cmark_node_set_url),
            (cmark_node_get_title, cmark_node_set_title), (cmark_node_get_fence_info, cmark_node_set_fence_info)
        ]
        for field in fields {
            guard let value = field.get(node) else { continue }
            let text = String(cString: value)
            let clean = cleaned(text)
            if clean != text { _ = field.set(node, clean) }
        }
    }

    /// Whether the node can hold no others: the iterator then gives it no exit event.
    private static func isLeaf(_ node: OpaquePointer) -> Bool {
        switch cmark_node_get_type(node) {
        case CMARK_NODE_HTML_BLOCK, CMARK_NODE_THEMATIC_BREAK, CMARK_NODE_CODE_BLOCK, CMARK_NODE_TEXT,
            CMARK_NODE_SOFTBREAK, CMARK_NODE_LINEBREAK, CMARK_NODE_CODE, CMARK_NODE_HTML_INLINE:
            true
        default: false
        }
    }

    /// Schemes compared without case.
    private static func isAllowed(_ url: UnsafePointer<CChar>?, schemes: [String]) -> Bool {
        guard let url else { return false }
        let text = String(cString: url)
        guard let colon = text.firstIndex(of: ":") else { return false }
        return schemes.contains(text[..<colon].lowercased())
    }

    /// Without bidi embeddings, overrides and isolates (in typed text mostly an attack on what a reader sees),
    /// U+FFFD for what HTML forbids. The marks (U+200E, U+200F, U+061C) stay: they only give a direction.
    static func cleaned(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isReordering($0) || HTMLEscaping.isForbidden($0) }) else {
            return text
        }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars where !isReordering(scalar) {
            out.append(HTMLEscaping.isForbidden(scalar) ? "\u{FFFD}" : scalar)
        }
        return String(out)
    }

    private static func isReordering(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\u{202A}"..."\u{202E}", "\u{2066}"..."\u{2069}": true
        default: false
        }
    }

    /// A fenced code block.
    private static func asCode(_ body: String) -> String {
        var out: [UInt8] = []
        MarkdownWriter.appendCodeBlock(body, language: nil, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
