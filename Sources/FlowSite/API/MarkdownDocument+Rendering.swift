extension MarkdownDocument {
    /// The document as Markdown, with each route link turned into a URL by `url`.
    package func markdown(linking url: @escaping (R) -> String, siteFile: @escaping (String) -> String = { $0 }) -> String {
        MarkdownWriter(url: url, siteFile: siteFile).write(blocks)
    }

    /// The document cut into runs of plain blocks and styled sections, in order, so the renderer
    /// can wrap each section in its own element.
    package func chunks(linking url: @escaping (R) -> String, siteFile: @escaping (String) -> String = { $0 }) -> [(style: SectionStyle?, markdown: String)] {
        let writer = MarkdownWriter(url: url, siteFile: siteFile)
        var chunks: [(style: SectionStyle?, markdown: String)] = []
        var plain: [Block] = []
        func flush() {
            if !plain.isEmpty { chunks.append((nil, writer.write(plain))) }
            plain = []
        }
        for block in blocks {
            if case .section(let section) = block {
                flush()
                chunks.append((section.style, writer.write(section.blocks)))
            } else {
                plain.append(block)
            }
        }
        flush()
        return chunks
    }
}

/// Writes blocks as CommonMark text. Internal: the public face is ``MarkdownDocument/markdown(linking:siteFile:)``.
struct MarkdownWriter<R: Route> {
    let url: (R) -> String
    let siteFile: (String) -> String

    func write(_ blocks: [MarkdownDocument<R>.Block]) -> String {
        var parts: [String] = []
        for block in blocks {
            parts.append(write(block))
        }
        return parts.filter { !$0.isEmpty }.joined(separator: "\n\n") + (parts.isEmpty ? "" : "\n")
    }

    private func write(_ block: MarkdownDocument<R>.Block) -> String {
        switch block {
        case .heading(let level, let inlines):
            let level = min(max(level, 1), 6)
            return String(repeating: "#", count: level) + " " + line(inlines)
        case .paragraph(let inlines):
            let text = line(inlines)
            return text.isEmpty ? "" : text
        case .list(let items):
            return items.map { "- " + line($0) }.joined(separator: "\n")
        case .orderedList(let items):
            return items.enumerated().map { "\($0.offset + 1). " + line($0.element) }.joined(separator: "\n")
        case .attributes(let pairs):
            return pairs.map { pair in
                "- " + line([.strong([.text(pair.name + ":")]), .text(" ")] + pair.value)
            }.joined(separator: "\n")
        case .section(let section):
            return write(section.blocks).trimmingTrailingNewlines
        case .thematicBreak:
            return "* * *"
        }
    }

    /// One block's inline content, trimmed as cmark would trim it.
    private func line(_ inlines: [MarkdownDocument<R>.Inline]) -> String {
        var out = ""
        write(inlines, into: &out)
        return out.trimmingSpaces
    }

    private func write(_ inlines: [MarkdownDocument<R>.Inline], into out: inout String) {
        for (index, inline) in inlines.enumerated() {
            switch inline {
            case .text(let text):
                out += MarkdownEscaping.escape(text, atLineStart: Self.isLineStart(out))
            case .code(let code):
                out += codeSpan(code)
            case .lineBreak:
                out += "\\\n"
            case .link(let label, let route):
                out += "[" + linkLabel(label) + "](" + url(route) + ")"
            case .siteFile(let label, let path):
                out += "[" + linkLabel(label) + "](" + siteFile(path) + ")"
            case .emphasis(let inner):
                emphasis(inner, delimiter: "*", next: inlines[(index + 1)...], into: &out)
            case .strong(let inner):
                emphasis(inner, delimiter: "**", next: inlines[(index + 1)...], into: &out)
            }
        }
    }

    private func linkLabel(_ label: [MarkdownDocument<R>.Inline]) -> String {
        var text = ""
        write(label.map(\.withoutLinks), into: &text)
        text = text.trimmingSpaces
        return text.isEmpty ? "Untitled" : text
    }

    /// Whether text appended to `out` would begin a line: nothing but spaces so far, or a hard
    /// line break just before.
    static func isLineStart(_ out: String) -> Bool {
        // Stops at the first byte that is not a space: O(1) for any line under way.
        !out.utf8.contains { $0 != UInt8(ascii: " ") } || out.utf8.last == UInt8(ascii: "\n") && out.hasSuffix("\\\n")
    }

    /// Writes `*inner*` only where CommonMark's flanking rules make it emphasis; elsewhere the
    /// inner text is written plain, so a delimiter never shows as a literal asterisk.
    private func emphasis(
        _ inner: [MarkdownDocument<R>.Inline], delimiter: String,
        next: ArraySlice<MarkdownDocument<R>.Inline>, into out: inout String
    ) {
        var body = ""
        write(inner, into: &body)
        let leading = String(String.UnicodeScalarView(body.unicodeScalars.prefix { $0 == " " }))
        let trailing = String(String.UnicodeScalarView(body.unicodeScalars.reversed().prefix { $0 == " " }))
        let core = body.trimmingSpaces
        var following = ""
        write(Array(next.prefix(1)), into: &following)

        let before = leading.isEmpty ? out.unicodeScalars.last : " "
        let after = trailing.isEmpty ? following.unicodeScalars.first : " "
        let canOpen = core.unicodeScalars.first.map { first in
            !MarkdownEscaping.isWhitespace(first)
                && (!MarkdownEscaping.isPunctuation(first) || before.map { MarkdownEscaping.isWhitespace($0) || MarkdownEscaping.isPunctuation($0) } ?? true)
        } ?? false
        let canClose = core.unicodeScalars.last.map { last in
            !MarkdownEscaping.isWhitespace(last)
                && (!MarkdownEscaping.isPunctuation(last) || after.map { MarkdownEscaping.isWhitespace($0) || MarkdownEscaping.isPunctuation($0) } ?? true)
        } ?? false

        out += leading
        if canOpen && canClose {
            out += delimiter + core + delimiter
        } else {
            out += core
        }
        out += trailing
    }

    /// A code span whose fence is longer than any run of backticks inside.
    private func codeSpan(_ code: String) -> String {
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

extension MarkdownDocument.Inline {
    /// Link labels can't hold links: nested links keep only their label.
    fileprivate var withoutLinks: MarkdownDocument.Inline {
        switch self {
        case .link(let label, _), .siteFile(let label, _): .strong(label.map(\.withoutLinks)).unwrappedStrong
        case .emphasis(let inner): .emphasis(inner.map(\.withoutLinks))
        case .strong(let inner): .strong(inner.map(\.withoutLinks))
        case .text, .code, .lineBreak: self
        }
    }

    fileprivate var unwrappedStrong: MarkdownDocument.Inline {
        if case .strong(let inner) = self, inner.count == 1 { return inner[0] }
        return self
    }
}

extension String {
    /// Without leading and trailing spaces, by scalar: a space followed by a combining mark is
    /// one Character, but cmark still trims the space.
    fileprivate var trimmingSpaces: String {
        var scalars = Substring(self).unicodeScalars
        while scalars.first == " " { scalars.removeFirst() }
        while scalars.last == " " { scalars.removeLast() }
        return String(scalars)
    }

    fileprivate var trimmingTrailingNewlines: String {
        var s = Substring(self)
        while s.last == "\n" { s.removeLast() }
        return String(s)
    }
}
