import FlowSiteTesting
import FlowSiteUtilities
import Testing

@testable import FlowSite

@Suite struct SiteWalkerTests {
    /// Collects what the walker hands out.
    final class Visits: Sendable {
        let all = Locked<[PageVisit<Node>]>([])
        func add(_ visit: PageVisit<Node>) { all.withLock { $0.append(visit) } }
        func visit(_ node: Node) -> PageVisit<Node>? { all.withLock { $0.first { $0.route == node } } }
        var count: Int { all.withLock { $0.count } }
    }

    func walk(_ coordinator: GraphCoordinator, concurrency: Int = 4) async throws -> (SiteGraph<Node>, Visits) {
        let visits = Visits()
        let graph = try await SiteWalker(coordinator: coordinator, concurrency: concurrency).walk { visits.add($0) }
        return (graph, visits)
    }

    @Test func visitsEveryReachableScreenOnceThroughCycles() async throws {
        let app = GraphCoordinator(links: [
            "": ["a", "b"],
            "a": ["", "b", "a/x"],
            "b": ["a", ""],
            "a/x": ["", "a"],
            "unreachable": ["a"]
        ])
        let (graph, visits) = try await walk(app)
        #expect(graph.routes == ["", "a", "b", "a/x"])
        #expect(visits.count == 4)
        #expect(graph.edges.count == 9)
        #expect(!graph.routes.contains("unreachable"))
    }

    @Test func breadcrumbsFollowTheShortestPath() async throws {
        let app = GraphCoordinator(
            links: [
                "": ["list"],
                "list": ["list/page/2", "item1"],
                "list/page/2": ["list", "item2", "list/page/3"],
                "list/page/3": ["item3"],
                "item1": ["item2"]
            ],
            presentations: ["list/page/2": .replace, "list/page/3": .replace, "list": .push],
            titles: ["": "Home", "list": "Characters", "list/page/2": "Characters", "list/page/3": "Characters"]
        )
        let (graph, visits) = try await walk(app)
        // item2 is reached from page 2 (one step from the list, replacing it) and from item1 at the
        // same depth; the first, in link order, wins.
        #expect(graph.stack(of: "item1") == ["", "list", "item1"])
        #expect(graph.stack(of: "item3") == ["", "list/page/3", "item3"])
        #expect(graph.stack(of: "list/page/2") == ["", "list/page/2"])
        let crumbs = visits.visit("item3")!.breadcrumbs.map(\.title)
        #expect(crumbs == ["Home", "Characters", "item3"])
    }

    @Test func modalPagesKnowTheirPresenter() async throws {
        let app = GraphCoordinator(
            links: ["": ["about", "a"], "a": ["about"]], presentations: ["about": .modal], titles: ["": "Home"])
        let (graph, visits) = try await walk(app)
        #expect(graph.records["about"]?.presentation == .modal)
        #expect(visits.visit("about")?.presenter == Breadcrumb(title: "Home", route: ""))
        #expect(graph.edges.filter { $0.to == "about" }.allSatisfy { $0.presentation == .modal })
    }

    @Test func failedScreensAreReportedWithTheirRouteAndError() async throws {
        let app = GraphCoordinator(links: ["": ["good", "bad"], "good": ["worse"]], failing: ["bad", "worse"])
        let (graph, visits) = try await walk(app)
        #expect(graph.failures.map(\.route) == ["bad", "worse"])
        #expect(graph.failures[0].error == "no data for bad")
        #expect(visits.visit("bad") == nil)
        #expect(visits.count == 2)
    }

    @Test func anErrorScreenRecoversAFailedRoute() async throws {
        var app = GraphCoordinator(links: ["": ["bad"]], failing: ["bad"])
        app.recoverFailures = true
        let (graph, visits) = try await walk(app)
        #expect(graph.failures.isEmpty)
        #expect(graph.recovered.map(\.route) == ["bad"])
        #expect(visits.visit("bad")?.page.title == "Error")
        #expect(visits.visit("bad")?.recoveredError == "no data for bad")
    }

    @Test func twoRoutesWithOnePathAreRefused() async throws {
        let app = GraphCoordinator(links: ["": ["Luke Skywalker", "luke-skywalker"]])
        await #expect(throws: FlowSiteError.self) { try await walk(app) }
    }

    @Test func navigationActionsAreFollowedFromTheStart() async throws {
        var app = GraphCoordinator(links: [:])
        app.navigation = [NavigationAction("Films", to: "films")]
        let (graph, _) = try await walk(app)
        #expect(graph.routes == ["", "films"])
    }

