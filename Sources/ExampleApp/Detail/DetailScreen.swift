import FlowSite

extension DetailScreen {
    /// The Detail screen's view model, nested in its screen: it needs no services.
    public struct ViewModel: FlowSite.ViewModel {
        public init() {}

        public func load() async -> String {
            "This is the detail screen. The coordinator pushed it onto the Initial screen."
        }
    }
}

/// A screen that links back to where it came from.
public struct DetailScreen: StatefulScreen {
    public typealias R = ExampleRoute
    public let viewModel = ViewModel()

    public init() {}

    public func page(for state: String) -> Page<ExampleRoute> {
        var document = MarkdownDocument<ExampleRoute>()
        document.paragraph(.text(state))
        document.paragraph(.link("Back to Initial", to: .initial))
        return Page(title: "Detail", document: document)
    }
}
