import FlowSite
import FlowSiteTesting
import SWAPI
import Testing

@testable import StarWarsApp

@Suite struct SearchViewModelTests {
    func entries(_ names: [String]) -> [SearchEntry] {
        names.enumerated().map {
            SearchEntry(name: $1, kind: .people, route: .resources(.people, .detail(id: $0, slug: Slug($1))))
        }
    }

    func names(_ state: SearchState) -> [String] {
        switch state {
        case .filtered(_, let results, _): results.map(\.name)
        default: []
        }
    }

    @Test func oneOfRyanJoeAndCalMatchesR() {
        let state = SearchViewModel.state(query: "R", entries: entries(["Ryan", "Joe", "Cal"]))
        #expect(names(state) == ["Ryan"])
    }

    @Test func ryanAndRyoBothMatchR() {
        let state = SearchViewModel.state(query: "R", entries: entries(["Ryan", "Ryo"]))
        #expect(names(state) == ["Ryan", "Ryo"])
    }

    @Test func anEmptyQueryLeavesAllAToZ() {
        let state = SearchViewModel.state(query: "", entries: entries(["Ryan", "Joe", "Cal"]))
        #expect(
            state
                == .filtered(query: "", results: entries(["Ryan", "Joe", "Cal"]).sorted { $0.name < $1.name }, total: 3)
        )
        #expect(names(SearchViewModel.state(query: "   ", entries: entries(["b", "a"]))) == ["a", "b"])
    }

    @Test func matchingIgnoresCaseAndAccentsAndIsPartial() {
        let all = entries(["Padmé Amidala", "Luke Skywalker", "Anakin Skywalker"])
        #expect(names(SearchViewModel.state(query: "padme", entries: all)) == ["Padmé Amidala"])
        #expect(
            names(SearchViewModel.state(query: "SKYW", entries: all)) == [
                "Anakin Skywalker", "Luke Skywalker"
            ])
    }

    @Test func noMatchIsTheEmptyState() {
        #expect(
            SearchViewModel.state(query: "zz", entries: entries(["Ryan"])) == .empty(query: "zz", total: 1))
    }

    @Test func aServiceErrorGivesTheErrorState() async {
        let state = await SearchViewModel(dependencies: Fixtures.failing).load()
        #expect(state == .error("The archive could not be loaded: the archive is offline"))
    }
}

@Suite struct ResourceViewModelTests {
    @Test func listsHoldTenRowsAPage() {
        let catalog = Catalog(archive: SyntheticArchive.make())
        let first = ResourceListViewModel<CharactersModule>.state(page: 1, catalog: catalog, strings: .english).content
        let last = ResourceListViewModel<CharactersModule>.state(page: 9, catalog: catalog, strings: .english).content
        #expect(first?.rows.count == 10 && first?.pageCount == 9 && first?.total == 82)
        #expect(last?.rows.count == 2)
        if case .empty = ResourceListViewModel<CharactersModule>.state(page: 10, catalog: catalog, strings: .english) {
        } else {
            Issue.record("page 10 should be empty")
        }
    }

    @Test func filmsAreListedByEpisode() {
        let catalog = Catalog(archive: SyntheticArchive.make())
        let titles = ResourceListViewModel<FilmsModule>.state(page: 1, catalog: catalog, strings: .english).content?
            .rows.map(\.title)
        #expect(titles == ["Film 4", "Film 5", "Film 6", "Film 1", "Film 2", "Film 3"])
    }

