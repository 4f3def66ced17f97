import Testing

@testable import FlowSite

@Suite struct CommonMarkTests {
    @Test func rendersMarkdown() throws {
        #expect(try CommonMark.html(from: "Hello *world*") == "<p>Hello <em>world</em></p>\n")
        #expect(
            try CommonMark.html(from: "## Title\n\n- a\n- b") == "<h2>Title</h2>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n"
        )
    }

    @Test func rawHTMLIsOmitted() throws {
        let html = try CommonMark.html(from: "before\n\n<script>alert(1)</script>\n\nafter <b onclick=x>bold</b>")
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b "))
        #expect(html.contains("raw HTML omitted"))
        #expect(html.contains("<p>before</p>"))
    }

    @Test func unsafeLinkDestinationsAreDropped() throws {
        let html = try CommonMark.html(from: "[x](javascript:alert(1)) [y](vbscript:z) [ok](page/index.html)")
        #expect(!html.contains("javascript:"))
        #expect(!html.contains("vbscript:"))
        #expect(html.contains(#"<a href="page/index.html">ok</a>"#))
    }

    @Test func theUnsafeOptionCannotBeTurnedOn() throws {
        // 1 << 17 is CMARK_OPT_UNSAFE; the bridge masks it off.
        let html = try CommonMark.html(from: "<script>x</script>", options: [CommonMark.Options(rawValue: 1 << 17)])
        #expect(!html.contains("<script>"))
    }

    @Test func smartPunctuationIsAnOption() throws {
        #expect(try CommonMark.html(from: "\"a\" -- b", options: [.smart]) == "<p>\u{201C}a\u{201D} \u{2013} b</p>\n")
    }

    @Test func reportsItsVersion() {
        #expect(CommonMark.version.split(separator: ".").count >= 2)
    }
}
