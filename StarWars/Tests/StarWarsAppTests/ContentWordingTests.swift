import FlowSite
import Testing

@testable import SWAPI
@testable import StarWarsApp

/// What SWAPI's quirky records read like: placeholders, empty species lists, zeros that mean
/// "unknown", films in episode order. On the embedded data (SWAPI's own records) and the
/// synthetic archive (its quirks on purpose).
@Suite struct ContentWordingTests {
    static let embedded = Catalog(archive: try! EmbeddedSnapshot.load())
    static let synthetic = Catalog(archive: SyntheticArchive.make())

    func detail(_ catalog: Catalog, _ kind: ResourceKind, named name: String) throws -> DetailContent {
        let resource = try #require(
            catalog.archive.resources(of: kind).first { $0.displayName == name }, "no \(kind) named \(name)")
        switch resource {
        case let person as Person: return CharactersModule.detail(of: person, in: catalog, strings: .english)
        case let planet as Planet: return PlanetsModule.detail(of: planet, in: catalog, strings: .english)
        case let species as Species: return SpeciesModule.detail(of: species, in: catalog, strings: .english)
        case let vehicle as Vehicle: return VehiclesModule.detail(of: vehicle, in: catalog, strings: .english)
        case let starship as Starship: return StarshipsModule.detail(of: starship, in: catalog, strings: .english)
        case let film as Film: return FilmsModule.detail(of: film, in: catalog, strings: .english)
        default: throw Unexpected()
        }
    }

    struct Unexpected: Error {}

    func value(_ content: DetailContent, _ name: String) -> String? {
        content.attributes.first { $0.name == name }?.value
    }

    // MARK: Species

    /// SWAPI leaves Luke's species empty although he is human: the list is unrecorded, not
    /// "none" and not "unknown". Home, lists and the detail page say so in the same words.
    @Test func anEmptySpeciesListReadsNotRecordedEverywhere() throws {
        let luke = try #require(Self.embedded.archive.person(1))
        #expect(luke.species.isEmpty)
        let summary = CharactersModule.summary(of: luke, in: Self.embedded, strings: .english)
        #expect(summary.hasPrefix("Species not recorded · Tatooine"))
        let species = try #require(
            try detail(Self.embedded, .people, named: "Luke Skywalker").relations.first { $0.title == "Species" })
        #expect(species.links.isEmpty && species.ifEmpty == "Not recorded")
        let home = HomeViewModel.content(Self.embedded, strings: .english)
        #expect(home.featured.first { $0.title == "Luke Skywalker" }?.summary == summary)
        // Other empty relations are simply none.
        let leia = try detail(Self.embedded, .people, named: "Leia Organa")
        #expect(leia.relations.first { $0.title == "Starships" }.map { $0.links.isEmpty && $0.ifEmpty == nil } == true)
    }

    @Test func aCharacterWithASpeciesNamesIt() throws {
        let chewbacca = try #require(
            Self.embedded.archive.resources(of: .people).first { $0.displayName == "Chewbacca" } as? Person)
        #expect(
            CharactersModule.summary(of: chewbacca, in: Self.embedded, strings: .english).hasPrefix("Wookie · Kashyyyk")
        )
    }

    // MARK: Films

    @Test func filmsInListsShowTheirEpisodeInEpisodeOrder() throws {
        let films = try #require(
            try detail(Self.embedded, .people, named: "Luke Skywalker").relations.first { $0.title == "Films" }
        ).links.map(\.label)
        #expect(
            films == [
                "Episode III · Revenge of the Sith", "Episode IV · A New Hope",
                "Episode V · The Empire Strikes Back", "Episode VI · Return of the Jedi"
            ])
        let planet = try #require(
            try detail(Self.embedded, .planets, named: "Naboo").relations.first { $0.title == "Films" }
        ).links.map(\.label)
        #expect(planet.first == "Episode I · The Phantom Menace")
    }

    @Test func aFilmWithoutAnEpisodeKeepsItsTitleAndAMissingFilmSaysSo() throws {
        let films = [
            Film(title: "A New Hope", episodeID: 4, url: Fixtures.link(.films, 1)),
            Film(title: "Holiday Special", episodeID: nil, url: Fixtures.link(.films, 2))
        ]
        let catalog = Catalog(archive: try SwapiArchive(films: films))
        let links = catalog.filmLinks(
            [Fixtures.link(.films, 7), Fixtures.link(.films, 2), Fixtures.link(.films, 1)], strings: .english)
        #expect(links.map(\.label) == ["Episode IV · A New Hope", "Holiday Special", "Film #7 (not in the archive)"])
    }

    // MARK: Unknown values

    /// SWAPI's placeholder planet is named "unknown"; the live API gives its periods and
    /// diameter as "0", which the synthetic archive copies.
    @Test func thePlaceholderPlanetReadsUnknownNotZero() throws {
        let planet = try detail(Self.synthetic, .planets, named: "unknown")
        #expect(planet.title == "Unknown planet")
        for name in ["Rotation period", "Orbital period", "Diameter"] {
            #expect(value(planet, name) == "Unknown", "\(name)")
        }
        // Its name reads the same in lists, links, search and summaries.
        let id = try #require(Self.synthetic.archive.planets.first { $0.name == "unknown" }?.id)
        #expect(Self.synthetic.link(.planets, id: id, strings: .english).label == "Unknown planet")
        #expect(SearchViewModel.entries(Self.synthetic).contains { $0.name == "Unknown planet" && $0.kind == .planets })
        #expect(!SearchViewModel.entries(Self.synthetic).contains { $0.name == "unknown" })
        let resident = try #require(Self.synthetic.archive.people.first { $0.homeworld?.id == id })
        #expect(
            CharactersModule.summary(of: resident, in: Self.synthetic, strings: .english).contains(
                " · Unknown planet · "))
        let embeddedPlaceholder = try detail(Self.embedded, .planets, named: "unknown")
        #expect(embeddedPlaceholder.title == "Unknown planet" && value(embeddedPlaceholder, "Diameter") == "Unknown")
    }

    /// A diameter of 0 is SWAPI's "don't know"; 0% surface water and a population of 0 are
    /// real values, and so are a crew of 0 for droid craft.
    @Test func zeroMeansUnknownOnlyWhereNoRealThingIsZero() throws {
        #expect(value(try detail(Self.embedded, .planets, named: "Stewjon"), "Diameter") == "Unknown")
        #expect(value(try detail(Self.embedded, .planets, named: "Socorro"), "Diameter") == "Unknown")
        #expect(value(try detail(Self.embedded, .planets, named: "Mustafar"), "Surface water") == "0%")
        #expect(value(try detail(Self.embedded, .planets, named: "Tund"), "Population") == "0")
        let droid = try detail(Self.embedded, .vehicles, named: "Vulture Droid")
        #expect(
            value(droid, "Crew") == "0" && value(droid, "Passengers") == "0" && value(droid, "Cargo capacity") == "0 kg"
        )
        #expect(value(droid, "Consumables") == "None")
        // "0" consumables means there are none, as SWAPI's "none" does.
        #expect(value(try detail(Self.embedded, .vehicles, named: "T-16 skyhopper"), "Consumables") == "None")
    }

    @Test func swapisPlaceholderWordsReadTheSameEverywhere() {
        let format = Format(.english)
        for raw in ["unknown", "UNKNOWN", " unknown "] {
            #expect(
                format.text(raw) == "Unknown" && format.quantity(raw) == "Unknown"
                    && format.measurement(raw, unit: .metres) == "Unknown")
        }
        for raw in ["n/a", "N/A"] {
            #expect(
                format.text(raw) == "Not applicable" && format.measurement(raw, unit: .centimetres) == "Not applicable")
        }
        #expect(format.text("none") == "None" && format.duration("none") == "None")
        #expect(
            format.measurement("0", unit: .kilometres) == "Unknown"
                && format.measurement("0.0", unit: .hours) == "Unknown")
        #expect(
            format.measurement("12,120", unit: .kilometres) == "12,120 km"
                && format.measurement("1.5", unit: .metres) == "1.5 m")
        #expect(format.quantity("0") == "0" && format.quantity("0", unit: .percent) == "0%")
        #expect(format.duration("0") == "None" && format.duration("2 months") == "2 months")
        #expect(
            format.name("unknown", of: .planets) == "Unknown planet" && format.name("unknown", of: .people) == "unknown"
        )
    }

    // MARK: Lists

    /// Each page of a list has its own title, breadcrumb label and description.
    @Test func listPagesAreTitledAndDescribedEachTheirOwn() {
        let catalog = Self.embedded
        var titles: Set<String> = []
        var summaries: Set<String> = []
        for page in 1...9 {
            let screen = ResourceListScreen(
                viewModel: ResourceListViewModel<CharactersModule>(
                    dependencies: AppDependencies.mock(catalog.archive), page: page))
            let built = screen.page(
                for: ResourceListViewModel<CharactersModule>.state(page: page, catalog: catalog, strings: .english))
            titles.insert(built.title)
            summaries.insert(built.summary ?? "")
            #expect(built.breadcrumbTitle == (page == 1 ? "Characters" : "Page \(page)"))
        }
        #expect(titles.count == 9 && summaries.count == 9)
        let second = ResourceListScreen(
            viewModel: ResourceListViewModel<CharactersModule>(
                dependencies: AppDependencies.mock(catalog.archive), page: 2)
        )
        .page(for: ResourceListViewModel<CharactersModule>.state(page: 2, catalog: catalog, strings: .english))
        #expect(
            second.summary == "Characters 11–20 of 82 in the Star Wars archive, from Anakin Skywalker to Palpatine.")
        let films = ResourceListScreen(
            viewModel: ResourceListViewModel<FilmsModule>(dependencies: AppDependencies.mock(catalog.archive), page: 1)
        )
        .page(for: ResourceListViewModel<FilmsModule>.state(page: 1, catalog: catalog, strings: .english))
        #expect(films.summary == "Every film in the Star Wars archive." && films.pagination == nil)
    }
}
