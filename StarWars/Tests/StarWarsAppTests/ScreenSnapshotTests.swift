import FlowSite
import FlowSiteTesting
import SWAPI
import SnapshotTesting
import Testing

@testable import StarWarsApp

/// Every screen in every state it can have, as Markdown; a few as whole HTML pages.
/// Record new snapshots with `SNAPSHOT_TESTING_RECORD=all make test`.
@Suite struct ScreenSnapshotTests {
    let deps = Fixtures.dependencies
    let catalog = Fixtures.catalog

    /// Loads `screen`'s state and snapshots its page.
    func snapshot<S: StatefulScreen>(
        _ screen: S, as strategy: Snapshotting<Page<S.R>, String>, named name: String,
        fileID: StaticString = #fileID, file: StaticString = #filePath, testName: String = #function,
        line: UInt = #line, column: UInt = #column
    ) async {
        let page = screen.page(for: await screen.viewModel.load())
        assertSnapshot(
            of: page, as: strategy, named: name, fileID: fileID, file: file, testName: testName, line: line,
            column: column)
    }

    @Test func home() async {
        let screen = HomeScreen(viewModel: HomeViewModel(dependencies: deps))
        await snapshot(screen, as: .markdown(), named: "loaded")
        assertSnapshot(of: screen.page(for: .loading), as: .markdown(), named: "loading")
        assertSnapshot(of: screen.page(for: .empty("The archive is empty.")), as: .markdown(), named: "empty")
        let failing = HomeScreen(viewModel: HomeViewModel(dependencies: Fixtures.failing))
        await snapshot(failing, as: .markdown(), named: "error")
    }

    @Test func characterList() async {
        let path = AppRoute.list(.people).path
        let screen = ResourceListScreen(viewModel: ResourceListViewModel<CharactersModule>(dependencies: deps, page: 1))
        await snapshot(screen, as: .markdown(at: path), named: "loaded")
        assertSnapshot(of: screen.page(for: .loading), as: .markdown(at: path), named: "loading")
        let outOfRange = ResourceListScreen(
            viewModel: ResourceListViewModel<CharactersModule>(dependencies: deps, page: 4))
        await snapshot(outOfRange, as: .markdown(at: path), named: "empty-page")
        let none = ResourceListScreen(viewModel: ResourceListViewModel<VehiclesModule>(dependencies: deps, page: 1))
        await snapshot(none, as: .markdown(at: AppRoute.list(.vehicles).path), named: "empty")
        let failing = ResourceListScreen(
            viewModel: ResourceListViewModel<CharactersModule>(dependencies: Fixtures.failing, page: 1))
        await snapshot(failing, as: .markdown(at: path), named: "error")
    }

    @Test func pagedListsShowThePager() async throws {
        let archive = SyntheticArchive.make(people: 25)
        let deps = AppDependencies.mock(archive)
        for page in [1, 2, 3] {
            let route = AppRoute.list(.people, page: page)
            let screen = ResourceListScreen(
                viewModel: ResourceListViewModel<CharactersModule>(dependencies: deps, page: page))
            await snapshot(screen, as: .markdown(at: route.path), named: "page-\(page)")
            let built = screen.page(for: await screen.viewModel.load())
            let pagination = try #require(built.pagination)
            #expect(pagination.count == 3 && pagination.current == page)
            #expect((1...3).map { pagination.page($0).label } == ["1", "2", "3"])
            #expect((1...3).map { pagination.page($0).route } == [1, 2, 3].map { AppRoute.list(.people, page: $0) })
            #expect(built.shortTitle == (page == 1 ? "Characters" : "Page \(page)"))
        }
    }

    /// A later list page as a whole: its trail back to the first page, its description, and
    /// the pagination navigation with previous and next.
    @Test func aLaterListPageAsAWhole() async {
        let archive = SyntheticArchive.make(people: 25)
        let deps = AppDependencies.mock(archive)
        let site = AppCoordinator(dependencies: deps).siteInfo
        let route = AppRoute.list(.people, page: 2)
        let screen = ResourceListScreen(viewModel: ResourceListViewModel<CharactersModule>(dependencies: deps, page: 2))
        let crumbs: [(title: String, route: AppRoute)] = [
            ("Home", .home), ("Characters", .list(.people)), ("Page 2", route)
        ]
        await snapshot(screen, as: .html(at: route, site: site, trail: crumbs, presentation: .replace), named: "page-2")
    }

    @Test func everyKindsList() async {
        let films = ResourceListScreen(viewModel: ResourceListViewModel<FilmsModule>(dependencies: deps, page: 1))
        await snapshot(films, as: .markdown(at: AppRoute.list(.films).path), named: "films")
        let planets = ResourceListScreen(viewModel: ResourceListViewModel<PlanetsModule>(dependencies: deps, page: 1))
        await snapshot(planets, as: .markdown(at: AppRoute.list(.planets).path), named: "planets")
        let species = ResourceListScreen(viewModel: ResourceListViewModel<SpeciesModule>(dependencies: deps, page: 1))
        await snapshot(species, as: .markdown(at: AppRoute.list(.species).path), named: "species")
        let ships = ResourceListScreen(viewModel: ResourceListViewModel<StarshipsModule>(dependencies: deps, page: 1))
        await snapshot(ships, as: .markdown(at: AppRoute.list(.starships).path), named: "starships")
    }

