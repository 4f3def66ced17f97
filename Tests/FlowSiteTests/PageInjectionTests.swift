import FlowSiteTesting
import FlowSiteUtilities
import Foundation
import PropertyBased
import Testing

@testable import FlowSite

/// Data can never add a tag, an attribute or a URL to a page: not through cmark, and not through
/// the layout (title, meta description, breadcrumbs, heading, dialog label, navigation, footer).
///
/// Every case renders one whole page twice: with hostile strings in every place a value can land,
/// and with "shadow" strings of the same shape made of harmless letters. The two pages must have
/// the same tags, the same attribute names and the same URLs, and the same number of `<`, `>`
/// and `"`. Set `HOLOCRON_FUZZ_CASES` for a longer run (the normal suite runs 2,000 cases).
@Suite struct PageInjectionTests {
    static let cases = ProcessInfo.processInfo.environment["HOLOCRON_FUZZ_CASES"].flatMap(Int.init) ?? 2000

    /// Scalars that end a text run in HTML, scalars that fuse with a neighbour into one grapheme
    /// cluster (Prepend before, combining marks and joiners after), controls, noncharacters, and
    /// whole attack fragments.
    static func hostileText() -> Generator<String, some Sequence & SendableMetatype> {
        let fragment = Gen.element(of: [
            "<img src=x onerror=alert(1)//", "\" autofocus onfocus=alert(1) x=\"", "' onmouseover='alert(1)",
            "</title><script>alert(1)</script>", "javascript:alert(1)", "&lt;b&gt;", "&#60;", "{{title}}",
            "<!--", "-->", "]]>", "\u{1B}]0;owned\u{7}", "\u{1B}[2J"
        ]).map { String($0!) }
        let scalar = Gen<UnicodeScalar>.frequency(
            (4, Gen.element(of: Array("<>\"'&=/ `!-".unicodeScalars)).map { $0! }),
            (
                3,
                Gen.element(
                    of: Array(
                        "\u{600}\u{601}\u{602}\u{603}\u{604}\u{605}\u{6DD}\u{70F}\u{8E2}\u{110BD}\u{110CD}"
                            .unicodeScalars)
                ).map { $0! }
            ),
            (
                3,
                Gen.element(
                    of: Array("\u{301}\u{300}\u{36F}\u{20D2}\u{FE20}\u{200D}\u{200C}\u{FE0F}\u{1F3FB}".unicodeScalars)
                ).map { $0! }
            ),
            (2, Gen.unicodeScalar(in: "\u{0}"..."\u{20}")),
            (1, Gen.unicodeScalar(in: "\u{7F}"..."\u{9F}")),
            (
                1,
                Gen.element(
                    of: [0xFDD0, 0xFDEF, 0xFFFE, 0xFFFF, 0x1FFFF, 0x10FFFE, 0xFEFF, 0x202E, 0x2028].map {
                        Unicode.Scalar($0)!
                    }
                ).map { $0! }
            ),
            (2, Gen.unicodeScalar(in: "a"..."z")),
            (1, Gen.unicodeScalar(in: "\u{80}"..."\u{D7FF}")),
            (1, Gen.unicodeScalar(in: "\u{E000}"..."\u{10FFFF}"))
        ).map { String(Character($0)) }
        return Gen.frequency((5, scalar), (1, fragment)).array(of: 0...12).map { $0.joined() }
    }

