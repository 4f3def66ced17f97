import FlowSite

/// A modal screen: its view model is a pure function of no input.
public struct AboutScreen: StatefulScreen {
    public typealias R = ExampleRoute
    public struct ViewModel: FlowSite.ViewModel {
        public func load() async -> String {
            "The example app shows how an MVVM-C app becomes a static site with Holocron."
        }
    }

    public let viewModel = ViewModel()

    public init() {}

    public func page(for state: String) -> Page<ExampleRoute> {
        var document = MarkdownDocument<ExampleRoute>()
        document.paragraph(.text(state))
        return Page(title: "About", document: document)
    }
}