    @Test func theOrderDoesNotDependOnConcurrency() async throws {
        var links: [Node: [Node]] = ["": (0..<30).map { Node("n\($0)") }]
        for i in 0..<30 { links[Node("n\(i)")] = [Node("n\((i * 7) % 30)"), Node("m\(i % 11)")] }
        let (one, _) = try await walk(GraphCoordinator(links: links), concurrency: 1)
        let (many, _) = try await walk(GraphCoordinator(links: links), concurrency: 16)
        #expect(one.routes == many.routes)
        #expect(one.edges == many.edges)
    }
}

@Suite struct RootStackTests {
    /// Characters live under "characters"; a root presentation builds that trail, like a deep link.
    struct DeepLinkCoordinator: RootCoordinator {
        var base = GraphCoordinator(
            links: [
                "": ["films", "characters/luke"], "films": ["films/a-new-hope"],
                "films/a-new-hope": ["characters/leia"], "characters": ["characters/luke", "characters/leia"]
            ],
            titles: ["": "Home", "characters": "Characters", "films": "Films"]
        )
        var startRoute: Node { "" }
        var siteInfo: SiteInfo<Node> { base.siteInfo }
        func makeScreen(for route: Node) async throws -> any Screen<Node> { try await base.makeScreen(for: route) }
        func presentation(of route: Node, from source: Node) -> Presentation {
            route.name.hasPrefix("characters/") && !source.name.hasPrefix("characters") ? .root : .push
        }
        func rootStack(for route: Node) -> [Node] {
            route.name.hasPrefix("characters/") ? ["", "characters", route] : [route]
        }
    }

    @Test func aRootPresentationBuildsTheFlowsTrail() async throws {
        let visits = SiteWalkerTests.Visits()
        let graph = try await SiteWalker(coordinator: DeepLinkCoordinator()).walk { visits.add($0) }
        #expect(graph.stack(of: "characters/luke") == ["", "characters", "characters/luke"])
        #expect(graph.stack(of: "characters/leia") == ["", "characters", "characters/leia"])
        // The list was not linked from the front page, yet the trail reaches it.
        #expect(graph.routes.contains("characters"))
        #expect(visits.visit("characters/luke")?.breadcrumbs.map(\.title) == ["Home", "Characters", "characters/luke"])
        #expect(visits.visit("characters/leia")?.breadcrumbs.map(\.title) == ["Home", "Characters", "characters/leia"])
    }
}

/// The walker follows links by running the app's own navigation code, with itself as the
/// navigator.
@Suite struct WalkerNavigationTests {
    /// Routes links through `navigate` and records each call, like an app's flow controller.
    struct FlowCoordinator: RootCoordinator {
        var base = GraphCoordinator(links: ["": ["a", "b"], "a": ["a/1"], "b": []])
        var misroute = false
        let calls = RecordingNavigator<Node>()
        var startRoute: Node { "" }
        var siteInfo: SiteInfo<Node> { base.siteInfo }
        func makeScreen(for route: Node) async throws -> any Screen<Node> { try await base.makeScreen(for: route) }
        func navigate(_ action: NavigationAction<Node>, from source: Node, in navigator: some Navigator<Node>) {
            calls.show(action.route, as: .push)
            if misroute && action.route == "b" { return navigator.show("a", as: .push) }
            navigator.show(action.route, as: action.route == "b" ? .modal : source == "a" ? .replace : .push)
        }
    }

    @Test func presentationsComeFromTheCoordinatorsNavigationCalls() async throws {
        let coordinator = FlowCoordinator()
        let graph = try await SiteWalker(coordinator: coordinator).walk { _ in }
        #expect(Set(coordinator.calls.shown.map(\.route)) == ["a", "b", "a/1"])
        #expect(graph.records["b"]?.presentation == .modal)
        #expect(graph.records["a/1"]?.presentation == .replace)
        #expect(graph.edges.map(\.presentation) == [.push, .modal, .replace])
    }

    @Test func aLinkWhoseNavigationShowsAnotherRouteFailsTheWalk() async throws {
        var coordinator = FlowCoordinator()
        coordinator.misroute = true
        await #expect {
            try await SiteWalker(coordinator: coordinator).walk { _ in }
        } throws: { error in
            let text = (error as? FlowSiteError)?.description ?? ""
            return text.contains("'to b'") && text.contains("showed a (push)")
        }
    }
}