    @Test func aCharacterReadsWell() async {
        let state = await ResourceDetailViewModel<CharactersModule>(dependencies: Fixtures.dependencies, id: 16).load()
        let content = try! #require(state.content)
        #expect(content.attributes.first { $0.name == "Mass" }?.value == "1,358 kg")
        #expect(content.attributes.first { $0.name == "Birth year" }?.value == "600 BBY")
        let starships = content.relations.first { $0.title == "Starships" }!.links
        #expect(
            starships == [
                RelatedLink(
                    label: "Starship #99 (not in the archive)", route: .alert(.missing(.starships, id: 99)),
                    isMissing: true)
            ])
    }

    @Test func aServiceErrorGivesTheErrorState() async {
        #expect(
            await ResourceDetailViewModel<CharactersModule>(dependencies: Fixtures.failing, id: 1).load()
                == .error("The character could not be loaded: the archive is offline"))
        #expect(
            await ResourceListViewModel<FilmsModule>(dependencies: Fixtures.failing, page: 1).load()
                == .error("The films could not be loaded: the archive is offline"))
        if case .error = await HomeViewModel(dependencies: Fixtures.failing).load() {
        } else {
            Issue.record("home should show the error state")
        }
    }

    @Test(
        arguments: [
            ("172", .centimetres, "172 cm"), ("1,358", .kilograms, "1,358 kg"), ("unknown", .kilograms, "Unknown"),
            ("n/a", .centimetres, "Not applicable"),
            ("200000", nil, "200,000"), ("1000000000000", nil, "1,000,000,000,000"), ("12.5", .metres, "12.5 m"),
            ("30-165", nil, "30-165"),
            ("none", .kilograms, "None"), ("indefinite", .years, "Indefinite"), ("1", .percent, "1%")
        ] as [(String, Format.Unit?, String)])
    func quantities(raw: String, unit: Format.Unit?, shown: String) {
        #expect(Format(.english).quantity(raw, unit: unit) == shown)
    }

    @Test func wordsAndDates() {
        let format = Format(.english)
        #expect(format.text("hermaphrodite") == "Hermaphrodite")
        #expect(format.text("n/a") == "Not applicable")
        #expect(format.birthYear("41.9BBY") == "41.9 BBY")
        #expect(format.birthYear("unknown") == "Unknown")
        #expect(format.date("1977-05-25") == "25 May 1977")
        #expect(format.episode(4) == "Episode IV")
        #expect(format.episode(9) == "Episode IX")
    }

    @Test func slugsAreUniqueAndStable() {
        let archive = SyntheticArchive.make()
        let catalog = Catalog(archive: archive)
        #expect(catalog.slug(of: .people, id: 1) == "person-1")
        #expect(catalog.slug(of: .people, id: 2) == "person-1-2") // the same name, later id
        let slugs = archive.people.map { catalog.slug(of: .people, id: $0.id)! }
        #expect(Set(slugs).count == slugs.count)
        #expect(
            Catalog(archive: try! SwapiArchive(people: [Fixtures.person(3, "Page")])).slug(of: .people, id: 3)
                == "page-2")
    }

    @Test func duplicateNamesTakeLinearWork() {
        // 3,000 copies of one name: the old search from -2 upwards tried about 4.5 million slugs.
        var allocator = SlugAllocator()
        let slugs = (0..<3000).map { _ in allocator.claim("han-solo") }
        #expect(slugs.prefix(3) == ["han-solo", "han-solo-2", "han-solo-3"])
        #expect(slugs.last == "han-solo-3000")
        #expect(Set(slugs).count == 3000)
        #expect(allocator.probes <= 2 * 3000, "suffix search must resume where it stopped: \(allocator.probes) probes")
    }

    @Test func suffixesSkipSlugsThatNamesAlreadyTook() {
        var allocator = SlugAllocator(reserved: ["page"])
        #expect(allocator.claim("han-2") == "han-2")
        #expect(allocator.claim("han") == "han")
        #expect(allocator.claim("han") == "han-3")
        #expect(allocator.claim("han-3") == "han-3-2")
        #expect(allocator.claim("han") == "han-4")
        #expect(allocator.claim("page") == "page-2")
    }
}