    @Test func characterDetail() async {
        let jabba = catalog.route(.people, id: 16)
        let screen = ResourceDetailScreen(
            viewModel: ResourceDetailViewModel<CharactersModule>(dependencies: deps, id: 16))
        await snapshot(screen, as: .markdown(at: jabba.path), named: "loaded-with-missing-relation")
        assertSnapshot(of: screen.page(for: .loading), as: .markdown(at: jabba.path), named: "loading")
        let missing = ResourceDetailScreen(
            viewModel: ResourceDetailViewModel<CharactersModule>(dependencies: deps, id: 17))
        await snapshot(missing, as: .markdown(at: jabba.path), named: "empty")
        let failing = ResourceDetailScreen(
            viewModel: ResourceDetailViewModel<CharactersModule>(dependencies: Fixtures.failing, id: 1))
        await snapshot(failing, as: .markdown(at: jabba.path), named: "error")
    }

    @Test func everyKindsDetail() async {
        let film = ResourceDetailScreen(
            viewModel: ResourceDetailViewModel<FilmsModule>(dependencies: deps, id: 1))
        await snapshot(film, as: .markdown(at: catalog.route(.films, id: 1).path), named: "film")
        let planet = ResourceDetailScreen(
            viewModel: ResourceDetailViewModel<PlanetsModule>(dependencies: deps, id: 1))
        await snapshot(planet, as: .markdown(at: catalog.route(.planets, id: 1).path), named: "planet")
        let species = ResourceDetailScreen(
            viewModel: ResourceDetailViewModel<SpeciesModule>(dependencies: deps, id: 5))
        await snapshot(species, as: .markdown(at: catalog.route(.species, id: 5).path), named: "species")
        let ship = ResourceDetailScreen(
            viewModel: ResourceDetailViewModel<StarshipsModule>(dependencies: deps, id: 12))
        await snapshot(ship, as: .markdown(at: catalog.route(.starships, id: 12).path), named: "starship")
        let vehicle = SyntheticArchive.make(people: 5, vehicles: 3)
        let vehicleDeps = AppDependencies.mock(vehicle)
        let vehicleScreen = ResourceDetailScreen(
            viewModel: ResourceDetailViewModel<VehiclesModule>(dependencies: vehicleDeps, id: 4))
        await snapshot(
            vehicleScreen, as: .markdown(at: Catalog(archive: vehicle).route(.vehicles, id: 4).path), named: "vehicle")
    }

    @Test func search() async {
        let path = AppRoute.search.path
        let entries = SearchViewModel.entries(catalog)
        let screen = SearchScreen(viewModel: SearchViewModel(dependencies: deps))
        await snapshot(screen, as: .markdown(at: path), named: "all")
        assertSnapshot(
            of: screen.page(for: SearchViewModel.state(query: "sky", entries: entries)),
            as: .markdown(at: path), named: "filtered")
        assertSnapshot(
            of: screen.page(for: SearchViewModel.state(query: "zzz", entries: entries)),
            as: .markdown(at: path), named: "empty")
        assertSnapshot(of: screen.page(for: .loading), as: .markdown(at: path), named: "loading")
        let failing = SearchScreen(viewModel: SearchViewModel(dependencies: Fixtures.failing))
        await snapshot(failing, as: .markdown(at: path), named: "error")
    }

    @Test func dialogs() async {
        let about = AboutScreen(viewModel: .init(dependencies: deps))
        await snapshot(about, as: .markdown(at: AppRoute.about.path), named: "about")
        let missing = AlertScreen(viewModel: AlertViewModel(dependencies: deps, route: .missing(.starships, id: 99)))
        await snapshot(missing, as: .markdown(at: AppRoute.alert(.missing(.starships, id: 99)).path), named: "missing")
    }

    @Test func wholePages() async {
        let site = AppCoordinator(dependencies: deps).siteInfo
        let home = HomeScreen(viewModel: HomeViewModel(dependencies: deps))
        await snapshot(home, as: .html(at: .home, site: site), named: "home")

        let luke = catalog.route(.people, id: 1)
        let detail = ResourceDetailScreen(
            viewModel: ResourceDetailViewModel<CharactersModule>(dependencies: deps, id: 1))
        let crumbs: [(title: String, route: AppRoute)] = [
            ("Home", .home), ("Characters", .list(.people)), ("Luke Skywalker", luke)
        ]
        await snapshot(detail, as: .html(at: luke, site: site, trail: crumbs), named: "character")

        let alert = AppRoute.alert(.missing(.starships, id: 99))
        let dialog = AlertScreen(viewModel: AlertViewModel(dependencies: deps, route: .missing(.starships, id: 99)))
        await snapshot(
            dialog,
            as: .html(
                at: alert, site: site, trail: crumbs + [("Not in the archive", alert)], presentation: .modal,
                presenter: crumbs.last),
            named: "alert"
        )
        let search = SearchScreen(viewModel: SearchViewModel(dependencies: deps))
        await snapshot(
            search, as: .html(at: .search, site: site, search: AppCoordinator(dependencies: deps).search),
            named: "search")
    }
}
