import FlowSite
import Foundation

/// Every screen the app can show, and where its page lives; its cases are its screen kinds.
enum AppRoute: Route {
    case home, greeting, about, farewell
    var path: RoutePath { self == .home ? .root : [Slug("\(self)")] }
    static var screenKindExamples: [AppRoute] { [.home, .greeting, .about, .farewell] } // for lint
}

/// A service as a struct of closures; the site is built with the mock.
struct GreetingService: Sendable {
    var fetch: @Sendable () async throws -> String
    static let mock = GreetingService { "Hello from a mocked service!" }
}

protocol HasGreetingService { var greetings: GreetingService { get } }
struct Dependencies: HasGreetingService, Sendable { var greetings: GreetingService }

/// The view model loads its state through the one service it declares.
struct GreetingViewModel: ViewModel {
    let dependencies: any HasGreetingService & Sendable
    func load() async -> ScreenState<String> {
        do { return .loaded(try await dependencies.greetings.fetch()) } catch { return .error("No greeting today.") }
    }
}

/// The screen renders each state to Markdown; its links are its navigation actions.
struct GreetingScreen: StatefulScreen {
    typealias R = AppRoute
    let viewModel: GreetingViewModel
    func page(for state: ScreenState<String>) -> Page<AppRoute> {
        var document = MarkdownDocument<AppRoute>()
        switch state {
        case .loaded(let text): document.paragraph(.text(text))
        case .empty(let empty): document.emptyState(empty)
        case .error(let message): document.paragraph(.text(message))
        case .loading: document.paragraph("Loading…")
        }
        document.paragraph(.link("About this example", to: .about))
        document.paragraph(.link("Say goodbye", to: .farewell))
        return Page(title: "Greeting", summary: "A greeting from the service.", document: document)
    }
}

/// A screen without state: a title, a line and some links.
struct TextScreen: Screen {
    let title: String, text: String, links: [(String, AppRoute)]
    func makePage() async throws -> Page<AppRoute> {
        var document = MarkdownDocument<AppRoute>()
        document.paragraph(.text(text))
        document.list(links.map { [.link($0.0, to: $0.1)] })
        return Page(title: title, document: document)
    }
}

/// The coordinator owns navigation: Home pushes Greeting, and About is a modal dialog.
struct AppCoordinator: RootCoordinator {
    let dependencies: Dependencies
    var startRoute: AppRoute { .home }
    var siteInfo: SiteInfo<AppRoute> { SiteInfo(name: "Hello FlowSite", footer: "Built with FlowSite.") }
    func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        switch route {
        case .home:
            TextScreen(title: "Hello FlowSite", text: "Four screens, one page each.", links: [("Say hello", .greeting)])
        case .greeting: GreetingScreen(viewModel: GreetingViewModel(dependencies: dependencies))
        case .about: TextScreen(title: "About", text: "An app written the MVVM-C way, as a site.", links: [])
        case .farewell: TextScreen(title: "Goodbye", text: "The end.", links: []) // a dead end, on purpose
        }
    }
    func presentation(of route: AppRoute, from source: AppRoute) -> Presentation {
        route == .about ? .modal : route == .home ? .root : .push
    }
}

let output = URL(fileURLWithPath: CommandLine.arguments.dropFirst().first ?? "hello-site")
let app = AppCoordinator(dependencies: Dependencies(greetings: .mock))
let report = try await SiteBuilder(coordinator: app).build(into: output) // with its flow map at flow/
print(report, report.flowLint?.text() ?? "", separator: "\n", terminator: "")
