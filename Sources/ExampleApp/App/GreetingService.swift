/// The example app's one service: a struct of closures with a live and a mock value, instead of
/// a protocol and a class.
public struct GreetingService: Sendable {
    /// Fetches the greeting the Initial screen shows.
    public var fetchGreeting: @Sendable () async throws -> String

    public init(fetchGreeting: @escaping @Sendable () async throws -> String) {
        self.fetchGreeting = fetchGreeting
    }

    /// The real service.
    public static let live = GreetingService { "Welcome to the example app." }

    /// A service that answers `result`.
    public static func mock(_ result: Result<String, any Error>) -> GreetingService {
        GreetingService { try result.get() }
    }
}

/// Grants a ``GreetingService``.
public protocol HasGreetingService {
    var greetingService: GreetingService { get }
}

/// The example app's dependency container: conforms to every `Has…` protocol.
public struct ExampleDependencies: HasGreetingService, Sendable {
    public var greetingService: GreetingService

    public init(greetingService: GreetingService) {
        self.greetingService = greetingService
    }

    /// The container the site is built with.
    public static let live = ExampleDependencies(greetingService: .live)
}
