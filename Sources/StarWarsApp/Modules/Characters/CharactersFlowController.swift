import FlowSite
import SWAPI

/// The Characters flow: its list pages and detail pages. A flow controller rather than a
/// coordinator: it turns the user's intents (select a row, a failed load) into factory calls.
public struct CharactersFlowController: ChildCoordinator {
    let factory: any CharactersFactory

    public init(factory: any CharactersFactory) { self.factory = factory }

    public func handles(_ route: AppRoute) -> Bool {
        if case .resources(.people, _) = route { true } else { false }
    }

    public func makeScreen(for route: AppRoute) async throws -> any Screen<AppRoute> {
        switch route {
        case .resources(.people, .list(let page)): factory.createList(page: page)
        case .resources(.people, .detail(let id, _)): factory.createDetail(id: id)
        default: throw UnhandledRoute(route: route, coordinator: "CharactersFlowController")
        }
    }

    /// Starts the flow on its first list page.
    public func start(in navigator: some Navigator<AppRoute>) {
        factory.rootInList(navigator, page: 1)
    }

    /// The user picked row `index` of a loaded list page: push that character; a row that
    /// isn't there does nothing.
    public func didSelectRow(_ index: Int, of state: ScreenState<ListContent>, in navigator: some Navigator<AppRoute>) {
        guard let rows = state.content?.rows, rows.indices.contains(index) else { return }
        factory.pushInDetail(navigator, route: rows[index].route)
    }

    /// Loading failed: present the alert that says so.
    public func didFinishLoading(_ state: ScreenState<ListContent>, in navigator: some Navigator<AppRoute>) {
        if case .error = state { factory.showInAlert(navigator, alert: .unavailable) }
    }
}
