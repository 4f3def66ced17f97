import FlowSite

/// Makes the example app's screens; the coordinator only knows this protocol, so tests can
/// hand it a mock.
public protocol ExampleFactory: Sendable {
    func makeInitialScreen() -> InitialScreen
    func makeDetailScreen() -> DetailScreen
    func makeAboutScreen() -> AboutScreen
}

/// Builds screens with the live dependencies, each view model getting only what it declares.
public struct LiveExampleFactory: ExampleFactory {
    let dependencies: ExampleDependencies

    public init(dependencies: ExampleDependencies = .live) {
        self.dependencies = dependencies
    }

    public func makeInitialScreen() -> InitialScreen {
        InitialScreen(viewModel: InitialViewModel(dependencies: dependencies))
    }

    public func makeDetailScreen() -> DetailScreen { DetailScreen() }

    public func makeAboutScreen() -> AboutScreen { AboutScreen() }
}
