import FlowSite
import Foundation

/// A small app: a list of crew members, each with a page, and an About page.
public enum CrewRoute: Route {
    case crew, member(String), about

    public var path: RoutePath {
        switch self {
        case .crew: .root
        case .member(let name): [Slug("crew"), Slug(name)]
        case .about: [Slug("about")]
        }
    }

    public static var screenKindExamples: [CrewRoute] { [.crew, .member("a"), .about] }
}

/// Who is on the crew: a service as a struct of closures, injected by the coordinator.
public struct CrewService: Sendable {
    public var members: @Sendable () -> [String]

    public init(members: @escaping @Sendable () -> [String]) {
        self.members = members
    }

    /// The crew named in the `CREW` environment variable (comma-separated), so a test can change
    /// it between two builds; Ada and Grace without it.
    public static let environment = CrewService {
        (ProcessInfo.processInfo.environment["CREW"] ?? "Ada,Grace").split(separator: ",").map(String.init)
    }
}

struct CrewScreen: Screen {
    let route: CrewRoute
    let service: CrewService

    func makePage() async throws -> Page<CrewRoute> {
        var document = MarkdownDocument<CrewRoute>()
        switch route {
        case .crew:
            document.list(service.members().map { [.link($0, to: .member($0.lowercased()))] })
            document.paragraph(.link("About", to: .about))
            return Page(title: "Crew", document: document)
        case .member(let name):
            document.paragraph(.text("On duty: \(name.capitalized)."))
            document.paragraph(.link("All crew", to: .crew))
            return Page(title: name.capitalized, document: document)
        case .about:
            // No link back: flow lint reports this page as a dead end, at this file and line.
            document.paragraph("A fixture for FlowSite's command line and package plugins.")
            return Page(title: "About", document: document)
        }
    }
}

/// The app's root coordinator: the crew list first, every page pushed.
public struct CrewCoordinator: RootCoordinator {
    let service: CrewService

    public init(service: CrewService = .environment) {
        self.service = service
    }

    public var startRoute: CrewRoute { .crew }
    public var siteInfo: SiteInfo<CrewRoute> { SiteInfo(name: "Crew", footer: "A fixture.") }

    public func makeScreen(for route: CrewRoute) async throws -> any Screen<CrewRoute> {
        CrewScreen(route: route, service: service)
    }

    public func presentation(of route: CrewRoute, from source: CrewRoute) -> Presentation { .push }
}
