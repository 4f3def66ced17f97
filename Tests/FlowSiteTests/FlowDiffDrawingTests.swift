import FlowMapLayout
import Foundation
import Testing

@testable import FlowSite

/// A mall: a home page that leads to its shops, a cart, help, an account page and an about page;
/// each build of it can add, remove, rename or re-present one of them.
enum Mall: Route {
    case home, shop(Int), cart, help(name: String), account, about, offers(name: String)

    var path: RoutePath {
        switch self {
        case .home: .root
        case .shop(let number): ["shops", Slug("\(number)")]
        case .cart: ["cart"]
        case .help: ["help"]
        case .account: ["account"]
        case .about: ["about"]
        case .offers: ["offers"]
        }
    }

    var screenKind: ScreenKind {
        switch self {
        case .home: ScreenKind("home", name: "Home")
        case .shop: ScreenKind("shop", name: "Shop")
        case .cart: ScreenKind("cart", name: "Cart")
        case .help(let name): ScreenKind(Slug(name).rawValue, name: name)
        case .account: ScreenKind("account", name: "Account")
        case .about: ScreenKind("about", name: "About")
        case .offers(let name): ScreenKind("offers", name: name)
        }
    }
}

struct MallApp: RootCoordinator {
    var shops = 3
    var helpName = "Help"
    var hasCart = true
    var hasOffers = false
    var accountPresentation = Presentation.push
    /// The hostile-name test gives it markup and a right-to-left override.
    var offersName = "Offers"

    var startRoute: Mall { .home }
    var siteInfo: SiteInfo<Mall> { SiteInfo(name: "Mall", footer: "A test mall.") }
    func makeScreen(for route: Mall) async throws -> any Screen<Mall> { MallScreen(route: route, app: self) }
    func presentation(of route: Mall, from source: Mall) -> Presentation {
        route == .account ? accountPresentation : .push
    }
}

struct MallScreen: Screen {
    let route: Mall
    let app: MallApp

    func makePage() async throws -> Page<Mall> {
        var document = MarkdownDocument<Mall>()
        switch route {
        case .home:
            document.list((0..<app.shops).map { [.link("Shop \($0)", to: .shop($0))] })
            if app.hasCart { document.paragraph(.link("Cart", to: .cart)) }
            document.paragraph(.link(app.helpName, to: .help(name: app.helpName)))
            document.paragraph(.link("Account", to: .account))
            document.paragraph(.link("About", to: .about))
            if app.hasOffers { document.paragraph(.link(app.offersName, to: .offers(name: app.offersName))) }
            return Page(title: "Mall", document: document)
        case .shop(let number):
            if app.hasCart { document.paragraph(.link("Cart", to: .cart)) }
            return Page(title: "Shop \(number)", document: document)
        case .offers:
            document.paragraph(.link("Shop 0", to: .shop(0)))
            return Page(title: app.offersName, document: document)
        case .about:
            document.paragraph(.link(app.helpName, to: .help(name: app.helpName)))
            return Page(title: "About page", document: document)
        default:
            document.paragraph("Nothing more.")
            return Page(title: "\(route.screenKind.name) page", document: document)
        }
    }
}

/// The drawn flow diff and the review page `diff --format html` writes.
@Suite struct FlowDiffDrawingTests {
    /// Builds `old` and `new` into a folder, hands `body` the comparison and the old whole map's
    /// page, and removes the folder.
    func compare<T>(_ old: MallApp, _ new: MallApp, _ body: (SiteComparison, String) throws -> T) async throws -> T {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let (before, after) = (folder.appendingPathComponent("old"), folder.appendingPathComponent("new"))
        _ = try await SiteBuilder(coordinator: old).build(into: before)
        _ = try await SiteBuilder(coordinator: new).build(into: after)
        let map = try String(contentsOf: before.appendingPathComponent("flow/index.html"), encoding: .utf8)
        return try body(try SiteComparison(old: before, new: after), map)
    }