/// The app's navigation code on a recording navigator: the same calls the site walker records.
/// Each navigator starts on the screen the test navigates from, so the transitions its calls
/// make are the flow's; `.flowCoverage()` records them into
/// `StarWars/flow-coverage/StarWarsAppTests.CoordinatorTests.json`, which the site's flow map
/// reads to mark the transitions no test takes.
@Suite(.flowCoverage()) struct CoordinatorTests {
    /// The characters' flow over the fixtures: the code the site runs.
    let flow = ResourceFlowController<CharactersModule>(dependencies: Fixtures.dependencies)
    let luke = Fixtures.catalog.route(.people, id: 1)

    @Test func enteringTheFlowPushesItsList() {
        let navigator = RecordingNavigator<AppRoute>(stack: [.home])
        flow.didSelectListPage(1, from: .home, in: navigator)
        #expect(navigator.shown == [.init(.list(.people), .push)])
    }

    /// Later pages sit over the first, so page N's trail reads Home › Characters › Page N.
    @Test func laterListPagesSitOverTheFirstAndReplaceEachOther() {
        let navigator = RecordingNavigator<AppRoute>(stack: [.home])
        flow.show(.list(.people), from: .home, in: navigator)
        flow.show(.list(.people, page: 2), from: .list(.people), in: navigator)
        flow.show(.list(.people, page: 3), from: .list(.people, page: 2), in: navigator)
        #expect(navigator.shown.map(\.presentation) == [.push, .push, .replace])
        #expect(navigator.stack == [.home, .list(.people), .list(.people, page: 3)])
        flow.show(.list(.people), from: .list(.people, page: 3), in: navigator)
        #expect(navigator.shown.last == .init(.list(.people), .root))
    }

    @Test func selectingACharacterInsideTheFlowPushesIt() {
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .list(.people)])
        flow.show(luke, from: .list(.people), in: navigator)
        flow.show(Fixtures.catalog.route(.people, id: 5), from: luke, in: navigator)
        #expect(navigator.shown.map(\.presentation) == [.push, .push])
    }

    /// Whichever list page a character is picked on, its trail reads Home › Characters › Luke.
    @Test func aCharacterFromALaterListPageOpensAsADeepLink() {
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .list(.people), .list(.people, page: 2)])
        flow.show(luke, from: .list(.people, page: 2), in: navigator)
        #expect(navigator.shown == [.init(luke, .root)])
    }

    @Test func aCharacterFromAnotherFlowOpensAsADeepLink() {
        let navigator = RecordingNavigator<AppRoute>(stack: [Fixtures.catalog.route(.films, id: 1)])
        flow.show(luke, from: Fixtures.catalog.route(.films, id: 1), in: navigator)
        #expect(navigator.shown == [.init(luke, .root)])
    }

    @Test func routesOfOtherFlowsAreNotShown() {
        let navigator = RecordingNavigator<AppRoute>(stack: [.home])
        flow.show(.list(.films), from: .home, in: navigator)
        flow.show(.about, from: .home, in: navigator)
        #expect(navigator.shown.isEmpty)
    }

    @Test func theAppCoordinatorPresentsLikeTheSiteReads() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let navigator = RecordingNavigator<AppRoute>()
        app.start(in: navigator)
        app.navigate(NavigationAction("Characters", to: .list(.people)), from: .home, in: navigator)
        app.navigate(NavigationAction("Next", to: .list(.people, page: 2)), from: .list(.people), in: navigator)
        app.navigate(NavigationAction("Luke", to: luke), from: .list(.people, page: 2), in: navigator)
        app.navigate(
            NavigationAction("Starship #99", to: .alert(.missing(.starships, id: 99))), from: luke, in: navigator)
        #expect(navigator.shown.map(\.presentation) == [.root, .push, .push, .root, .modal])
        #expect(navigator.stack == [luke, .alert(.missing(.starships, id: 99))])
        #expect(app.rootStack(for: .list(.people, page: 2)) == [.home, .list(.people), .list(.people, page: 2)])
        let film = Fixtures.catalog.route(.films, id: 1)
        let fromFilm = RecordingNavigator<AppRoute>(stack: [.home, .list(.films), film])
        app.navigate(NavigationAction("Luke", to: luke), from: film, in: fromFilm)
        app.navigate(NavigationAction("Home", to: .home), from: luke, in: fromFilm)
        #expect(fromFilm.shown.map(\.presentation) == [.root, .root])
        let aboutFromLuke = RecordingNavigator<AppRoute>(stack: [.home, .list(.people), luke])
        app.navigate(NavigationAction("About", to: .about), from: luke, in: aboutFromLuke)
        #expect(aboutFromLuke.shown == [.init(.about, .modal)])
        #expect(app.rootStack(for: luke) == [.home, .list(.people), luke])
    }

    /// Home opens each list and the search over itself, and About as a dialog.
    @Test func homeOpensTheListsAndSearchOverItselfAndAboutAsADialog() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        for kind in ResourceKind.allCases {
            let navigator = RecordingNavigator<AppRoute>(stack: [.home])
            app.navigate(NavigationAction("List", to: .list(kind)), from: .home, in: navigator)
            #expect(navigator.shown == [.init(.list(kind), .push)], "\(kind)")
            #expect(navigator.stack == [.home, .list(kind)])
        }
        let navigator = RecordingNavigator<AppRoute>(stack: [.home])
        app.navigate(NavigationAction("Search", to: .search), from: .home, in: navigator)
        #expect(navigator.shown == [.init(.search, .push)])
        let about = RecordingNavigator<AppRoute>(stack: [.home])
        app.navigate(NavigationAction("About", to: .about), from: .home, in: about)
        #expect(about.shown == [.init(.about, .modal)])
    }

    /// A tab is its own kind of navigation: selecting one from any page starts its flow again
    /// at its root (a list's first page, search), whose trail is Home › Characters, where a link
    /// from Home's content pushes the list over Home.
    @Test func theTabBarOpensEachListAsTheRootOfItsFlow() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        for tab in app.siteInfo.navigation {
            let navigator = RecordingNavigator<AppRoute>(stack: [.home])
            app.selectTab(tab, in: navigator)
            #expect(navigator.shown == [.init(tab.route, .root)], "\(tab.label)")
            #expect(app.rootStack(for: tab.route) == [.home, tab.route])
        }
        #expect(app.siteInfo.navigation.map(\.route) == ResourceKind.allCases.map { AppRoute.list($0) } + [.search])
    }

    /// A film's related records belong to other flows: each opens as a deep link, so its trail
    /// is its own flow's (Home › Planets › Tatooine), not the film's.
    @Test func aFilmOpensItsRelatedRecordsAsDeepLinks() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let film = Fixtures.catalog.route(.films, id: 1)
        for (kind, id) in [(ResourceKind.planets, 1), (.species, 5), (.starships, 12)] {
            let navigator = RecordingNavigator<AppRoute>(stack: [.home, .list(.films), film])
            let target = Fixtures.catalog.route(kind, id: id)
            app.navigate(NavigationAction("Related", to: target), from: film, in: navigator)
            #expect(navigator.shown == [.init(target, .root)], "\(kind)")
            #expect(app.rootStack(for: target) == [.home, .list(kind), target])
        }
    }
}

