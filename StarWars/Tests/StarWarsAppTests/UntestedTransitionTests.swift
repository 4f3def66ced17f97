// Tests of the transitions no test takes, as flow lint writes them: each follows one link from the page the
// walk first took it on and expects what the app showed. Give a suite .flowCoverage() to count them.
import FlowSiteTesting
import Testing

@testable import StarWarsApp

@Suite struct UntestedTransitionTests {
    // Home → Character (root, 12 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromHomeToCharacter() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .home
        let target: AppRoute = .resources(.people, .detail(id: 1, slug: "luke-skywalker"))
        let navigator = RecordingNavigator<AppRoute>(stack: [source])
        navigator.follow(NavigationAction("Luke Skywalker", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Film list → Film (push, 6 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:99
    @Test func fromFilmListToFilm() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.films, .list(page: 1))
        let target: AppRoute = .resources(.films, .detail(id: 4, slug: "the-phantom-menace"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("The Phantom Menace", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Planet list → Planet list (root, 5 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:84
    @Test func fromPlanetListToPlanetListAsRoot() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.planets, .list(page: 2))
        let target: AppRoute = .resources(.planets, .list(page: 1))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.planets, .list(page: 1)), source])
        navigator.follow(NavigationAction("1", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Planet list → Planet list (push, 3 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:86
    @Test func fromPlanetListToPlanetListAsPush() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.planets, .list(page: 1))
        let target: AppRoute = .resources(.planets, .list(page: 2))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("2", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Planet list → Planet list (replace, 18 links), shown at
    // Sources/StarWarsApp/Shared/ResourceFlowController.swift:88
    @Test func fromPlanetListToPlanetListAsReplace() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.planets, .list(page: 2))
        let target: AppRoute = .resources(.planets, .list(page: 3))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.planets, .list(page: 1)), source])
        navigator.follow(NavigationAction("3", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .replace)])
    }

    // Planet list → Planet (root, 50 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:97
    @Test func fromPlanetListToPlanetAsRoot() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.planets, .list(page: 2))
        let target: AppRoute = .resources(.planets, .detail(id: 11, slug: "geonosis"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.planets, .list(page: 1)), source])
        navigator.follow(NavigationAction("Geonosis", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Planet list → Planet (push, 10 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:99
    @Test func fromPlanetListToPlanetAsPush() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.planets, .list(page: 1))
        let target: AppRoute = .resources(.planets, .detail(id: 1, slug: "tatooine"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("Tatooine", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Species list → Species list (root, 3 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:84
    @Test func fromSpeciesListToSpeciesListAsRoot() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.species, .list(page: 2))
        let target: AppRoute = .resources(.species, .list(page: 1))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.species, .list(page: 1)), source])
        navigator.follow(NavigationAction("1", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Species list → Species list (push, 3 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:86
    @Test func fromSpeciesListToSpeciesListAsPush() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.species, .list(page: 1))
        let target: AppRoute = .resources(.species, .list(page: 2))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("2", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Species list → Species list (replace, 6 links), shown at
    // Sources/StarWarsApp/Shared/ResourceFlowController.swift:88
    @Test func fromSpeciesListToSpeciesListAsReplace() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.species, .list(page: 2))
        let target: AppRoute = .resources(.species, .list(page: 3))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.species, .list(page: 1)), source])
        navigator.follow(NavigationAction("3", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .replace)])
    }

    // Species list → Species (root, 27 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:97
    @Test func fromSpeciesListToSpeciesAsRoot() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.species, .list(page: 2))
        let target: AppRoute = .resources(.species, .detail(id: 11, slug: "neimodian"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.species, .list(page: 1)), source])
        navigator.follow(NavigationAction("Neimodian", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Species list → Species (push, 10 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:99
    @Test func fromSpeciesListToSpeciesAsPush() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.species, .list(page: 1))
        let target: AppRoute = .resources(.species, .detail(id: 1, slug: "human"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("Human", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Starship list → Starship list (root, 3 links), shown at
    // Sources/StarWarsApp/Shared/ResourceFlowController.swift:84
    @Test func fromStarshipListToStarshipListAsRoot() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.starships, .list(page: 2))
        let target: AppRoute = .resources(.starships, .list(page: 1))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.starships, .list(page: 1)), source])
        navigator.follow(NavigationAction("1", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Starship list → Starship list (push, 3 links), shown at
    // Sources/StarWarsApp/Shared/ResourceFlowController.swift:86
    @Test func fromStarshipListToStarshipListAsPush() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.starships, .list(page: 1))
        let target: AppRoute = .resources(.starships, .list(page: 2))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("2", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Starship list → Starship list (replace, 6 links), shown at
    // Sources/StarWarsApp/Shared/ResourceFlowController.swift:88
    @Test func fromStarshipListToStarshipListAsReplace() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.starships, .list(page: 2))
        let target: AppRoute = .resources(.starships, .list(page: 3))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.starships, .list(page: 1)), source])
        navigator.follow(NavigationAction("3", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .replace)])
    }

    // Starship list → Starship (root, 26 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:97
    @Test func fromStarshipListToStarshipAsRoot() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.starships, .list(page: 2))
        let target: AppRoute = .resources(.starships, .detail(id: 21, slug: "slave-1"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.starships, .list(page: 1)), source])
        navigator.follow(NavigationAction("Slave 1", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Starship list → Starship (push, 10 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:99
    @Test func fromStarshipListToStarshipAsPush() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.starships, .list(page: 1))
        let target: AppRoute = .resources(.starships, .detail(id: 2, slug: "cr90-corvette"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("CR90 corvette", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Vehicle list → Vehicle list (root, 3 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:84
    @Test func fromVehicleListToVehicleListAsRoot() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.vehicles, .list(page: 2))
        let target: AppRoute = .resources(.vehicles, .list(page: 1))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.vehicles, .list(page: 1)), source])
        navigator.follow(NavigationAction("1", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Vehicle list → Vehicle list (push, 3 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:86
    @Test func fromVehicleListToVehicleListAsPush() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.vehicles, .list(page: 1))
        let target: AppRoute = .resources(.vehicles, .list(page: 2))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("2", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Vehicle list → Vehicle list (replace, 6 links), shown at
    // Sources/StarWarsApp/Shared/ResourceFlowController.swift:88
    @Test func fromVehicleListToVehicleListAsReplace() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.vehicles, .list(page: 2))
        let target: AppRoute = .resources(.vehicles, .list(page: 3))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.vehicles, .list(page: 1)), source])
        navigator.follow(NavigationAction("3", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .replace)])
    }

    // Vehicle list → Vehicle (root, 29 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:97
    @Test func fromVehicleListToVehicleAsRoot() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.vehicles, .list(page: 2))
        let target: AppRoute = .resources(.vehicles, .detail(id: 25, slug: "bantha-ii-cargo-skiff"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.vehicles, .list(page: 1)), source])
        navigator.follow(NavigationAction("Bantha-II cargo skiff", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Vehicle list → Vehicle (push, 10 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:99
    @Test func fromVehicleListToVehicleAsPush() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.vehicles, .list(page: 1))
        let target: AppRoute = .resources(.vehicles, .detail(id: 4, slug: "sand-crawler"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("Sand Crawler", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .push)])
    }

    // Character → Film (root, 162 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromCharacterToFilm() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.people, .detail(id: 1, slug: "luke-skywalker"))
        let target: AppRoute = .resources(.films, .detail(id: 6, slug: "revenge-of-the-sith"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.people, .list(page: 1)), source])
        navigator.follow(NavigationAction("Episode III · Revenge of the Sith", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Character → Planet (root, 82 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromCharacterToPlanet() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.people, .detail(id: 1, slug: "luke-skywalker"))
        let target: AppRoute = .resources(.planets, .detail(id: 1, slug: "tatooine"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.people, .list(page: 1)), source])
        navigator.follow(NavigationAction("Tatooine", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Character → Species (root, 51 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromCharacterToSpecies() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.people, .detail(id: 13, slug: "chewbacca"))
        let target: AppRoute = .resources(.species, .detail(id: 3, slug: "wookie"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.people, .list(page: 1)), source])
        navigator.follow(NavigationAction("Wookie", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Character → Starship (root, 30 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromCharacterToStarship() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.people, .detail(id: 1, slug: "luke-skywalker"))
        let target: AppRoute = .resources(.starships, .detail(id: 12, slug: "x-wing"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.people, .list(page: 1)), source])
        navigator.follow(NavigationAction("X-wing", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Character → Vehicle (root, 13 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromCharacterToVehicle() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.people, .detail(id: 1, slug: "luke-skywalker"))
        let target: AppRoute = .resources(.vehicles, .detail(id: 14, slug: "snowspeeder"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.people, .list(page: 1)), source])
        navigator.follow(NavigationAction("Snowspeeder", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Search → Character (root, 82 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromSearchToCharacter() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .search
        let target: AppRoute = .resources(.people, .detail(id: 27, slug: "ackbar"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("Ackbar", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Search → Film (root, 6 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromSearchToFilm() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .search
        let target: AppRoute = .resources(.films, .detail(id: 1, slug: "a-new-hope"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("A New Hope", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Search → Planet (root, 60 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromSearchToPlanet() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .search
        let target: AppRoute = .resources(.planets, .detail(id: 2, slug: "alderaan"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("Alderaan", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Search → Species (root, 37 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromSearchToSpecies() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .search
        let target: AppRoute = .resources(.species, .detail(id: 16, slug: "aleena"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("Aleena", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Search → Starship (root, 36 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromSearchToStarship() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .search
        let target: AppRoute = .resources(.starships, .detail(id: 28, slug: "a-wing"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("A-wing", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Search → Vehicle (root, 39 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromSearchToVehicle() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .search
        let target: AppRoute = .resources(.vehicles, .detail(id: 35, slug: "armored-assault-tank"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, source])
        navigator.follow(NavigationAction("Armored Assault Tank", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Film → Vehicle (root, 49 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromFilmToVehicle() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.films, .detail(id: 4, slug: "the-phantom-menace"))
        let target: AppRoute = .resources(.vehicles, .detail(id: 33, slug: "vulture-droid"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.films, .list(page: 1)), source])
        navigator.follow(NavigationAction("Vulture Droid", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Planet → Character (root, 82 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromPlanetToCharacter() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.planets, .detail(id: 1, slug: "tatooine"))
        let target: AppRoute = .resources(.people, .detail(id: 1, slug: "luke-skywalker"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.planets, .list(page: 1)), source])
        navigator.follow(NavigationAction("Luke Skywalker", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Planet → Film (root, 33 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromPlanetToFilm() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.planets, .detail(id: 1, slug: "tatooine"))
        let target: AppRoute = .resources(.films, .detail(id: 4, slug: "the-phantom-menace"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.planets, .list(page: 1)), source])
        navigator.follow(NavigationAction("Episode I · The Phantom Menace", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Species → Character (root, 51 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromSpeciesToCharacter() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.species, .detail(id: 1, slug: "human"))
        let target: AppRoute = .resources(.people, .detail(id: 66, slug: "dorme"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.species, .list(page: 1)), source])
        navigator.follow(NavigationAction("Dormé", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Species → Film (root, 76 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromSpeciesToFilm() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.species, .detail(id: 1, slug: "human"))
        let target: AppRoute = .resources(.films, .detail(id: 4, slug: "the-phantom-menace"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.species, .list(page: 1)), source])
        navigator.follow(NavigationAction("Episode I · The Phantom Menace", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Species → Planet (root, 36 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromSpeciesToPlanet() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.species, .detail(id: 1, slug: "human"))
        let target: AppRoute = .resources(.planets, .detail(id: 9, slug: "coruscant"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.species, .list(page: 1)), source])
        navigator.follow(NavigationAction("Coruscant", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Starship → Character (root, 30 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromStarshipToCharacter() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.starships, .detail(id: 10, slug: "millennium-falcon"))
        let target: AppRoute = .resources(.people, .detail(id: 13, slug: "chewbacca"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.starships, .list(page: 1)), source])
        navigator.follow(NavigationAction("Chewbacca", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Starship → Film (root, 55 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromStarshipToFilm() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.starships, .detail(id: 2, slug: "cr90-corvette"))
        let target: AppRoute = .resources(.films, .detail(id: 6, slug: "revenge-of-the-sith"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.starships, .list(page: 1)), source])
        navigator.follow(NavigationAction("Episode III · Revenge of the Sith", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Vehicle → Character (root, 13 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromVehicleToCharacter() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.vehicles, .detail(id: 14, slug: "snowspeeder"))
        let target: AppRoute = .resources(.people, .detail(id: 1, slug: "luke-skywalker"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.vehicles, .list(page: 1)), source])
        navigator.follow(NavigationAction("Luke Skywalker", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }

    // Vehicle → Film (root, 49 links), shown at Sources/StarWarsApp/Shared/ResourceFlowController.swift:101
    @Test func fromVehicleToFilm() {
        let app = AppCoordinator(dependencies: Fixtures.dependencies)
        let source: AppRoute = .resources(.vehicles, .detail(id: 4, slug: "sand-crawler"))
        let target: AppRoute = .resources(.films, .detail(id: 5, slug: "attack-of-the-clones"))
        let navigator = RecordingNavigator<AppRoute>(stack: [.home, .resources(.vehicles, .list(page: 1)), source])
        navigator.follow(NavigationAction("Episode II · Attack of the Clones", to: target), from: source, on: app)
        #expect(navigator.shown == [.init(target, .root)])
    }
}
