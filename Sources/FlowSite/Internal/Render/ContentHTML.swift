#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A page's content: its Markdown converted by cmark, each styled chunk wrapped in its element.
enum ContentHTML {
    /// cmark's safe-mode output for the separator between chunks: data can't write it, since every `<` of text
    /// is escaped.
    private static let separatorHTML = Array("<!-- raw HTML omitted -->\n".utf8)

    /// From this many Markdown bytes, a page is converted chunk by chunk.
    static let chunkByChunkSize = 1 << 20

    /// Converts with one cmark call: chunks joined by an HTML comment between blank lines (which ends any open
    /// block) and split again at its output. Past ``chunkByChunkSize``, chunk by chunk: cmark's tree takes many
    /// times the Markdown.
    static func append(_ markdown: PageMarkdown, to out: inout [UInt8], marks: LinkMarks? = nil) throws {
        guard markdown.hasUserContent || marks != nil else { return try appendTrusted(markdown, to: &out) }
        let start = out.count
        try appendTrusted(markdown, to: &out)
        var marks = marks ?? LinkMarks()
        if markdown.hasUserContent {
            marks.external = true
            marks.userContent = true
        }
        mark(marks, in: &out, from: start)
    }

    /// How a page marks its links, for the eye and for assistive technology alike: a class, and a note in the
    /// link's text in the site's words.
    struct LinkMarks {
        /// The links (as written in `href`) that open a dialog.
        var dialogs: Set<[UInt8]> = []
        /// The links that go back to a page below: marked `back`, for the script that goes back in history.
        var backs: Set<[UInt8]> = []
        /// Whether absolute links (the app's own external links and users') are marked as leaving the site.
        var external = false
        /// "(opens a dialog)", escaped.
        var dialogNote: [UInt8] = []
        /// "(leaves the site)", escaped.
        var externalNote: [UInt8] = []
        /// "(opens your email app)", escaped: for `mailto:` links.
        var mailNote: [UInt8] = []
        /// Whether the page holds user content, whose links are its absolute ones: they get `rel="nofollow ugc"`.
        var userContent = false
    }

    /// Gives each link `marks` names a class (`opens-dialog`, `external`) after its `href` and a note before its
    /// end: `<a href="share/index.html" class="opens-dialog">Share<span class="link-note"> (opens a dialog)</span>`.
    static func mark(_ marks: LinkMarks, in out: inout [UInt8], from start: Int) {
        let opening = Array("<a href=\"".utf8)
        let closing = Array("</a>".utf8)
        var marked: [UInt8] = []
        var copied = start
        var index = start
        while index + opening.count <= out.count {
            guard out[index] == UInt8(ascii: "<"), out[index..<index + opening.count].elementsEqual(opening) else {
                index += 1
                continue
            }
            let url = index + opening.count
            guard let quote = out[url...].firstIndex(of: UInt8(ascii: "\"")) else { break }
            let href = Array(out[url..<quote])
            // Schemes in any case: HTTPS: and Mailto: are the same.
            let scheme = String(decoding: href.prefix(8), as: UTF8.self).lowercased()
            let kind: (class: String, note: [UInt8])? =
                if marks.external, scheme.hasPrefix("mailto:") {
                    ("external", marks.mailNote)
                } else if marks.external, scheme.hasPrefix("http:") || scheme.hasPrefix("https:") {
                    ("external", marks.externalNote)
                } else if !marks.dialogs.isEmpty, marks.dialogs.contains(href) {
                    ("opens-dialog", marks.dialogNote)
                } else if !marks.backs.isEmpty, marks.backs.contains(href) {
                    ("back", [])
                } else {
                    nil
                }
            guard let kind, let end = find(closing, in: out, from: quote) else {
                index = quote
                continue
            }
            if marked.isEmpty { marked.reserveCapacity(out.count + 256) }
            if marks.userContent, kind.class == "external" {
                marked.append(contentsOf: out[copied..<index + 2])
                marked.append(contentsOf: " rel=\"nofollow ugc\"".utf8)
                marked.append(contentsOf: out[(index + 2)...quote])
            } else {
                marked.append(contentsOf: out[copied...quote])
            }
            marked.append(contentsOf: " class=\"\(kind.class)\"".utf8)
            marked.append(contentsOf: out[(quote + 1)..<end])
            if !kind.note.isEmpty {
                marked.append(contentsOf: "<span class=\"link-note\"> ".utf8)
                marked.append(contentsOf: kind.note)
                marked.append(contentsOf: "</span>".utf8)
            }
            copied = end
            index = end
        }
        guard copied > start else { return }
        marked.append(contentsOf: out[copied...])
        out.replaceSubrange(start..., with: marked)
    }

