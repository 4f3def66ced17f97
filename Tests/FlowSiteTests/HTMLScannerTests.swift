import Foundation
import Testing

@testable import FlowSite
@testable import FlowSiteUtilities

/// The one HTML scanner splits a page as a browser's tokenizer does, for the link checker, `diff`'s page text and
/// FlowSiteTesting's tag comparisons alike.
@Suite struct HTMLScannerTests {
    static func tokens(_ html: String) -> [HTMLScanner.Token] {
        var scanner = HTMLScanner(html)
        var tokens: [HTMLScanner.Token] = []
        while let token = scanner.next() { tokens.append(token) }
        return tokens
    }

    static func text(_ text: String) -> HTMLScanner.Token { .text(ArraySlice(text.utf8)) }

    @Test func tagsAttributesAndTextAreSplitAsABrowserSplitsThem() {
        let tokens = Self.tokens(
            #"<!DOCTYPE html><P Class=lead data-x = 'a "b"' hidden>1 < 2<br/></p><a href="x.html?a=1&amp;b=2">"#)
        #expect(
            tokens == [
                .other,
                .start(
                    "p",
                    [
                        .init(name: "class", value: "lead"), .init(name: "data-x", value: #"a "b""#),
                        .init(name: "hidden", value: "")
                    ]),
                Self.text("1 "), Self.text("< 2"), .start("br", []), .end("p"),
                .start("a", [.init(name: "href", value: "x.html?a=1&amp;b=2")])
            ])
    }

    @Test func commentsEndAtTheirCloseAndScriptTextHoldsNoTags() {
        let tokens = Self.tokens(
            #"<!-- a > b --><script>if (a<b) { x = "<a href='no'>" }</SCRIPT><style>p>a{}</style>end"#)
        #expect(
            tokens == [
                .other, .start("script", []), Self.text(#"if (a<b) { x = "<a href='no'>" }"#), .end("script"),
                .start("style", []), Self.text("p>a{}"), .end("style"), Self.text("end")
            ])
        #expect(LinkChecker.references(in: #"<script>"<a href='no'>"</script><img src="yes.png">"#) == ["yes.png"])
    }

    @Test func anUnfinishedTagOrCommentEndsWithThePage() {
        #expect(
            Self.tokens("text<a href=\"open") == [Self.text("text"), .start("a", [.init(name: "href", value: "open")])])
        #expect(Self.tokens("<!-- never closed") == [.other])
        #expect(Self.tokens("<") == [Self.text("<")])
    }

    @Test func referencesAreDecodedWithEveryKindOfEntity() {
        #expect(HTMLScanner.decodeEntities("a&amp;b&lt;&#x41;&#66;&nbsp;&unknown;&") == "a&b<AB\u{A0}&unknown;&")
        // A mark that joins the `&` to the character before it, or a combining mark after the `;`, hides neither.
        // (Compared outside `#expect`, whose copy of the source text can't hold these escapes.)
        let joined = HTMLScanner.decodeEntities("\u{605}&lt;x&quot;\u{301}") == "\u{605}<x\"\u{301}"
        #expect(joined)
    }
}
