import FlowSite
import Foundation

/// A two-flow app: a list of crew members, each with a page, and an About dialog.
enum CrewRoute: Route {
    case crew, member(String), about
    var path: RoutePath {
        switch self {
        case .crew: .root
        case .member(let name): [Slug("crew"), Slug(name)]
        case .about: [Slug("about")]
        }
    }
    static var screenKindExamples: [CrewRoute] { [.crew, .member("a"), .about] }
}

/// The crew comes from the environment, so a test can change it between two builds.
let crew = (ProcessInfo.processInfo.environment["CREW"] ?? "Ada,Grace").split(separator: ",").map(String.init)

struct CrewScreen: Screen {
    let route: CrewRoute
    func makePage() async throws -> Page<CrewRoute> {
        var document = MarkdownDocument<CrewRoute>()
        switch route {
        case .crew:
            document.list(crew.map { [.link($0, to: .member($0.lowercased()))] })
            document.paragraph(.link("About", to: .about))
            return Page(title: "Crew", document: document)
        case .member(let name):
            document.paragraph(.text("On duty: \(name)."))
            document.paragraph(.link("All crew", to: .crew))
            return Page(title: name.capitalized, document: document)
        case .about:
            document.paragraph("A fixture for Holocron's package plugins.")
            return Page(title: "About", document: document)
        }
    }
}

struct CrewCoordinator: RootCoordinator {
    var startRoute: CrewRoute { .crew }
    var siteInfo: SiteInfo<CrewRoute> { SiteInfo(name: "Crew", footer: "A fixture.") }
    func makeScreen(for route: CrewRoute) async throws -> any Screen<CrewRoute> { CrewScreen(route: route) }
    func presentation(of route: CrewRoute, from source: CrewRoute) -> Presentation { route == .about ? .modal : .push }
}

exit(await SiteBuilder.runCommandLine(coordinator: CrewCoordinator()))
