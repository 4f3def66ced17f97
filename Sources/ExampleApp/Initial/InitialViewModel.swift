import FlowSite

/// Loads the greeting and offers the Initial screen's two actions.
public struct InitialViewModel: ViewModel {
    /// Only what this view model uses.
    public typealias Dependencies = HasGreetingService & Sendable

    public struct Content: Sendable, Equatable {
        public var greeting: String
        public var actions: [NavigationAction<ExampleRoute>]
    }

    let dependencies: any Dependencies

    public init(dependencies: any Dependencies) {
        self.dependencies = dependencies
    }

    /// What the user can do here: go to Detail (pushed) or read About (a modal).
    public static let actions = [
        NavigationAction("Go to Detail", to: ExampleRoute.detail),
        NavigationAction("About", to: ExampleRoute.about),
    ]

    public func load() async -> ScreenState<Content> {
        do {
            let greeting = try await dependencies.greetingService.fetchGreeting()
            return .loaded(Content(greeting: greeting, actions: Self.actions))
        } catch {
            return .error("The greeting could not be loaded: \(error)")
        }
    }
}

/// Renders the Initial screen's state.
public struct InitialScreen: StatefulScreen {
    public typealias R = ExampleRoute
    public let viewModel: InitialViewModel

    public init(viewModel: InitialViewModel) {
        self.viewModel = viewModel
    }

    public func page(for state: ScreenState<InitialViewModel.Content>) -> Page<ExampleRoute> {
        var document = MarkdownDocument<ExampleRoute>()
        switch state {
        case .loading:
            document.paragraph("Loading…")
        case .loaded(let content):
            document.paragraph(.text(content.greeting))
            document.list(content.actions.map { [.link($0.label, to: $0.route)] })
        case .empty(let message), .error(let message):
            document.section(.notice) { $0.paragraph(.text(message)) }
            document.paragraph(.link("About", to: .about))
        }
        return Page(title: "Initial", shortTitle: "Home", document: document)
    }
}
