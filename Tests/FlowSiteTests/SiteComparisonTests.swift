import Foundation
import Testing

@testable import FlowSite

/// A shop: a home page that links to every product and to the returns page. Each product page
/// says where it was made and what it costs; the returns page's kind is named by the shop.
enum Shop: Route {
    case home, product(Int), returns(kind: String)

    var path: RoutePath {
        switch self {
        case .home: .root
        case .product(let number): ["products", Slug("\(number)")]
        case .returns: ["returns"]
        }
    }

    var screenKind: ScreenKind {
        switch self {
        case .home: ScreenKind("home", name: "Home")
        case .product: ScreenKind("product", name: "Product")
        case .returns(let kind): ScreenKind(Slug(kind).rawValue, name: kind)
        }
    }
}

struct ShopApp: RootCoordinator {
    var products = 501
    var madeOn = "Tatooine"
    /// Product 7's price; the others cost 10.
    var price = 10
    var returnsKind: String? = "Returns policy"
    /// Whether the returns page links back home (a transition of its own).
    var returnsLinksHome = false
    /// The returns page's title, and the text of every link to it.
    var returnsTitle = "Returns"
    /// The home page's title: the first step of every other page's breadcrumb trail.
    var homeTitle = "Shop"
    /// Whether every product page links to the returns page.
    var productsLinkReturns = false
    /// The first word of each link on the home page to a product ("Product 3").
    var productLabel = "Product"

    var startRoute: Shop { .home }
    var siteInfo: SiteInfo<Shop> { SiteInfo(name: "Shop", footer: "A test shop.") }
    func makeScreen(for route: Shop) async throws -> any Screen<Shop> { ShopScreen(route: route, app: self) }
    func presentation(of route: Shop, from source: Shop) -> Presentation { .push }
}

struct ShopScreen: Screen {
    let route: Shop
    let app: ShopApp

    func makePage() async throws -> Page<Shop> {
        var document = MarkdownDocument<Shop>()
        switch route {
        case .home:
            document.list((0..<app.products).map { [.link("\(app.productLabel) \($0)", to: .product($0))] })
            if let kind = app.returnsKind { document.paragraph(.link(app.returnsTitle, to: .returns(kind: kind))) }
            return Page(title: app.homeTitle, document: document)
        case .product(let number):
            document.paragraph(.text("Made on: \(app.madeOn)"))
            document.paragraph(.text("Price: \(number == 7 ? app.price : 10) credits"))
            if app.productsLinkReturns, let kind = app.returnsKind {
                document.paragraph(.link(app.returnsTitle, to: .returns(kind: kind)))
            }
            return Page(title: "Product \(number)", document: document)
        case .returns:
            document.paragraph("Within 30 days.")
            if app.returnsLinksHome { document.paragraph(.link("Shop", to: .home)) }
            return Page(title: app.returnsTitle, document: document)
        }
    }
}

/// The parts of `holocron diff` that need no app of its own: reading a page's text, comparing two
/// flows, grouping changes, and the shop's builds.
@Suite struct SiteComparisonTests {
    /// The comparison of the shop built as `old` and as `new`.
    func compare(_ old: ShopApp, _ new: ShopApp) async throws -> SiteComparison {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (before, after) = (folder.appendingPathComponent("old"), folder.appendingPathComponent("new"))
        _ = try await SiteBuilder(coordinator: old).build(into: before)
        _ = try await SiteBuilder(coordinator: new).build(into: after)
        return try SiteComparison(old: before, new: after)
    }

    /// One price changed among 501 pages that all change where they were made: the price is the
    /// first entry, whole, and the 501 are one entry with their count, in every format.
    @Test func aDistinctChangeComesFirstAndARepeatedOneIsOneEntry() async throws {
        let comparison = try await compare(ShopApp(), ShopApp(madeOn: "Tatooine Prime", price: 12))
        #expect(comparison.pagesChanged == 501)
        let groups = comparison.groups
        #expect(
            groups.map { "\($0.before ?? "") → \($0.after ?? ""): \($0.pages.count)" } == [
                "10 → 12: 1", "Tatooine → Tatooine Prime: 501"
            ])
        #expect(groups.first?.pages.map(\.page.path) == ["products/7/index.html"])

