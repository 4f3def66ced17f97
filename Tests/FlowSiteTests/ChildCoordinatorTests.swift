import FlowSite
import Foundation
import TestSupport
import Testing

/// A root coordinator that hands each route to a child: a child handed a route it does not own fails the build by
/// name, as wiring, and the root's error screen is never asked for it.
@Suite struct ChildCoordinatorTests {
    @Test func aRouteHandedToTheWrongChildFailsTheBuildNamingTheRouteAndTheChild() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = DeskApp(misroutesCard: true)
        let error = await #expect(throws: FlowSiteError.self) {
            try await SiteBuilder(coordinator: app).build(into: folder.appendingPathComponent("site"))
        }
        guard case .routeNotOwned(let route, let coordinator)? = error?.reason else {
            Issue.record("the build should fail with routeNotOwned, not: \(String(describing: error))")
            return
        }
        #expect(route == "/card/")
        #expect(coordinator == "ShelfFlow")
        let description = error?.description ?? ""
        #expect(description.contains("/card/") && description.contains("ShelfFlow"), "\(description)")
        #expect(app.errorScreensAsked.value == 0, "the root's errorScreen(for:error:) was asked about wiring")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("site").path))
    }

    /// The same app wired right builds every page, and its error screen stands in for a failure of data: so the
    /// test above fails by the misrouting alone, and an error screen it did not ask for was one it could have.
    @Test func wiredRightTheAppBuildsAndItsErrorScreenCoversFailedData() async throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let site = folder.appendingPathComponent("site")
        let app = DeskApp(misroutesCard: false, shelfFails: true)
        let report = try await SiteBuilder(coordinator: app).build(into: site)
        #expect(report.pages == 3)
        let card = try String(contentsOf: site.appendingPathComponent("card/index.html"), encoding: .utf8)
        #expect(card.contains("Your library card."))
        let shelf = try String(contentsOf: site.appendingPathComponent("shelf/index.html"), encoding: .utf8)
        #expect(shelf.contains("The shelf is closed."))
        #expect(app.errorScreensAsked.value == 1)
    }
}

private enum DeskRoute: Route {
    case home, shelf, card
    var path: RoutePath { self == .home ? .root : [Slug("\(self)")] }
}

private struct DeskScreen: Screen {
    let title: String, links: [DeskRoute]
    func makePage() async throws -> Page<DeskRoute> {
        var document = MarkdownDocument<DeskRoute>()
        document.paragraph(.text(title))
        document.list(links.map { [.link("to \($0)", to: $0)] })
        return Page(title: title, document: document)
    }
}

private struct ShelfClosed: Error {}

/// Owns the shelf only.
private struct ShelfFlow: Coordinator {
    var fails = false
    func makeScreen(for route: DeskRoute) async throws -> any Screen<DeskRoute> {
        guard route == .shelf else { throw FlowSiteError.notOwned(route, by: self) }
        if fails { throw ShelfClosed() }
        return DeskScreen(title: "The shelf.", links: [.home])
    }
}

/// Owns the card only.
private struct CardFlow: Coordinator {
    func makeScreen(for route: DeskRoute) async throws -> any Screen<DeskRoute> {
        guard route == .card else { throw FlowSiteError.notOwned(route, by: self) }
        return DeskScreen(title: "Your library card.", links: [.home])
    }
}

/// Hands the shelf to `ShelfFlow` and the card to `CardFlow`, or, when `misroutesCard`, the card to `ShelfFlow` too.
private struct DeskApp: RootCoordinator {
    let misroutesCard: Bool
    var shelf = ShelfFlow()
    let card = CardFlow()
    let errorScreensAsked = Counter()

    init(misroutesCard: Bool, shelfFails: Bool = false) {
        self.misroutesCard = misroutesCard
        shelf.fails = shelfFails
    }

    var startRoute: DeskRoute { .home }
    var siteInfo: SiteInfo<DeskRoute> { SiteInfo(name: "Desk") }

    func makeScreen(for route: DeskRoute) async throws -> any Screen<DeskRoute> {
        switch route {
        case .home: DeskScreen(title: "Home", links: [.shelf, .card])
        case .shelf: try await shelf.makeScreen(for: route)
        case .card: try await misroutesCard ? shelf.makeScreen(for: route) : card.makeScreen(for: route)
        }
    }

    /// A screen for any failure it is asked about: the build must not ask it about a misrouted route.
    func errorScreen(for route: DeskRoute, error: any Error) -> (any Screen<DeskRoute>)? {
        errorScreensAsked.add()
        return DeskScreen(title: "The shelf is closed.", links: [.home])
    }
}