/// No page does work proportional to the whole archive: a list page reads its own rows.
@Suite struct ListScalingTests {
    @Test func aListPageReadsOnlyItsRows() throws {
        for people in [30, 20_000] {
            let catalog = Catalog(
                archive: SyntheticArchive.make(people: people, planets: 10, species: 5, starships: 5, vehicles: 5))
            let before = catalog.rowReads.count
            let state = ResourceListViewModel<CharactersModule>.state(
                page: 2, catalog: catalog, strings: Strings.english)
            #expect(state.content?.rows.count == 10)
            #expect(
                catalog.rowReads.count - before == 10,
                "with \(people) people, page 2 read \(catalog.rowReads.count - before) resources")
            _ = ResourceListViewModel<FilmsModule>.state(page: 1, catalog: catalog, strings: Strings.english)
            #expect(catalog.rowReads.count - before <= 20)
        }
    }
}

/// The static search page lists every entry only while that makes a page people can use.
@Suite struct LargeSearchPageTests {
    @Test func aLargeArchiveGetsCountsByKindInsteadOfEveryEntry() async throws {
        let archive = SyntheticArchive.make(people: 4_000, planets: 600, species: 200, starships: 200, vehicles: 200)
        let dependencies = AppDependencies.mock(archive)
        let state = await SearchViewModel(dependencies: dependencies).load()
        guard case .tooMany(let total, let counts) = state else {
            Issue.record("expected the counts, got \(state)")
            return
        }
        #expect(total > SearchViewModel.staticListLimit)
        #expect(counts[.people] == archive.people.count)
        #expect(total == ResourceKind.allCases.map { archive.count(of: $0) }.reduce(0, +))
        let page = SearchScreen(viewModel: SearchViewModel(dependencies: dependencies)).page(for: state)
        let markdown = page.document.markdown(linking: { $0.path.file })
        #expect(markdown.contains("[Characters](characters/index.html) — 4,000"))
        #expect(page.document.linkedRoutes.count == ResourceKind.allCases.count)
    }

    @Test func theEmbeddedArchiveStillListsEveryEntry() async throws {
        let archive = try EmbeddedSnapshot.load()
        let state = await SearchViewModel(dependencies: AppDependencies.mock(archive)).load()
        guard case .filtered(_, let results, let total) = state else {
            Issue.record("expected every entry, got \(state)")
            return
        }
        #expect(results.count == total)
        #expect(total < SearchViewModel.staticListLimit)
    }
}