        let text = comparison.text(.init(limit: 2)).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(
            Array(text.prefix(6)) == [
                "501 pages changed; 0 removed; 0 added", "",
                "~ Product 7 (/products/7/): Price: [10 → 12] credits",
                "~ [Tatooine → Tatooine Prime] on 501 pages:",
                "    Product 0 (/products/0/): Made on: [Tatooine → Tatooine Prime]",
                "    Product 1 (/products/1/): Made on: [Tatooine → Tatooine Prime]"
            ])
        #expect(text.contains("    … and 499 more (`--format json` names every page)"))
        // The review page names every page, those past the limit behind a summary.
        let review = try comparison.reviewPage(.init(limit: 2))
        #expect(review.contains("<li><details><summary>…and 499 more</summary>"))
        #expect(review.contains("Product 500</bdi> <code>/products/500/</code>"))

        let markdown = comparison.markdown(.init(limit: 2)).split(separator: "\n")
        let price = try #require(
            markdown.firstIndex {
                $0.hasPrefix("| **Product 7** `/products/7/` | Price | **10** credits | **12** credits |")
            })
        let madeOn = try #require(
            markdown.firstIndex { $0.contains("| Made on | **Tatooine** | **Tatooine Prime** |") })
        #expect(price < madeOn)
        #expect(
            markdown[madeOn].hasPrefix(
                "| 501 pages: **Product 0** `/products/0/`, **Product 1** `/products/1/`, …and 499 more |"))

        // A comment too small for both keeps the distinct change and leaves out the repeated one
        // (the report keeps 400 characters spare for what follows the table).
        var small = SiteComparison.ReportOptions(limit: 2)
        small.maximumCharacters = comparison.markdown(.init(limit: 2)).utf8.count + 340
        let cut = comparison.markdown(small)
        #expect(cut.contains("| Price | **10** credits | **12** credits |") && !cut.contains("| Made on |"))
        #expect(cut.contains("…and 1 more change, left out to fit a comment"))

        let json = try #require(try JSONSerialization.jsonObject(with: Data(comparison.json().utf8)) as? [String: Any])
        let entries = try #require(json["groups"] as? [[String: Any]])
        #expect(entries.map { ($0["pages"] as? [Any])?.count } == [1, 501])

        // A cut hides more pages than the limit, never "… and 1 more": four pages at a limit of 2 are all named.
        let four = try await compare(ShopApp(products: 4), ShopApp(products: 4, madeOn: "Naboo")).text(.init(limit: 2))
        #expect(!four.contains("more") && four.contains("    Product 3 (/products/3/): Made on: [Tatooine → Naboo]"))
        #expect(json["pagesChanged"] as? Int == 501 && (json["kinds"] as? [Any])?.isEmpty == false)
    }

    /// A link between pages is named by its target's title as well as its path (issue 63, item 4).
    @Test func aLinkNamesItsTargetByTitle() async throws {
        let comparison = try await compare(ShopApp(products: 3), ShopApp(products: 3, returnsLinksHome: true))
        let text = comparison.text(.init(limit: 5))
        #expect(text.contains("  + Returns → Shop (/)"), "\(text)")
        let markdown = comparison.markdown(.init(limit: 5))
        #expect(markdown.contains("- Returns `/returns/` → Shop `/`"))
        // The line added has a row that says so, not an empty one.
        #expect(markdown.contains("| **Returns** `/returns/` | *added* | | Shop |"), "\(markdown)")
    }

    /// A kind renamed, with the same page and transitions, reads as a rename: one row of the kinds
    /// table, a line of the flow, no kind gone and none new.
    @Test func aKindRenamedReadsAsARename() async throws {
        let comparison = try await compare(ShopApp(products: 3), ShopApp(products: 3, returnsKind: "Returns & refunds"))
        #expect(
            comparison.flow.renames == [
                .init(
                    idBefore: "returns-policy", idAfter: "returns-refunds", nameBefore: "Returns policy",
                    nameAfter: "Returns & refunds")
            ])
        #expect(comparison.flow.kinds.isEmpty && comparison.flow.transitions.isEmpty)
        #expect(comparison.kinds.map(\.id) == ["home", "product", "returns-refunds"])
        #expect(comparison.summaryLine.contains("1 screen kind renamed"))
        let markdown = comparison.markdown()
        #expect(
            markdown.contains("| Returns &amp; refunds \\(renamed from Returns policy\\) | 1 | 1 | 0 | 0 | 0 |"),
            "\(markdown)")
        #expect(markdown.contains("| **All** (2 kinds unchanged) | 5 | 5 | 0 | 0 | 0 |"))
        #expect(
            comparison.text().contains(
                "~ screen kind Returns policy (returns-policy) renamed Returns & refunds (returns-refunds)"))
        #expect(comparison.json().contains(#""renames" : ["#))
    }

    /// A kind whose page moved to a kind of another shape (a new transition) is no rename: the
    /// kinds table lists the old kind as removed and the new one as new.
    @Test func aKindGoneIsListedAsRemoved() async throws {
        let comparison = try await compare(
            ShopApp(products: 3), ShopApp(products: 3, returnsKind: "Refunds", returnsLinksHome: true))
        #expect(comparison.flow.renames.isEmpty)
        let markdown = comparison.markdown()
        #expect(markdown.contains("| Returns policy \\(removed\\) | 1 | 0 | 0 | 0 | 0 |"), "\(markdown)")
        #expect(markdown.contains("| Refunds \\(new\\) | 0 | 1 | 0 | 0 | 1 |"))
        #expect(markdown.contains("| **All** (2 kinds unchanged) |"))
    }

    /// The comparison and its review page (made while both sites are still there).
    func review(_ old: ShopApp, _ new: ShopApp) async throws -> (SiteComparison, String) {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (before, after) = (folder.appendingPathComponent("old"), folder.appendingPathComponent("new"))
        _ = try await SiteBuilder(coordinator: old).build(into: before)
        _ = try await SiteBuilder(coordinator: new).build(into: after)
        let comparison = try SiteComparison(old: before, new: after)
        return (comparison, try comparison.reviewPage())
    }

    /// Each group as "what: before → after on N" pages.
    static func rows(_ groups: [SiteComparison.ChangeGroup]) -> [String] {
        groups.map { "\($0.what.rawValue): \($0.before ?? "-") → \($0.after ?? "-") on \($0.pages.count)" }
    }

    /// The returns page renamed Refunds: its title and the link to it on the home page and on
    /// every product page are one change, "Returns → Refunds" with its page count, not a
    /// removal and an addition repeated on every page; the same sites give the same bytes.
    @Test func aRenameAcrossPagesIsOneChangeWithItsCount() async throws {
        let old = ShopApp(products: 3, productsLinkReturns: true)
        let new = ShopApp(products: 3, returnsTitle: "Refunds", productsLinkReturns: true)
        let (comparison, page) = try await review(old, new)
        #expect(comparison.pagesChanged == 5)
        let groups = comparison.groups
        #expect(Self.rows(groups) == ["text: Returns → Refunds on 5"])
        let products = (0..<3).map { "products/\($0)/index.html" }
        #expect(groups.first?.pages.map(\.page.path) == ["returns/index.html", "index.html"] + products)
        let text = comparison.text()
        #expect(text.contains("\n~ [Returns → Refunds] on 5 pages of 3 kinds:\n"), "\(text)")
        #expect(text.contains("\n    Refunds (/returns/): [Returns → Refunds]\n"))
        #expect(!text.contains("+ Refunds") && !text.contains("- Returns"), "\(text)")
        #expect(page.contains(#"<li class="changed"><p><del>Returns</del> → <ins>Refunds</ins> on 5 pages"#))
        #expect(comparison.markdown().contains("| 5 pages of 3 kinds: "))

        // One text removed and another added on the same pages, but a second addition there too:
        // which is the rename can't be told, so nothing is paired.
        let removed = SiteComparison.ChangeGroup(what: .text, before: "A", after: nil, pages: [])
        var added = SiteComparison.ChangeGroup(what: .text, before: nil, after: "B", pages: [])
        for path in ["a.html", "b.html"] {
            let page = SiteComparison.PageName(path: path, title: path)
            added.pages.append(.init(page: page, kind: "k", change: .init(before: nil, after: "B")))
        }
        var removedOnBoth = removed
        removedOnBoth.pages = added.pages.map {
            .init(page: $0.page, kind: "k", change: .init(before: "A", after: nil))
        }
        var alsoAdded = added
        alsoAdded.after = "C"
        #expect(SiteComparison.pairingRenames([removedOnBoth, added]).map(\.after) == ["B"])
        #expect(SiteComparison.pairingRenames([removedOnBoth, added, alsoAdded]).count == 3)

        // The same two sites compare to the same bytes, in every format.
        let (again, pageAgain) = try await review(old, new)
        #expect(again.text() == text && again.json() == comparison.json() && again.markdown() == comparison.markdown())
        #expect(pageAgain == page)
    }

    /// The returns page retitled, and the one link to it (on the home page) relabelled: one change on two
    /// pages, "[Returns → Refunds] exchanges", not a title row, an addition and a removal.
    @Test func aPageRetitledAndTheOneLinkToItAreOneChange() async throws {
        let old = ShopApp(products: 1, returnsTitle: "Returns and exchanges")
        let new = ShopApp(products: 1, returnsTitle: "Refunds and exchanges")
        let (comparison, page) = try await review(old, new)
        #expect(Self.rows(comparison.groups) == ["text: Returns → Refunds on 2"])
        #expect(
            comparison.groups.first?.pages.map(\.change?.after) == ["Refunds and exchanges", "Refunds and exchanges"])
        let text = comparison.text()
        #expect(text.contains("\n~ [Returns → Refunds] on 2 pages of 2 kinds:\n"), "\(text)")
        #expect(text.contains("\n    Shop (/): [Returns → Refunds] and exchanges\n"), "\(text)")
        #expect(!text.contains("+ Refunds") && !text.contains("- Returns"), "\(text)")
        #expect(page.contains("<del>Returns</del> → <ins>Refunds</ins> on 2 pages"))

        // A text removed and another added on one page, with no such change elsewhere, stay two: nothing says
        // the one is the other.
        let relabelled = try await compare(
            ShopApp(products: 1, returnsKind: nil, productLabel: "Our product"),
            ShopApp(products: 1, returnsKind: nil, productLabel: "An item"))
        #expect(Self.rows(relabelled.groups) == ["text: - → An item 0 on 1", "text: Our product 0 → - on 1"])
    }

    /// Items cut from a page are listed in the order the page had them, not last first.
    @Test func cutItemsKeepThePagesOrder() {
        let items = ["Contact", "Notifire on the web", "Privacy", "Terms"].map {
            PageText.Item(section: "General", text: $0)
        }
        let changes = SiteComparison.changes(from: items, to: [items[2]])
        #expect(changes.map(\.before) == ["Contact", "Notifire on the web", "Terms"])
    }

    /// The home page renamed: every other page's text is the same and its breadcrumb trail is
    /// not. Those pages are one change that says so, not changed pages with no row.
    @Test func pagesWhoseOnlyChangeIsTheirTrailSaySo() async throws {
        let (comparison, page) = try await review(ShopApp(products: 3), ShopApp(products: 3, homeTitle: "Store"))
        #expect(comparison.pagesChanged == 5)
        let trailOnly = comparison.kinds.flatMap(\.changed).filter { $0.trail != nil }
        let paths = (0..<3).map { "products/\($0)/index.html" } + ["returns/index.html"]
        #expect(trailOnly.map(\.page.path).sorted() == paths)
        #expect(trailOnly.first?.trail == .init(before: "Shop › Product 0", after: "Store › Product 0"))
        #expect(Self.rows(comparison.groups) == ["text: Shop → Store on 1", "trail changed: Shop → Store on 4"])
        let text = comparison.text()
        #expect(text.contains("\n~ Store (/): [Shop → Store]\n"), "\(text)")
        #expect(text.contains("\n~ breadcrumb trail changed: [Shop → Store] on 4 pages of 2 kinds:\n"), "\(text)")
        #expect(text.contains("\n    Product 0 (/products/0/): [Shop → Store] › Product 0\n"), "\(text)")
        let title = "Breadcrumb trail changed (the pages’ text is the same): <del>Shop</del> → <ins>Store</ins>"
        #expect(page.contains(title), "\(page)")
        #expect(comparison.markdown().contains("| breadcrumb trail changed | **Shop** | **Store** |"))
        #expect(comparison.json().contains(#""what" : "trail changed""#))

        // One product's trail alone: the line names the page and says what changed.
        let lone = ShopApp(products: 1, returnsKind: nil)
        let one = try await compare(lone, ShopApp(products: 1, returnsKind: nil, homeTitle: "Store")).text()
        let line = "~ Product 0 (/products/0/): breadcrumb trail changed: [Shop → Store] › Product 0"
        #expect(one.contains("\n" + line + "\n"), "\(one)")
    }

    /// A page's content is read as items under their headings, with its links resolved from
    /// the page's folder; the layout around it is chrome.
    @Test func pageTextReadsItemsLinksAndChrome() {
        let html = """
            <!doctype html><html><head><title>Luke · Site</title><style>h1 { color: red }</style></head>
            <body><header><a href="../../index.html">Site</a></header>
            <main id="content"><h1>Luke &amp; Leia</h1>
            <ul><li><strong>Height:</strong> 172&#160;cm</li><li>Mass:   77 kg</li></ul>
            <section><h2>Films</h2><ul><li><a href="../../films/a-new-hope/index.html#top">A New Hope</a></li>
            <li><a href="https://example.com/" class="external">elsewhere\
            <span class="link-note"> (leaves the site)</span></a></li>\
            <li><a href="../../../../etc/passwd">out</a></li></ul>\
            </section>
            <table><tr><th>Name</th><th>Year</th></tr><tr><td>X</td><td>1977</td></tr></table>
            <!-- <p>hidden</p> --><script>var a = "<p>not text</p>";</script>
            </main><footer><p>Made with care.</p></footer></body></html>
            """
        let text = PageText(html: Array(html.utf8), path: "characters/luke/index.html")
        #expect(text.title == "Luke & Leia")
        // A link's note is the layout's, not the page's text: "elsewhere", never "elsewhere (leaves the site)".
        #expect(
            text.items.map(\.text) == [
                "Luke & Leia", "Height: 172 cm", "Mass: 77 kg", "Films", "A New Hope", "elsewhere", "out",
                "Name | Year", "X | 1977"
            ])
        #expect(text.items.first { $0.text == "A New Hope" }?.section == "Films")
        #expect(text.items[1].label == "Height" && text.items[2].value == "77 kg")
        #expect(text.links == ["films/a-new-hope/index.html"])
        #expect(text.chrome.map(\.text) == ["Site", "Made with care."])
    }

    /// Two flows compare as kinds and transitions: a push that became a modal is one change,
    /// not an added and a removed transition; a finding whose count changed is one change.
    @Test func flowDiffNamesPresentationChangesAndFindings() {
        let old = FlowRecord(
            kinds: [
                .init(id: "home", name: "Home", flow: "Home", pages: 1),
                .init(id: "film", name: "Film", flow: "Films", pages: 6),
                .init(id: "old", name: "Old", flow: "Old", pages: 1)
            ],
            transitions: [
                .init(from: "home", to: "film", presentation: "push", links: 6),
                .init(from: "home", to: "old", presentation: "push", links: 1)
            ],
            findings: [
                .init(rule: "dead-end", kind: "film", message: "2 Film pages"),
                .init(rule: "click-depth", kind: "film", message: "deep")
            ]
        )
        let new = FlowRecord(
            kinds: [
                .init(id: "home", name: "Home", flow: "Home", pages: 1),
                .init(id: "film", name: "Film", flow: "Films", pages: 6),
                .init(id: "about", name: "About", flow: "About", pages: 1)
            ],
            transitions: [
                .init(from: "home", to: "film", presentation: "modal", links: 6),
                .init(from: "home", to: "about", presentation: "push", links: 1)
            ],
            findings: [
                .init(rule: "dead-end", kind: "film", message: "3 Film pages"),
                .init(rule: "modal-over-modal", kind: nil, message: "stacked")
            ]
        )
        let diff = FlowDiff(old: old, new: new)
        #expect(diff.kinds.map(\.id) == ["about", "old"])
        #expect(
            diff.transitions.filter(\.presentationChanged).map { "\($0.from)>\($0.to) \($0.before)>\($0.after)" } == [
                #"home>film ["push"]>["modal"]"#
            ])
        #expect(
            diff.transitions.filter(\.isAdded).map(\.to) == ["about"]
                && diff.transitions.filter(\.isRemoved).map(\.to) == ["old"])
        #expect(diff.changedFindings.map(\.after.message) == ["3 Film pages"])
        #expect(
            diff.newFindings.map(\.rule) == ["modal-over-modal"] && diff.goneFindings.map(\.rule) == ["click-depth"])
        #expect(diff.lines().contains("~ transition Home → Film: presented by push → modal"))
        #expect(FlowDiff(old: new, new: new).isEmpty)
    }

    /// The flow record reads back what it writes, and a damaged one is an error naming its file.
    @Test func flowRecordAndPageIndexRoundTrip() throws {
        let record = FlowRecord(
            kinds: [.init(id: "a b", name: "A", flow: "A", pages: 2)], transitions: [], findings: [])
        #expect(try FlowRecord(json: Data(record.json().utf8), source: "x") == record)
        #expect(throws: FlowSiteError.self) { try FlowRecord(json: Data("{".utf8), source: "site/.flowsite-flow.json") }
        var hash = StableHash()
        hash.combine("page")
        let index = PageIndex(pages: [
            "a/index.html": .init(content: hash, kind: "kind with space%"),
            "b c/index.html": .init(content: hash, kind: "k")
        ])
        #expect(try PageIndex(bytes: index.bytes(), source: "x") == index)
        #expect(throws: FlowSiteError.self) { try PageIndex(bytes: Array("pages 1\nnot a line\n".utf8), source: "x") }
    }

    /// The Markdown escaping leaves nothing a comment would act on.
    @Test func markdownEscapingNeutralisesMarkupMentionsAndBidi() {
        let escaped = SiteComparison.escaped("a|b <i>x</i> @me #1 [l](u) *e* \u{202E}r\nnext")
        #expect(escaped == #"a\|b &lt;i&gt;x&lt;/i&gt; &#64;me &#35;1 \[l\]\(u\) \*e\* �r next"#)
        #expect(SiteComparison.url("https://example.com/x", "a (1)/index.html") == "https://example.com/x/a%20%281%29/")
        #expect(SiteComparison.inline("Height: 172 cm", "Height: 180 cm") == "Height: [172 → 180] cm")
        #expect(
            SiteComparison.inline("Homeworld: Tatooine", "Homeworld: Tatooine Prime")
                == "Homeworld: [Tatooine → Tatooine Prime]")
    }
}
