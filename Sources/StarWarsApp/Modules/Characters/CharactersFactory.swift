import FlowSite
import SWAPI

/// Makes the Characters screens and presents them, in the seeds' naming: `create…` makes a
/// screen, `rootIn…`/`pushIn…`/`showIn…` put a route on a navigator as root, pushed or modal.
public protocol CharactersFactory: Sendable {
    func createList(page: Int) -> ResourceListScreen
    func createDetail(id: Int) -> ResourceDetailScreen<CharacterDetailViewModel>
    func rootInList(_ navigator: some Navigator<AppRoute>, page: Int)
    func pushInDetail(_ navigator: some Navigator<AppRoute>, route: AppRoute)
    func showInAlert(_ navigator: some Navigator<AppRoute>, alert: AlertRoute)
}

extension CharactersFactory {
    public func rootInList(_ navigator: some Navigator<AppRoute>, page: Int) {
        navigator.show(.list(.people, page: page), as: .root)
    }

    public func pushInDetail(_ navigator: some Navigator<AppRoute>, route: AppRoute) {
        navigator.show(route, as: .push)
    }

    public func showInAlert(_ navigator: some Navigator<AppRoute>, alert: AlertRoute) {
        navigator.show(.alert(alert), as: .modal)
    }
}

/// The factory the site is built with.
public struct LiveCharactersFactory: CharactersFactory {
    let dependencies: AppDependencies

    public init(dependencies: AppDependencies) { self.dependencies = dependencies }

    public func createList(page: Int) -> ResourceListScreen {
        ResourceListScreen(viewModel: ResourceListViewModel(dependencies: dependencies, kind: .people, page: page))
    }

    public func createDetail(id: Int) -> ResourceDetailScreen<CharacterDetailViewModel> {
        ResourceDetailScreen(viewModel: CharacterDetailViewModel(dependencies: dependencies, id: id))
    }
}
