import ExampleApp
import FlowSite
import FlowSiteTesting
import SnapshotTesting
import Synchronization
import Testing

/// A factory that records what the coordinator asked it for, and builds screens with mocks.
final class MockExampleFactory: ExampleFactory {
    let made = Mutex<[String]>([])
    let greeting: GreetingService

    init(greeting: GreetingService = .mock(.success("Hello, tests."))) {
        self.greeting = greeting
    }

    func makeInitialScreen() -> InitialScreen {
        made.withLock { $0.append("initial") }
        return InitialScreen(viewModel: InitialViewModel(dependencies: ExampleDependencies(greetingService: greeting)))
    }

    func makeDetailScreen() -> DetailScreen {
        made.withLock { $0.append("detail") }
        return DetailScreen()
    }

    func makeAboutScreen() -> AboutScreen {
        made.withLock { $0.append("about") }
        return AboutScreen()
    }
}

struct ServiceDown: Error, CustomStringConvertible {
    var description: String { "the service is down" }
}

@Suite struct ExampleCoordinatorTests {
    @Test func startShowsInitialAsTheRoot() async throws {
        let factory = MockExampleFactory()
        let coordinator = ExampleCoordinator(factory: factory)
        let navigator = RecordingNavigator<ExampleRoute>()
        coordinator.start(in: navigator)
        #expect(navigator.shown == [.init(.initial, .root)])

        let page = try await coordinator.makeScreen(for: navigator.stack.last!).makePage()
        #expect(page.title == "Initial")
        #expect(factory.made.withLock { $0 } == ["initial"])
    }

    @Test func tappingGoToDetailPushesDetail() async throws {
        let coordinator = ExampleCoordinator(factory: MockExampleFactory())
        let navigator = RecordingNavigator<ExampleRoute>()
        coordinator.start(in: navigator)
        let page = try await coordinator.makeScreen(for: .initial).makePage()
        let action = try #require(page.document.linkedActions.first { $0.label == "Go to Detail" })

        coordinator.navigate(action, from: .initial, in: navigator)

        #expect(navigator.shown.last == .init(.detail, .push))
        #expect(navigator.stack == [.initial, .detail])
    }

    @Test func aboutIsPresentedModally() async throws {
        let coordinator = ExampleCoordinator(factory: MockExampleFactory())
        let navigator = RecordingNavigator<ExampleRoute>()
        coordinator.start(in: navigator)
        coordinator.navigate(NavigationAction("about", to: .about), from: .initial, in: navigator)
        #expect(navigator.shown.last == .init(.about, .modal))
    }

    @Test func detailLinksBackToInitial() async throws {
        let page = try await DetailScreen().makePage()
        #expect(page.document.linkedRoutes == [.initial])
    }

    @Test func theSiteHasEveryScreenWithModalAndPushBreadcrumbs() async throws {
        let coordinator = ExampleCoordinator(factory: MockExampleFactory())
        let graph = try await SiteWalker(coordinator: coordinator).walk { _ in }
        #expect(graph.routes == [.initial, .detail, .about])
        #expect(graph.records[.about]?.presentation == .modal)
        #expect(graph.stack(of: .detail) == [.initial, .detail])
        #expect(graph.failures.isEmpty)
    }

    /// The whole flow as one reviewable file: a change to any screen or link shows up as a diff.
    @Test func theWholeSiteSnapshot() async throws {
        let site = try await SiteSnapshot(walking: ExampleCoordinator(factory: MockExampleFactory()))
        #expect(site.pageCount == 3)
        assertSnapshot(of: site, as: .site)
    }

    @Test func theWholeSiteSnapshotShowsTheErrorState() async throws {
        let factory = MockExampleFactory(greeting: .mock(.failure(ServiceDown())))
        let site = try await SiteSnapshot(walking: ExampleCoordinator(factory: factory))
        assertSnapshot(of: site, as: .site)
    }
}

@Suite struct InitialViewModelTests {
    @Test func loadsTheGreetingAndOffersBothActions() async {
        let viewModel = InitialViewModel(dependencies: ExampleDependencies(greetingService: .mock(.success("Hi"))))
        let state = await viewModel.load()
        #expect(state.content?.greeting == "Hi")
        #expect(state.content?.actions.map(\.label) == ["Go to Detail", "About"])
    }

    @Test func aFailingServiceShowsTheErrorState() async {
        let viewModel = InitialViewModel(dependencies: ExampleDependencies(greetingService: .mock(.failure(ServiceDown()))))
        let state = await viewModel.load()
        #expect(state == .error("The greeting could not be loaded: the service is down"))
    }

    @Test func theErrorStateRendersANoticeWithoutTheActions() async throws {
        let screen = InitialScreen(viewModel: InitialViewModel(dependencies: ExampleDependencies(greetingService: .mock(.failure(ServiceDown())))))
        let page = try await screen.makePage()
        #expect(!page.document.linkedRoutes.contains(.detail))
        let markdown = page.document.markdown(linking: { $0.path.file })
        #expect(markdown.contains("the service is down"))
    }
}
