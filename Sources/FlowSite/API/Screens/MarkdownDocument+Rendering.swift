import FlowSiteUtilities

extension MarkdownDocument {
    /// The document as Markdown, with each route link turned into a URL by `url`.
    public func markdown(
        linking url: @escaping (R) -> String, siteFile: @escaping (String) -> String = { $0 }
    ) -> String {
        var out: [UInt8] = []
        let routes = routes
        let writer = MarkdownWriter(
            url: { index, out in out.append(contentsOf: url(routes[index]).utf8) },
            siteFile: { path, out in out.append(contentsOf: siteFile(path).utf8) }
        )
        writer.write(blocks, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The document's Markdown cut into runs of plain blocks and styled sections, in order, so the renderer can
    /// wrap each section; `url` appends a route's URL and `siteFile` a site file's.
    func pageMarkdown(
        linking url: (R, inout [UInt8]) -> Void, siteFile: (String, inout [UInt8]) -> Void
    ) -> PageMarkdown {
        withoutActuallyEscaping(url) { url in
            withoutActuallyEscaping(siteFile) { siteFile in
                let routes = routes
                let writer = MarkdownWriter(url: { index, out in url(routes[index], &out) }, siteFile: siteFile)
                var page = PageMarkdown()
                page.hasUserContent = hasUserContent
                page.hasExternalLinks = !externalURLs.isEmpty
                page.bytes.reserveCapacity(4096)
                var index = blocks.startIndex
                while index < blocks.endIndex {
                    let start = page.bytes.count
                    if case .section(let style, let inner) = blocks[index] {
                        writer.write(inner, into: &page.bytes)
                        page.chunks.append((style, start..<page.bytes.count))
                        index += 1
                    } else if case .userContent = blocks[index] {
                        // A chunk of its own, so no block of the body runs on into the page's.
                        writer.write(blocks[index...index], into: &page.bytes)
                        page.chunks.append((.userContent, start..<page.bytes.count))
                        index += 1
                    } else {
                        var end = index
                        while end < blocks.endIndex, !blocks[end].isOwnChunk { end += 1 }
                        writer.write(blocks[index..<end], into: &page.bytes)
                        page.chunks.append((nil, start..<page.bytes.count))
                        index = end
                    }
                }
                return page
            }
        }
    }
}

extension MarkdownBlock {
    /// Whether the block is a chunk of the page's Markdown of its own: a section or user content.
    fileprivate var isOwnChunk: Bool {
        switch self {
        case .section, .userContent: true
        default: false
        }
    }
}

/// A page's Markdown as UTF-8 bytes, cut into chunks: runs of plain blocks (no style) and styled sections, in order.
struct PageMarkdown: Sendable {
    /// Every chunk's Markdown, one after the other.
    var bytes: [UInt8] = []
    /// Each chunk's style and its bytes.
    var chunks: [(style: SectionStyle?, range: Range<Int>)] = []
    /// Whether some chunk holds user content, whose links are then marked as such.
    var hasUserContent = false
    /// Whether the app links out of the site (``MarkdownDocument/Inline/externalLink(_:url:)``).
    var hasExternalLinks = false

    init() {}

    /// Each chunk's style and Markdown text.
    var texts: [(style: SectionStyle?, markdown: String)] {
        chunks.map { ($0.style, String(decoding: bytes[$0.range], as: UTF8.self)) }
    }
}

/// Writes blocks as CommonMark text, straight into UTF-8 bytes. `segment` is where a piece of inline text's own
/// buffer would begin, so the escaper knows whether text starts a line and emphasis sees the scalar before.
struct MarkdownWriter {
    typealias Block = MarkdownBlock
    typealias Inline = MarkdownInline

    /// Appends the URL of the document's link target with this index.
    let url: (Int, inout [UInt8]) -> Void
    let siteFile: (String, inout [UInt8]) -> Void

    /// The blocks, separated by blank lines, with a final line break (none for no blocks).
    func write<Blocks: Collection<Block>>(_ blocks: Blocks, into out: inout [UInt8]) {
        guard !blocks.isEmpty else { return }
        var wrote = false
        // Two lists in a row with the same marker are one list to CommonMark: the second takes the other marker.
        var marker = Marker()
        var previous: Marker.Kind?
        for block in blocks {
            let mark = out.count
            if wrote {
                out.append(UInt8(ascii: "\n"))
                out.append(UInt8(ascii: "\n"))
            }
            let kind = Marker.kind(of: block)
            if let kind, kind == previous { marker.toggle(kind) } else if kind != nil { marker = Marker() }
            let start = out.count
            write(block, marker: marker, into: &out)
            if out.count == start {
                out.removeSubrange(mark...)
            } else {
                wrote = true
                previous = kind
            }
        }
        out.append(UInt8(ascii: "\n"))
    }

    /// The markers the next list is written with.
    struct Marker {
        enum Kind { case bullet, ordered }
        var bullet = UInt8(ascii: "-")
        var ordered = UInt8(ascii: ".")

        mutating func toggle(_ kind: Kind) {
            switch kind {
            case .bullet: bullet = bullet == UInt8(ascii: "-") ? UInt8(ascii: "*") : UInt8(ascii: "-")
            case .ordered: ordered = ordered == UInt8(ascii: ".") ? UInt8(ascii: ")") : UInt8(ascii: ".")
            }
        }

        static func kind(of block: Block) -> Kind? {
            switch block {
            case .list, .linkList, .attributes: .bullet
            case .orderedList: .ordered
            default: nil
            }
        }
    }

    private func write(_ block: Block, marker: Marker = Marker(), into out: inout [UInt8]) {
        switch block {
        case .heading(let level, let inlines):
            for _ in 0..<min(max(level, 1), 6) { out.append(UInt8(ascii: "#")) }
            out.append(UInt8(ascii: " "))
            line(inlines, into: &out)
        case .paragraph(let inlines):
            line(inlines, into: &out)
        case .list(let items):
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: "\n")) }
                out.append(marker.bullet)
                out.append(UInt8(ascii: " "))
                line(item, into: &out)
            }
        case .linkList(let labels, let firstRoute):
            for (index, label) in labels.enumerated() {
                if index > 0 { out.append(UInt8(ascii: "\n")) }
                out.append(marker.bullet)
                out.append(UInt8(ascii: " "))
                let start = out.count
                out.append(UInt8(ascii: "["))
                let labelStart = out.count
                Self.appendEscaped(label, atLineStart: true, into: &out)
                Self.trimSpaces(from: labelStart, in: &out)
                if out.count == labelStart { out.append(contentsOf: "Untitled".utf8) }
                out.append(UInt8(ascii: "]"))
                out.append(UInt8(ascii: "("))
                url(firstRoute + index, &out)
                out.append(UInt8(ascii: ")"))
                Self.trimSpaces(from: start, in: &out)
            }
        case .orderedList(let items):
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: "\n")) }
                out.append(contentsOf: "\(index + 1)".utf8)
                out.append(marker.ordered)
                out.append(UInt8(ascii: " "))
                line(item, into: &out)
            }
        case .attributes(let pairs):
            for (index, pair) in pairs.enumerated() {
                if index > 0 { out.append(UInt8(ascii: "\n")) }
                out.append(marker.bullet)
                out.append(UInt8(ascii: " "))
                // "**Name:** value", with the name's emphasis judged like any other.
                let start = out.count
                emphasis([.text(pair.name + ":")], delimiter: "**", following: " ", segment: start, into: &out)
                out.append(UInt8(ascii: " "))
                write(pair.value, segment: start, into: &out)
                Self.trimSpaces(from: start, in: &out)
            }
        case .section(_, let blocks):
            let start = out.count
            write(blocks, into: &out)
            while out.count > start, out.last == UInt8(ascii: "\n") { out.removeLast() }
        case .thematicBreak:
            out.append(contentsOf: "* * *".utf8)
        case .codeBlock(let language, let code):
            Self.appendCodeBlock(code, language: language, into: &out)
        case .userContent(let markdown):
            out.append(contentsOf: markdown.utf8)
        }
    }

    /// A fenced code block showing `code` as it is: the fence outruns any backtick run inside, a final line break
    /// is dropped (cmark ends every line with one), and controls HTML forbids read as U+FFFD, tabs kept.
    static func appendCodeBlock(_ code: String, language: String?, into out: inout [UInt8]) {
        var longest = 0
        var run = 0
        for byte in code.utf8 {
            run = byte == UInt8(ascii: "`") ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = repeatElement(UInt8(ascii: "`"), count: max(3, longest + 1))
        out.append(contentsOf: fence)
        out.append(contentsOf: (language ?? "").utf8)
        out.append(UInt8(ascii: "\n"))
        var body = code[...]
        if body.unicodeScalars.last == "\n" { body.unicodeScalars.removeLast() }
        if body.unicodeScalars.last == "\r" { body.unicodeScalars.removeLast() }
        if body.unicodeScalars.contains(where: {
            $0 != "\t" && $0 != "\n" && $0 != "\r" && HTMLEscaping.isForbidden($0)
        }) {
            let kept = body.unicodeScalars.map {
                $0 != "\t" && $0 != "\n" && $0 != "\r" && HTMLEscaping.isForbidden($0) ? "\u{FFFD}" : $0
            }
            out.append(contentsOf: String(String.UnicodeScalarView(kept)).utf8)
        } else {
            out.append(contentsOf: body.utf8)
        }
        if !body.isEmpty { out.append(UInt8(ascii: "\n")) }
        out.append(contentsOf: fence)
    }

    /// One block's inline content, trimmed as cmark would trim it.
    private func line(_ inlines: [Inline], into out: inout [UInt8]) {
        let start = out.count
        write(inlines, segment: start, into: &out)
        Self.trimSpaces(from: start, in: &out)
    }

    private func write(_ inlines: [Inline], segment: Int, into out: inout [UInt8]) {
        for index in inlines.indices {
            switch inlines[index] {
            case .text(let text):
                Self.appendEscaped(text, atLineStart: Self.isLineStart(out, segment: segment), into: &out)
            case .code(let code):
                out.append(contentsOf: Self.codeSpan(code).utf8)
            case .lineBreak:
                out.append(UInt8(ascii: "\\"))
                out.append(UInt8(ascii: "\n"))
            case .link(let label, let route):
                link(label, into: &out) { url(route, &$0) }
            case .siteFile(let label, let path):
                link(label, into: &out) { siteFile(path, &$0) }
            case .external(let label, let url):
                // A pointy destination, its backslashes, brackets and ampersands escaped: cmark writes it as given.
                link(label, into: &out) { out in
                    out.append(UInt8(ascii: "<"))
                    for byte in url.utf8 {
                        if byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                            || byte == UInt8(ascii: "&")
                        {
                            out.append(UInt8(ascii: "\\"))
                        }
                        out.append(byte)
                    }
                    out.append(UInt8(ascii: ">"))
                }
            case .emphasis(let inner), .strong(let inner):
                let delimiter = if case .strong = inlines[index] { "**" } else { "*" }
                let next = index + 1 < inlines.endIndex ? inlines[index + 1] : nil
                emphasis(
                    inner, delimiter: delimiter, following: next.flatMap(firstScalar), segment: segment, into: &out)
            }
        }
    }

    /// `[label](destination)`, the destination appended by `destination`.
    private func link(_ label: [Inline], into out: inout [UInt8], destination: (inout [UInt8]) -> Void) {
        out.append(UInt8(ascii: "["))
        linkLabel(label, into: &out)
        out.append(UInt8(ascii: "]"))
        out.append(UInt8(ascii: "("))
        destination(&out)
        out.append(UInt8(ascii: ")"))
    }

    private func linkLabel(_ label: [Inline], into out: inout [UInt8]) {
        // The document keeps no links inside a label (see MarkdownDocument.stored).
        let start = out.count
        write(label, segment: start, into: &out)
        Self.trimSpaces(from: start, in: &out)
        if out.count == start { out.append(contentsOf: "Untitled".utf8) }
    }

    /// The first scalar `inline` is written as, alone in a buffer.
    private func firstScalar(of inline: Inline) -> Unicode.Scalar? {
        if case .text(let text) = inline {
            if text.isEmpty { return nil }
            if let first = text.utf8.first, MarkdownEscaping.isCollapsibleWhitespace(Unicode.Scalar(first)) {
                return " "
            }
            if MarkdownEscaping.isPlain(text) { return text.unicodeScalars.first }
        }
        var scratch: [UInt8] = []
        write([inline], segment: 0, into: &scratch)
        return Self.firstScalar(scratch, in: 0..<scratch.count)
    }

    /// Writes `*inner*` only where CommonMark's flanking rules make it emphasis, else the inner text plain;
    /// `following` is the first scalar of what comes next, if anything does.
    private func emphasis(
        _ inner: [Inline], delimiter: String, following: Unicode.Scalar?, segment: Int, into out: inout [UInt8]
    ) {
        let bodyStart = out.count
        write(inner, segment: bodyStart, into: &out)
        let bodyEnd = out.count
        var leading = 0
        while bodyStart + leading < bodyEnd, out[bodyStart + leading] == UInt8(ascii: " ") { leading += 1 }
        if leading == bodyEnd - bodyStart {
            // Only spaces: they count as leading and as trailing, and no delimiter is written.
            out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: leading))
            return
        }
        var trailing = 0
        while out[bodyEnd - 1 - trailing] == UInt8(ascii: " ") { trailing += 1 }
        let coreStart = bodyStart + leading
        let coreEnd = bodyEnd - trailing

        let before = leading == 0 ? Self.lastScalar(out, in: segment..<bodyStart) : " "
        let after = trailing == 0 ? following : " "
        let first = Self.firstScalar(out, in: coreStart..<coreEnd)!
        let last = Self.lastScalar(out, in: coreStart..<coreEnd)!
        let canOpen =
            !MarkdownEscaping.isWhitespace(first)
            && (!MarkdownEscaping.isPunctuation(first)
                || before.map { MarkdownEscaping.isWhitespace($0) || MarkdownEscaping.isPunctuation($0) } ?? true)
        let canClose =
            !MarkdownEscaping.isWhitespace(last)
            && (!MarkdownEscaping.isPunctuation(last)
                || after.map { MarkdownEscaping.isWhitespace($0) || MarkdownEscaping.isPunctuation($0) } ?? true)
        if canOpen && canClose {
            out.insert(contentsOf: delimiter.utf8, at: coreEnd)
            out.insert(contentsOf: delimiter.utf8, at: coreStart)
        }
    }

    /// Appends the escaped form of `text`; most names and values need no escaping.
    static func appendEscaped(_ text: String, atLineStart: Bool, into out: inout [UInt8]) {
        if MarkdownEscaping.isPlain(text) {
            out.append(contentsOf: text.utf8)
        } else {
            MarkdownEscaping.append(text, atLineStart: atLineStart, to: &out)
        }
    }

    /// Whether text appended now would begin a line: the segment so far is only spaces or ends with a hard break.
    static func isLineStart(_ out: [UInt8], segment: Int) -> Bool {
        var index = segment
        while index < out.count, out[index] == UInt8(ascii: " ") { index += 1 }
        if index == out.count { return true }
        return out.count - segment >= 2 && out[out.count - 1] == UInt8(ascii: "\n")
            && out[out.count - 2] == UInt8(ascii: "\\")
    }

    /// Removes the spaces at both ends of what was written from `start` on.
    static func trimSpaces(from start: Int, in out: inout [UInt8]) {
        while out.count > start, out.last == UInt8(ascii: " ") { out.removeLast() }
        var leading = 0
        while start + leading < out.count, out[start + leading] == UInt8(ascii: " ") { leading += 1 }
        if leading > 0 { out.removeSubrange(start..<start + leading) }
    }

    static func firstScalar(_ bytes: [UInt8], in range: Range<Int>) -> Unicode.Scalar? {
        guard !range.isEmpty else { return nil }
        if bytes[range.lowerBound] < 0x80 { return Unicode.Scalar(bytes[range.lowerBound]) }
        let end = min(range.upperBound, range.lowerBound + 4)
        return String(decoding: bytes[range.lowerBound..<end], as: UTF8.self).unicodeScalars.first
    }

    static func lastScalar(_ bytes: [UInt8], in range: Range<Int>) -> Unicode.Scalar? {
        guard !range.isEmpty else { return nil }
        var start = range.upperBound - 1
        if bytes[start] < 0x80 { return Unicode.Scalar(bytes[start]) }
        while start > range.lowerBound, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return String(decoding: bytes[start..<range.upperBound], as: UTF8.self).unicodeScalars.last
    }

    /// A code span whose fence is longer than any run of backticks inside.
    static func codeSpan(_ code: String) -> String {
        let flat = MarkdownEscaping.normalize(code)
        if flat.isEmpty { return "" }
        var longest = 0
        var run = 0
        for character in flat {
            run = character == "`" ? run + 1 : 0
            longest = max(longest, run)
        }
        let fence = String(repeating: "`", count: longest + 1)
        let padded = flat.hasPrefix("`") || flat.hasSuffix("`") || (flat.hasPrefix(" ") && flat.hasSuffix(" "))
        return fence + (padded ? " " + flat + " " : flat) + fence
    }
}
