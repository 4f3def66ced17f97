import FlowSite

/// The example app's root coordinator: starts on Initial, pushes Detail, presents About modally.
public struct ExampleCoordinator: RootCoordinator {
    let factory: any ExampleFactory

    public init(factory: any ExampleFactory = LiveExampleFactory()) {
        self.factory = factory
    }

    public var startRoute: ExampleRoute { .initial }

    public var siteInfo: SiteInfo<ExampleRoute> {
        SiteInfo(
            name: "Holocron Example",
            footer: "Built with Holocron from the example MVVM-C app.",
            navigation: [NavigationAction("Home", to: .initial), NavigationAction("Detail", to: .detail)]
        )
    }

    public func makeScreen(for route: ExampleRoute) async throws -> any Screen<ExampleRoute> {
        switch route {
        case .initial: factory.makeInitialScreen()
        case .detail: factory.makeDetailScreen()
        case .about: factory.makeAboutScreen()
        }
    }

    public func presentation(of route: ExampleRoute, from source: ExampleRoute) -> Presentation {
        switch route {
        case .about: .modal
        case .initial: .root
        case .detail: .push
        }
    }
}
