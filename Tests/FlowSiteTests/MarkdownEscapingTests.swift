import Foundation
import PropertyBased
import Testing

@testable import FlowSite

/// Text from data must come out of cmark as exactly that text, never as markup.
@Suite struct MarkdownEscapingTests {
    /// Random strings that lean on the characters Markdown gives meaning to.
    static func hostileText() -> Generator<String, some Sequence & SendableMetatype> {
        Gen<UnicodeScalar>.frequency(
            (
                3,
                Gen.element(of: Array("*_[]()<>&\\#-+.!`~|=:;\"'{}/@%^$?,1234567890 \t\n\r\u{0B}\u{0C}".unicodeScalars))
                    .map { $0! }
            ),
            (2, Gen.unicodeScalar(in: "\u{0}"..."\u{7F}")),
            (2, Gen.unicodeScalar(in: "\u{80}"..."\u{D7FF}")),
            (1, Gen.unicodeScalar(in: "\u{E000}"..."\u{FFFD}")),
            (1, Gen.unicodeScalar(in: "\u{10000}"..."\u{10FFFF}"))
        ).array(of: 0...40).map { String(String.UnicodeScalarView($0)) }
    }

    /// The escaper's rules, case by case: block markers only where a line starts, whitespace
    /// runs as one space, forbidden characters as U+FFFD, a final "!" escaped, and text appended
    /// after what the buffer already holds.
    @Test func escapingFollowsItsRulesCaseByCase() {
        let cases: [(String, Bool, String)] = [
            ("1. a", true, "1\\. a"), ("1. a", false, "1. a"), ("  12) b!", true, " 12\\) b\\!"),
            ("-x", true, "\\-x"), ("-x", false, "-x"), ("\u{FEFF}!", true, "&#xFEFF;\\!"),
            ("a\u{0}b", true, "a\u{FFFD}b"), ("!", true, "\\!"), (" ! ", true, " ! "),
            ("\u{85}1.", true, "\u{FFFD}1\\."), ("a*b_[c]", false, "a\\*b\\_\\[c\\]"), ("é\t\n=", true, "é =")
        ]
        for (text, atLineStart, expected) in cases {
            var out = Array("x".utf8)
            MarkdownEscaping.append(text, atLineStart: atLineStart, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == "x" + expected, "\(text.debugDescription)")
            #expect(MarkdownEscaping.escape(text, atLineStart: atLineStart) == expected, "\(text.debugDescription)")
        }
    }

