import FlowSite
import Foundation
import Testing

/// A shop whose deep links are `shop://product/<id>` and `shop://cart`; the parser has the
/// bugs real ones have, each behind a switch.
enum LinkShopRoute: Route {
    case home, product(Int), cart, help, notFound

    var path: RoutePath {
        switch self {
        case .home: .root
        case .product(let id): ["products", Slug("\(id)")]
        default: [Slug("\(self)")]
        }
    }

    static var screenKindExamples: [LinkShopRoute] { [.home, .product(1), .cart, .help] }
}

struct LinkShopApp: RootCoordinator {
    /// The parser reads product 3's link as product 30 (a bad number parse).
    var misreadsProductThree = false
    /// The parser matches `product/<id>` as a prefix, so extra path segments still open it.
    var matchesPrefixes = false
    var flowLint = FlowLintConfiguration()

    var startRoute: LinkShopRoute { .home }
    var siteInfo: SiteInfo<LinkShopRoute> { SiteInfo(name: "Shop") }

    func makeScreen(for route: LinkShopRoute) async throws -> any Screen<LinkShopRoute> {
        var document = MarkdownDocument<LinkShopRoute>()
        switch route {
        case .home:
            document.list(
                [[.link("Cart", to: .cart)], [.link("Help", to: .help)]]
                    + (1...3).map { [.link("Product \($0)", to: .product($0))] })
        default: document.paragraph(.link("Home", to: .home))
        }
        return LinkShopScreen(page: Page(title: "\(route)", document: document))
    }

    var deepLinks: DeepLinks<LinkShopRoute>? {
        let misreads = misreadsProductThree
        let prefixes = matchesPrefixes
        return DeepLinks(
            link: { route in
                switch route {
                case .home: URL(string: "shop://home")
                case .product(2): nil // a discontinued product no link opens
                case .product(let id): URL(string: "shop://product/\(id)")
                case .cart: URL(string: "shop://cart")
                case .help, .notFound: nil
                }
            },
            route: { url in
                let parts = url.pathComponents.filter { $0 != "/" }
                switch url.host {
                case "home" where parts.isEmpty: return .home
                case "cart" where parts.isEmpty: return .cart
                case "product" where parts.count == 1 || (prefixes && !parts.isEmpty):
                    guard let id = Int(parts[0]) else { return .notFound }
                    return .product(misreads && id == 3 ? 30 : id)
                default: return .notFound
                }
            },
            notFound: .notFound,
            unknownLinks: [URL(string: "shop://basket")!]
        )
    }
}

struct LinkShopScreen: Screen {
    let page: Page<LinkShopRoute>
    func makePage() async throws -> Page<LinkShopRoute> { page }
}

@Suite struct DeepLinkTests {
    func lint(_ app: LinkShopApp) async throws -> FlowLintReport {
        try await FlowLinter(coordinator: app).run()
    }

    @Test func aRouteWithoutALinkInADeepLinkableKindIsReported() async throws {
        let report = try await lint(LinkShopApp())
        // Product 2 has no link where products 1 and 3 have; Help, which no link opens, is simply
        // not deep-linkable.
        let unlinkable = report.findings.filter { $0.rule == .unlinkableRoute }
        #expect(unlinkable.map(\.kind?.id) == ["product"])
        #expect(unlinkable.first?.examples.map(\.path.description) == ["/products/2/"])
        #expect(!report.findings.contains { $0.rule == .deepLinkRoundTrip || $0.rule == .unknownDeepLink })
    }

    @Test func aLinkTheParserReadsAsAnotherRouteIsAnError() async throws {
        let report = try await lint(LinkShopApp(misreadsProductThree: true))
        let mismatch = try #require(report.findings.first { $0.rule == .deepLinkRoundTrip })
        #expect(mismatch.kind?.id == "product")
        #expect(mismatch.count == 1)
        #expect(mismatch.message.contains("shop://product/3"))
        #expect(mismatch.message.contains("product(30)"))
        #expect(report.hasErrors)
    }

    @Test func anUnknownLinkMustLandOnNotFound() async throws {
        let report = try await lint(LinkShopApp(matchesPrefixes: true))
        let unknown = try #require(report.findings.first { $0.rule == .unknownDeepLink })
        #expect(unknown.message.contains("shop://product/1/\(DeepLinks<LinkShopRoute>.unknownSegment)"))
        #expect(unknown.message.contains("opens product(1)"))
    }

    @Test func theMapMarksTheKindsADeepLinkOpens() async throws {
        let (graph, _) = try await FlowLinter(coordinator: LinkShopApp(misreadsProductThree: true)).walk()
        #expect(graph.kind("product")?.deepLinkedPages == 1) // product 3 misread, product 2 unlinked
        #expect(graph.kind("cart")?.deepLinkedPages == 1)
        #expect(graph.kind("help")?.deepLinkedPages == 0)
    }

    @Test func anAppWithoutDeepLinksHasNoDeepLinkFindings() async throws {
        let report = try await FlowLinter(coordinator: TidyApp()).run()
        #expect(
            !report.findings.contains { [.unlinkableRoute, .deepLinkRoundTrip, .unknownDeepLink].contains($0.rule) })
    }
}