    @Test func dataNeverAddsTagsAttributesOrURLs() async throws {
        await propertyCheck(count: Self.cases, input: Self.hostileText(), Self.hostileText(), Self.hostileText()) {
            a, b, c in
            let hostile = try Self.renderPage(a, b, c)
            let shadow = try Self.renderPage(Self.shadow(of: a), Self.shadow(of: b), Self.shadow(of: c))
            let hostileTags = HTMLTags.scan(hostile)
            let shadowTags = HTMLTags.scan(shadow)
            #expect(
                hostileTags == shadowTags,
                "data changed the page's markup: \([a, b, c].map(\.debugDescription))\n\(hostile)")
            for mark in ["<", ">", "\""] as [Unicode.Scalar] {
                #expect(
                    hostile.unicodeScalars.count(where: { $0 == mark })
                        == shadow.unicodeScalars.count(where: { $0 == mark }),
                    "a raw \(mark) came from data: \([a, b, c].map(\.debugDescription))"
                )
            }
            #expect(
                !hostile.unicodeScalars.contains(where: HTMLEscaping.isForbidden),
                "a control character or noncharacter reached the page: \([a, b, c].map(\.debugDescription))")
        }
    }

    @Test(arguments: [
        "Luke \u{605}<img src=x onerror=alert(1)// \u{605}>",
        "\"\u{301} autofocus onfocus=alert(1) x=\"",
        "<\u{301}script>alert(1)</script\u{301}>",
        "\u{6DD}'\u{6DD}&\u{6DD}<"
    ])
    func knownAttacksStayText(name: String) throws {
        let html = try Self.renderPage(name, name, name)
        #expect(
            HTMLTags.scan(html)
                == HTMLTags.scan(
                    try Self.renderPage(Self.shadow(of: name), Self.shadow(of: name), Self.shadow(of: name))))
        let title = try #require(HTMLTags.text(of: "h1", in: html))
        #expect(title == name)
    }

    /// Found by the fuzzer: a list item holding only a no-break space is text, where an item holding a
    /// plain space is empty; the shadow must keep the no-break space.
    @Test func aNoBreakSpaceKeepsItsShape() throws {
        let text = "\u{A0}"
        let hostile = try Self.renderPage("", text, "")
        let shadow = try Self.renderPage("", Self.shadow(of: text), "")
        #expect(HTMLTags.scan(hostile) == HTMLTags.scan(shadow))
        #expect(hostile.contains("<li>\u{A0}</li>"))
    }

    @Test func controlCharactersBecomeReplacementCharacters() throws {
        let html = try Self.renderPage("a\u{0}b\u{1B}[2Jc\u{7F}\u{85}d", "e\u{1}f", "g")
        #expect(HTMLTags.text(of: "h1", in: html) == "a\u{FFFD}b\u{FFFD}[2Jc\u{FFFD}\u{FFFD}d")
        #expect(!html.unicodeScalars.contains(where: HTMLEscaping.isForbidden))
        #expect(html.contains("e\u{FFFD}f"))
    }

    /// One page as a modal with a breadcrumb trail: every value the layout shows comes from
    /// `a`, `b` or `c`.
    static func renderPage(_ a: String, _ b: String, _ c: String) throws -> String {
        let site = SiteInfo<Node>(
            name: c, language: "en", footer: b,
            navigation: [NavigationAction(a, to: "list"), NavigationAction(b, to: "other")]
        )
        let renderer = try PageRenderer<Node>(templates: .embedded, site: site)
        var document = MarkdownDocument<Node>()
        document.paragraph(.text(b), .link(c, to: "list"))
        document.heading(a)
        document.attributes([("Name", a), ("Home", c)])
        document.list([[.text(b)], [.link(a, to: "other")]])
        let page = Page<Node>(title: a, shortTitle: c, summary: b, document: document)
        let visit = PageVisit<Node>(
            route: "list/item", page: page,
            breadcrumbs: [
                Breadcrumb(title: c, route: ""), Breadcrumb(title: b, route: "list"),
                Breadcrumb(title: a, route: "list/item")
            ],
            presentation: .modal, presenter: Breadcrumb(title: b, route: "list")
        )
        return String(decoding: try renderer.render(visit), as: UTF8.self)
    }

    /// A harmless string of the same shape: whitespace kept, punctuation as `.`, everything else
    /// as `x`, so Markdown sees the same emphasis and line structure.
    static func shadow(of text: String) -> String {
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if MarkdownEscaping.isWhitespace(scalar) {
                // Kept as it is: a no-break space is whitespace to the emphasis rules but text to
                // a paragraph, so no one stand-in has its shape.
                out.append(scalar)
            } else if MarkdownEscaping.isPunctuation(scalar) {
                out.append(".")
            } else {
                out.append("x")
            }
        }
        return String(out)
    }
}