    /// Where `needle` starts in `bytes` at or after `from`.
    private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        var index = from
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    private static func appendTrusted(_ markdown: PageMarkdown, to out: inout [UInt8]) throws {
        if markdown.chunks.count == 1, markdown.chunks[0].style == nil {
            try CommonMark.appendHTML(of: markdown.bytes[markdown.chunks[0].range], to: &out)
            return
        }
        if markdown.bytes.count >= chunkByChunkSize {
            for chunk in markdown.chunks {
                var fragment: [UInt8] = []
                try CommonMark.appendHTML(of: markdown.bytes[chunk.range], to: &fragment)
                appendWrapped([fragment[...]], [chunk], to: &out)
            }
            return
        }
        var joined: [UInt8] = []
        joined.reserveCapacity(markdown.bytes.count + markdown.chunks.count * 12)
        for (index, chunk) in markdown.chunks.enumerated() {
            if index > 0 { joined.append(contentsOf: "\n\n<!-- -->\n\n".utf8) }
            joined.append(contentsOf: markdown.bytes[chunk.range])
        }
        var html: [UInt8] = []
        html.reserveCapacity(joined.count * 2)
        try CommonMark.appendHTML(of: joined[...], to: &html)
        var pieces = split(html, at: separatorHTML)
        guard pieces.count == markdown.chunks.count else {
            // Unexpected output: convert chunk by chunk instead.
            pieces = try markdown.chunks.map { chunk in
                var fragment: [UInt8] = []
                try CommonMark.appendHTML(of: markdown.bytes[chunk.range], to: &fragment)
                return fragment[...]
            }
            return appendWrapped(pieces, markdown.chunks, to: &out)
        }
        appendWrapped(pieces, markdown.chunks, to: &out)
    }

    private static func appendWrapped(
        _ pieces: [ArraySlice<UInt8>], _ chunks: [(style: SectionStyle?, range: Range<Int>)], to out: inout [UInt8]
    ) {
        for (piece, chunk) in zip(pieces, chunks) {
            if let style = chunk.style {
                // A section of the outline has a heading; a styled group without one is a div.
                let element: StaticString = startsWithHeading(piece) ? "section" : "div"
                out.append(UInt8(ascii: "<"))
                element.withUTF8Buffer { out.append(contentsOf: $0) }
                out.append(contentsOf: " class=\"".utf8)
                out.append(contentsOf: style.name.utf8)
                out.append(contentsOf: "\">\n".utf8)
                out.append(contentsOf: piece)
                out.append(contentsOf: "</".utf8)
                element.withUTF8Buffer { out.append(contentsOf: $0) }
                out.append(contentsOf: ">\n".utf8)
            } else {
                out.append(contentsOf: piece)
            }
        }
    }

    /// `bytes` cut at each line that is `separator`.
    static func split(_ bytes: [UInt8], at separator: [UInt8]) -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var pieceStart = 0
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var line = 0
            while line < buffer.count {
                let matches =
                    buffer[line] == separator[0] && line + separator.count <= buffer.count
                    && separator.withUnsafeBytes { memcmp(base + line, $0.baseAddress!, separator.count) } == 0
                if matches {
                    pieces.append(bytes[pieceStart..<line])
                    line += separator.count
                    pieceStart = line
                    continue
                }
                guard let newline = memchr(base + line, 0x0A, buffer.count - line) else { break }
                line = UnsafeRawPointer(newline) - UnsafeRawPointer(base) + 1
            }
        }
        pieces.append(bytes[pieceStart...])
        return pieces
    }

    /// `<h1>` to `<h6>`.
    static func startsWithHeading(_ html: ArraySlice<UInt8>) -> Bool {
        guard html.count >= 4 else { return false }
        let i = html.startIndex
        return html[i] == UInt8(ascii: "<") && html[i + 1] == UInt8(ascii: "h")
            && (UInt8(ascii: "1")...UInt8(ascii: "6")).contains(html[i + 2]) && html[i + 3] == UInt8(ascii: ">")
    }
}