    /// Every change of the mall at once: Offers added, Cart removed, Help renamed, a fourth shop,
    /// Account presented as a modal.
    let changed = MallApp(
        shops: 4, helpName: "Help & contact", hasCart: false, hasOffers: true, accountPresentation: .modal)

    func makeDrawing(_ comparison: SiteComparison) throws -> FlowDiffDrawing {
        let flows = try #require(comparison.flows)
        return try #require(
            try FlowDiffDrawing(old: flows.old, new: flows.new, diff: comparison.flow, link: { "#" + $0 }))
    }

    /// Each kind and transition the change touched carries its mark as a class, in its second
    /// line or label, and in its tooltip; what it didn't touch is drawn as context.
    @Test func kindsAndTransitionsAreMarkedInClassAndWords() async throws {
        let (drawing, page) = try await compare(MallApp(), changed) { comparison, _ in
            (try self.makeDrawing(comparison), try comparison.reviewPage())
        }
        // `REVIEW_PAGE=mall.html swift test --filter FlowDiffDrawingTests` keeps the page to look at.
        if let path = ProcessInfo.processInfo.environment["REVIEW_PAGE"] {
            try page.write(toFile: path, atomically: true, encoding: .utf8)
        }
        // The page carries its stylesheet inline (Resources/review.css), which paints each mark.
        let style = page[
            try #require(page.range(of: "<style>\n")).upperBound..<(try #require(page.range(of: "</style>")).lowerBound)
        ]
        #expect(
            style.contains(".flow-diff .kind.added rect { stroke: var(--added);")
                && style.contains("@media (prefers-color-scheme: dark)"))
        // On the page each box leads to its kind's row.
        #expect(page.contains(##"<a class="kind member added" href="#kind-"##) && page.contains(##"<tr id="kind-"##))
        func node(_ id: String) throws -> FlowMapSVG.Node {
            drawing.nodes[try #require(drawing.kinds.firstIndex(of: id), "\(id) isn't drawn")]
        }
        #expect(try node("offers").change == .added && node("offers").detail == "+ added · 1 page")
        #expect(try node("cart").change == .removed && node("cart").detail == "− removed · 1 page")
        #expect(try node("help-contact").change == .renamed && node("help-contact").name == "Help → Help & contact")
        #expect(try node("shop").change == .changed && node("shop").detail == "~ 3 → 4 pages")
        #expect(try node("about").change == nil && node("about").role == .context)
        #expect(try node("home").change == nil && node("home").role == .member)

        let svg = drawing.svg
        #expect(
            svg.contains(
                ##"""
                <a class="kind member added" href="#offers" aria-label="Offers · + added · 1 page">\##
                <title>Added: Offers, 1 page</title>
                """##
            ), "\(svg)")
        #expect(svg.contains(##"<a class="kind member removed" href="#cart""##))
        #expect(svg.contains(">Help → Help &amp; contact</text>"))
        #expect(svg.contains(#"<g class="transition push added"><title>Added: Home → Offers, push, 1 link</title>"#))
        #expect(svg.contains(#"<g class="transition push removed"><title>Cut: Shop → Cart, push, had 3 links</title>"#))
        #expect(
            svg.contains(
                #"""
                <g class="transition modal changed">\#
                <title>Presented another way: Home → Account, push → modal, 1 link</title>
                """#
            ))
        // About is drawn for Help, which it leads to; Home's own link to About isn't.
        #expect(
            svg.contains(
                #"<g class="transition push faded"><title>Unchanged: About → Help &amp; contact, push, 1 link</title>"#)
        )
        #expect(!svg.contains("Home → About"))
        #expect(svg.contains(">push → modal</text>") && svg.contains(">− 3</text>") && svg.contains(">+ 1</text>"))
    }

    /// A kind that stays is drawn where the old site's whole map drew it: its box's centre in the
    /// drawing's SVG is the one in the map's SVG; a new kind's box overlaps none.
    @Test func keptKindsSitWhereTheOldMapDrewThem() async throws {
        // Every change but the rename: no box grows into another.
        let change = MallApp(shops: 4, hasCart: false, hasOffers: true, accountPresentation: .modal)
        let (drawn, map) = try await compare(MallApp(), change) { comparison, map in (try makeDrawing(comparison), map)
        }
        #expect(drawn.spread == 1)
        // Help and About aren't drawn: neither changed nor next to a kind that did.
        #expect(!drawn.kinds.contains("help") && !drawn.kinds.contains("about"))
        try expectKept(drawn, map, ["home": "Home", "shop": "Shop", "cart": "Cart", "account": "Account"])
    }

    /// A rename's "old → new" widens its box: each kind still sits at its old centre times the
    /// drawing's spread (1 while no box grows into another), and no two boxes touch.
    @Test func aRenamedKindKeepsThePlaces() async throws {
        for name in ["Help & contact", "Help, contact and the questions people ask most often"] {
            var change = changed
            change.helpName = name
            let (drawn, map) = try await compare(MallApp(), change) { comparison, map in
                (try makeDrawing(comparison), map)
            }
            try expectKept(
                drawn, map,
                [
                    "home": "Home", "shop": "Shop", "cart": "Cart", Slug(name).rawValue: "Help", "account": "Account",
                    "about": "About"
                ])
        }
    }

    /// Boxes that come closer than the gap are spread apart by the least factor that clears them,
    /// across or down, whichever needs less; boxes already clear are left as they are.
    @Test func boxesGrownIntoEachOtherSpreadByTheLeastFactor() {
        let sizes = [
            LayoutResult.Box(x: 0, y: 0, width: 150, height: 40), .init(x: 0, y: 0, width: 150, height: 40),
            .init(x: 0, y: 0, width: 50, height: 40)
        ]
        // 100 apart across: they need 150 + 10; 60 apart down, clear of both by 10 at 1.
        let centres: [LayoutResult.Point?] = [.init(x: 100, y: 100), .init(x: 200, y: 100), .init(x: 100, y: 160), nil]
        #expect(FlowDiffDrawing.spread(centres, sizes + [sizes[0]], gap: 10) == 1.6)
        #expect(FlowDiffDrawing.spread([centres[0], centres[2]], [sizes[0], sizes[2]], gap: 10) == 1)
        // With a 30 pt gap they need 70 down: 70 / 60, up to the next hundredth.
        #expect(FlowDiffDrawing.spread([centres[0], centres[2]], [sizes[0], sizes[2]], gap: 30) == 1.17)
        #expect(FlowDiffDrawing.spread([.init(x: 0, y: 0), .init(x: 500, y: 0)], [sizes[0], sizes[1]], gap: 10) == 1)
    }

    /// Each kind of `kept` (new id: name on the old map) is drawn at its old centre times the
    /// drawing's spread, as the SVGs say; no two boxes overlap, and the view box holds them all.
    func expectKept(
        _ drawn: FlowDiffDrawing, _ map: String, _ kept: [String: String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let old = Dictionary(try centres(inSVG: map), uniquingKeysWith: { first, _ in first })
        let new = try centres(inSVG: drawn.svg).map(\.centre)
        for (id, oldName) in kept.sorted(by: { $0.key < $1.key }) {
            let index = try #require(drawn.kinds.firstIndex(of: id), sourceLocation: sourceLocation)
            let was = try #require(old[oldName], "\(oldName) isn't on the old map", sourceLocation: sourceLocation)
            let now = new[index]
            // Each read back to within 0.05 pt of the centre it was drawn at; a spread one rounded to 0.1.
            let slack = drawn.spread == 1 ? 0.11 : 0.2
            #expect(
                abs(was.x * drawn.spread - now.x) <= slack && abs(was.y * drawn.spread - now.y) <= slack,
                "\(id) moved from \(was) to \(now) (spread \(drawn.spread))", sourceLocation: sourceLocation)
        }
        let boxes = drawn.layout.nodes
        for first in boxes.indices {
            for second in boxes.indices where second > first {
                let (a, b) = (boxes[first], boxes[second])
                #expect(
                    abs(a.x - b.x) * 2 >= a.width + b.width || abs(a.y - b.y) * 2 >= a.height + b.height,
                    "\(drawn.kinds[first]) overlaps \(drawn.kinds[second])", sourceLocation: sourceLocation)
            }
        }
        let origin = drawn.layout.origin
        #expect(
            boxes.allSatisfy { $0.x - $0.width / 2 >= origin.x && $0.y - $0.height / 2 >= origin.y },
            sourceLocation: sourceLocation)
        #expect(
            boxes.allSatisfy {
                $0.x + $0.width / 2 <= origin.x + drawn.layout.width
                    && $0.y + $0.height / 2 <= origin.y + drawn.layout.height
            },
            sourceLocation: sourceLocation)
    }

    /// The boxes' centres an SVG draws (`<rect>` in each `<a class="kind …">`), in order, with
    /// the name in each box's first line: read from the text, as a reader's browser would.
    func centres(inSVG svg: String) throws -> [(name: String, centre: LayoutResult.Point)] {
        let pattern = try NSRegularExpression(
            pattern:
                #"""
                <a class="kind [^"]*"[^>]*>(?:<title>[^<]*</title>)?<rect x="([-0-9.]+)" y="([-0-9.]+)" \#
                width="([0-9.]+)" height="([0-9.]+)" rx="6"/><text[^>]*>([^<]*)</text>
                """#
        )
        let text = svg as NSString
        return pattern.matches(in: svg, range: NSRange(location: 0, length: text.length)).map { match in
            let number = { Double(text.substring(with: match.range(at: $0)))! }
            return (
                text.substring(with: match.range(at: 5)),
                LayoutResult.Point(x: number(1) + number(3) / 2, y: number(2) + number(4) / 2)
            )
        }
    }

    /// Read back from what the map drew, a box's centre is its layout's to within the 0.05 pt
    /// the SVG's one decimal allows.
    @Test func theMapsBoxesReadBack() throws {
        let nodes = ["Alpha", "Beta & <b>", "Gamma"].map {
            FlowMapSVG.Node(name: $0, detail: "2 pages", url: "#", role: .member)
        }
        let edges = [
            FlowMapSVG.Edge(from: 0, to: 1, presentation: .push, links: 2),
            FlowMapSVG.Edge(from: 1, to: 2, presentation: .modal, links: 1)
        ]
        let layout = try FlowMapSVG.layout(nodes: nodes, edges: edges)
        let read = try #require(
            FlowMapSVG.drawnBoxes(inPage: "<p>x</p>" + FlowMapSVG.draw(layout, nodes: nodes, edges: edges)))
        #expect(read.map(\.escapedName) == ["Alpha", "Beta &amp; &lt;b&gt;", "Gamma"])
        for (box, drawn) in zip(layout.nodes, read) {
            #expect(
                abs(box.x - drawn.box.x) <= 0.051 && abs(box.y - drawn.box.y) <= 0.051 && box.width == drawn.box.width)
        }
        #expect(FlowMapSVG.drawnBoxes(inPage: "<p>no map</p>") == nil)
    }

    /// Graphviz routes the edges between boxes where they are given: none moves, and each
    /// spline starts at its tail's box and ends at its head's.
    @Test func routingKeepsEveryBoxWhereItIsGiven() throws {
        let graph = LayoutGraph(
            nodes: [.init(label: "A"), .init(label: "B"), .init(label: "In the way")],
            edges: [.init(from: 0, to: 1, label: "3"), .init(from: 2, to: 0)])
        let centres = [LayoutResult.Point(x: 100, y: -40.5), .init(x: 400.3, y: -40.5), .init(x: 250, y: -40.5)]
        let result = try GraphvizLayout.route(graph, at: centres)
        #expect(result.nodes.map { LayoutResult.Point(x: $0.x, y: $0.y) } == centres)
        let (a, b) = (result.nodes[0], result.nodes[1])
        let first = try #require(result.edges[0].points.first)
        let last = try #require(result.edges[0].arrowTip)
        func onEdge(_ point: LayoutResult.Point, of box: LayoutResult.Box) -> Bool {
            abs(point.x - box.x) <= box.width / 2 + 2 && abs(point.y - box.y) <= box.height / 2 + 2
                && (abs(point.x - box.x) >= box.width / 2 - 2 || abs(point.y - box.y) >= box.height / 2 - 2)
        }
        #expect(onEdge(first, of: a) && onEdge(last, of: b), "\(result.edges[0])")
        // Around the box in the way, not through it.
        let blocker = result.nodes[2]
        #expect(result.edges[0].points.contains { abs($0.y - blocker.y) > blocker.height / 2 })
        #expect(result.origin.x <= a.x - a.width / 2 && result.origin.y <= a.y - a.height / 2)
        #expect(try GraphvizLayout.route(graph, at: centres) == result)
    }

    /// A new kind whose place beside its neighbour is taken moves until it is clear.
    @Test func aNewKindMovesOffABoxInItsPlace() {
        let draft = LayoutResult(
            width: 300, height: 100,
            nodes: [
                .init(x: 50, y: 50, width: 60, height: 30), .init(x: 150, y: 50, width: 60, height: 30),
                .init(x: 250, y: 50, width: 60, height: 30)
            ], edges: [])
        // Box 2 was where box 1's place beside box 0 is.
        let given: [LayoutResult.Point?] = [.init(x: 0, y: 0), nil, .init(x: 100, y: 0)]
        let placed = FlowDiffDrawing.place(given, draft: draft, neighbours: [[1], [0], []])
        #expect(placed[0] == given[0] && placed[2] == given[2])
        #expect(placed[1] == LayoutResult.Point(x: 100, y: 46), "\(placed[1])")
        #expect(!FlowDiffDrawing.overlap(placed, draft.nodes, gap: FlowDiffDrawing.gap))
    }

    /// The review page: the drawing with its legend, the grouped changes, the kinds; names from
    /// the sites escaped, controls that reorder text made visible; the same bytes each time.
    @Test func theReviewPageEscapesHostileNamesAndIsDeterministic() async throws {
        let hostile = "<script>alert(1)</script>\u{202E}txt.exe"
        let options = SiteComparison.ReportOptions(
            oldURL: "https://example.com/main/", newURL: "https://example.com/pr-1/")
        let (page, again, markdown) = try await compare(MallApp(), MallApp(hasOffers: true, offersName: hostile)) {
            comparison, _ in
            (
                try comparison.reviewPage(options), try comparison.reviewPage(options),
                comparison.markdown(.init(reviewURL: "review (1).html"))
            )
        }
        #expect(page == again)
        #expect(page.hasPrefix("<!doctype html>\n<html lang=\"en\">") && page.hasSuffix("</html>\n"))
        #expect(!page.contains("<script") && !page.contains("\u{202E}"))
        #expect(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;\u{FFFD}txt.exe"))
        #expect(
            page.contains(
                """
                <bdi>&lt;script&gt;alert(1)&lt;/script&gt;\u{FFFD}txt.exe</bdi> <code>/offers/</code> \
                (<a href="https://example.com/pr-1/offers/">after</a>)
                """
            ), "\(page)")
        #expect(page.contains("<svg class=\"flow-graph\"") && page.contains("<ul class=\"diff-legend\">"))
        #expect(page.contains("<tr id=\"kind-"))
        #expect(!page.contains("<script") && !page.contains("javascript:"))
        #expect(markdown.contains("**[The review page](review%20%281%29.html)**"), "\(markdown)")
    }

    /// Two sites alike have nothing to draw, and the page says so.
    @Test func noChangeDrawsNothing() async throws {
        let page = try await compare(MallApp(), MallApp()) { comparison, _ in try comparison.reviewPage() }
        #expect(
            page.contains("<p>No screen kind or transition changed.</p>") && !page.contains("<svg class=\"flow-graph\"")
        )
        #expect(page.contains("No change: the two sites are the same."))
    }
}