    /// The ASCII shortcuts of the emphasis rules' character classes agree with Unicode's tables.
    @Test func asciiShortcutsAgreeWithTheUnicodeCategories() {
        let punctuation: Set<Unicode.GeneralCategory> = [
            .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation, .initialPunctuation,
            .finalPunctuation, .otherPunctuation, .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol
        ]
        for value in UInt32(0)...0x2FFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            #expect(
                MarkdownEscaping.isPunctuation(scalar) == punctuation.contains(category),
                "U+\(String(value, radix: 16))")
            let whitespace = MarkdownEscaping.isCollapsibleWhitespace(scalar) || category == .spaceSeparator
            #expect(MarkdownEscaping.isWhitespace(scalar) == whitespace, "U+\(String(value, radix: 16))")
        }
    }

    @Test func paragraphTextRendersExactlyAsGiven() async throws {
        await propertyCheck(count: 3000, input: Self.hostileText()) { text in
            var document = MarkdownDocument<Node>()
            document.paragraph(.text(text))
            let html = try CommonMark.html(from: document.markdown(linking: { _ in "x" }))
            let expected = expectedText(text)
            if expected.isEmpty {
                #expect(html.isEmpty, "input \(text.debugDescription)")
            } else {
                // Compare scalars, not Characters: a combining mark in the data would otherwise
                // fuse with the tag's ">" and hide it from `hasPrefix` and `contains`.
                let scalars = Array(html.unicodeScalars)
                #expect(
                    scalars.starts(with: "<p>".unicodeScalars)
                        && scalars.reversed().starts(with: "</p>\n".unicodeScalars.reversed()),
                    "input \(text.debugDescription): \(html)")
                let inner = String(String.UnicodeScalarView(scalars.dropFirst(3).dropLast(5)))
                #expect(!inner.unicodeScalars.contains("<"), "a tag came from data: \(text.debugDescription) → \(html)")
                #expect(unescapeHTML(inner) == expected, "input \(text.debugDescription) → \(html)")
            }
        }
    }

    @Test func mixedInlinesKeepTheirTextAndOnlyOurTags() async throws {
        await propertyCheck(count: 2000, input: Self.hostileText(), Self.hostileText(), Self.hostileText()) { a, b, c in
            var document = MarkdownDocument<Node>()
            document.paragraph([
                .text(a), .strong([.text(b)]), .text(" "), .emphasis([.text(c)]), .link(a, to: "x"), .lineBreak,
                .text(b), .lineBreak, .text(c)
            ])
            document.heading(b)
            document.list([[.text(c)], [.link(b, to: "y")]])
            document.attributes([(a, c)])
            let html = try CommonMark.html(from: document.markdown(linking: { "\($0.name)/index.html" }))
            let stripped = stripAllowedTags(html)
            #expect(!stripped.unicodeScalars.contains("<"), "a tag came from data: \([a, b, c]) → \(html)")
            let text = unescapeHTML(stripped)
            for part in [a, b, c] where !expectedText(part).isEmpty {
                // By bytes: `contains` on Characters misses text whose first scalar fuses with
                // the one before it (a Hangul vowel after a leading consonant, say).
                #expect(
                    Array(text.utf8).firstRange(of: Array(expectedText(part).utf8)) != nil,
                    "lost \(part.debugDescription) in \(html)")
            }
            #expect(html.components(separatedBy: "<a href=").count == 3, "only our two links: \(html)")
        }
    }

    @Test(arguments: [
        ("*not emphasis*", "*not emphasis*"),
        ("<script>alert(1)</script>", "<script>alert(1)</script>"),
        ("[x](javascript:alert(1))", "[x](javascript:alert(1))"),
        ("# not a heading", "# not a heading"),
        ("- not a list", "- not a list"),
        ("+ not a list", "+ not a list"),
        ("1. not a list", "1. not a list"),
        ("2) not a list", "2) not a list"),
        ("&amp; stays &amp;", "&amp; stays &amp;"),
        ("`code`", "`code`"),
        ("back\\slash", "back\\slash"),
        ("> not a quote", "> not a quote"),
        ("line\r\nbreak", "line break"),
        ("a  \n  b", "a b"),
        ("<https://example.com>", "<https://example.com>"),
        ("![img](x.png)", "![img](x.png)"),
        ("___", "___"),
        ("nul\u{0}char", "nul\u{FFFD}char"),
        ("\u{FEFF}bom first", "\u{FEFF}bom first"),
        ("= setext?", "= setext?"),
        ("123) not a list", "123) not a list"),
        ("~~~ fence", "~~~ fence"),
        ("| a | b |", "| a | b |"),
        ("a - b + c = d 1. e", "a - b + c = d 1. e")
    ])
    func knownHazards(input: String, shown: String) throws {
        var document = MarkdownDocument<Node>()
        document.paragraph(.text(input))
        let html = try CommonMark.html(from: document.markdown(linking: { _ in "x" }))
        #expect(unescapeHTML(String(html.dropFirst(3).dropLast(5))) == shown)
        #expect(!html.dropFirst(3).dropLast(5).unicodeScalars.contains("<"))
    }

    @Test func blockMarkersAreEscapedOnlyWhereALineStarts() throws {
        var document = MarkdownDocument<Node>()
        document.paragraph("- 1,358 kg - X-wing 1. ok")
        document.paragraph(.text("a"), .lineBreak, .text("- b"), .lineBreak, .text("2. c"))
        let markdown = document.markdown(linking: { _ in "x" })
        #expect(markdown == "\\- 1,358 kg - X-wing 1. ok\n\na\\\n\\- b\\\n2\\. c\n")
        let html = try CommonMark.html(from: markdown)
        #expect(html == "<p>- 1,358 kg - X-wing 1. ok</p>\n<p>a<br />\n- b<br />\n2. c</p>\n")
    }

    @Test func strongAttributeNamesRenderAsStrong() throws {
        var document = MarkdownDocument<Node>()
        document.attributes([("Height", "172 cm"), ("Birth year", "19BBY")])
        let html = try CommonMark.html(from: document.markdown(linking: { _ in "x" }))
        #expect(
            html
                == """
                <ul>\n<li><strong>Height:</strong> 172 cm</li>\n<li><strong>Birth year:</strong> 19BBY</li>\n</ul>\n
                """
        )
    }

    @Test func emphasisThatCannotOpenFallsBackToPlainText() throws {
        var document = MarkdownDocument<Node>()
        document.paragraph([.text("a"), .emphasis([.text("(b)")]), .text("c")])
        let html = try CommonMark.html(from: document.markdown(linking: { _ in "x" }))
        #expect(html == "<p>a(b)c</p>\n")
    }

    @Test func codeSpansHoldBackticks() throws {
        var document = MarkdownDocument<Node>()
        document.paragraph(.code("a``b"), .text(" "), .code("`x`"))
        let html = try CommonMark.html(from: document.markdown(linking: { _ in "x" }))
        #expect(html == "<p><code>a``b</code> <code>`x`</code></p>\n")
    }
}

/// What a reader sees for `text` in a block: runs of whitespace collapsed, ends trimmed.
func expectedText(_ text: String) -> String {
    var normalized = Substring(MarkdownEscaping.normalize(text)).unicodeScalars
    while normalized.first == " " { normalized.removeFirst() }
    while normalized.last == " " { normalized.removeLast() }
    return String(normalized)
}

func unescapeHTML(_ html: String) -> String {
    html.replacingOccurrences(of: "&lt;", with: "<", options: .literal)
        .replacingOccurrences(of: "&gt;", with: ">", options: .literal)
        .replacingOccurrences(of: "&quot;", with: "\"", options: .literal)
        .replacingOccurrences(of: "&amp;", with: "&", options: .literal)
}

/// The HTML with the tags our builder may produce removed; whatever `<` remains came from data.
func stripAllowedTags(_ html: String) -> String {
    var text = html
    for tag in ["p", "strong", "em", "ul", "li", "h2", "code"] {
        text = text.replacingOccurrences(of: "<\(tag)>", with: "", options: .literal)
            .replacingOccurrences(of: "</\(tag)>", with: "", options: .literal)
    }
    text = text.replacingOccurrences(of: "</a>", with: "", options: .literal)
        .replacingOccurrences(of: "<br />", with: "", options: .literal)
    while let start = text.range(of: "<a href=\"", options: .literal),
        let end = text.range(of: "\">", options: .literal, range: start.upperBound..<text.endIndex)
    {
        text.removeSubrange(start.lowerBound..<end.upperBound)
    }
    return text
}
