import Foundation
import SWAPI
import StarWarsTestSupport
import Testing

@testable import FlowSite
@testable import StarWarsApp

/// What each Star Wars page reads (``InputKey``) is what its bytes depend on: after any edit
/// to the data, every page whose bytes changed read a changed input, is new, or has another
/// place in the walk (trail, presenter, presentation). A rebuild that re-renders only those
/// pages is exact.
@Suite struct PageInputsTests {
    typealias Archive = (
        people: [Person], films: [Film], planets: [Planet], species: [Species], starships: [Starship],
        vehicles: [Vehicle]
    )

    /// An edit a user makes to the data files, named for the failure message.
    struct Edit: Sendable, CustomStringConvertible {
        let description: String
        let apply: @Sendable (inout Archive, inout SplitMix) -> Void
    }

    static let edits: [Edit] = [
        Edit(description: "a character's height") { data, random in
            data.people[Int.random(in: 0..<data.people.count, using: &random)].height = "999"
        },
        Edit(description: "a character renamed") { data, random in
            data.people[Int.random(in: 0..<data.people.count, using: &random)].name = "Renamed Person"
        },
        Edit(description: "a character renamed to another's name") { data, random in
            data.people[Int.random(in: 1..<data.people.count, using: &random)].name = data.people[0].name
        },
        Edit(description: "a character removed") { data, random in
            data.people.remove(at: Int.random(in: 0..<data.people.count, using: &random))
        },
        Edit(description: "a character added") { data, random in
            var person = data.people[Int.random(in: 0..<data.people.count, using: &random)]
            let id = (data.people.map(\.id).max() ?? 0) + 1
            person.name = "New Person \(id)"
            person.url = ResourceLink(url: "https://swapi.dev/api/people/\(id)/", id: id)
            data.people.append(person)
        },
        Edit(description: "a film retitled") { data, random in
            data.films[Int.random(in: 0..<data.films.count, using: &random)].title = "Retitled"
        },
        Edit(description: "a film's episode") { data, random in
            data.films[Int.random(in: 0..<data.films.count, using: &random)].episodeID = 42
        },
        Edit(description: "a film removed") { data, random in
            data.films.remove(at: Int.random(in: 0..<data.films.count, using: &random))
        },
        Edit(description: "a planet's population") { data, random in
            data.planets[Int.random(in: 0..<data.planets.count, using: &random)].population = "7"
        },
        Edit(description: "a planet renamed") { data, random in
            data.planets[Int.random(in: 0..<data.planets.count, using: &random)].name = "Elsewhere"
        },
        Edit(description: "a species renamed") { data, random in
            data.species[Int.random(in: 0..<data.species.count, using: &random)].name = "Others"
        },
        Edit(description: "a starship removed") { data, random in
            data.starships.remove(at: Int.random(in: 0..<data.starships.count, using: &random))
        },
        Edit(description: "a vehicle's crew") { data, random in
            data.vehicles[Int.random(in: 0..<data.vehicles.count, using: &random)].crew = "12"
        }
    ]

    struct Walked: Sendable {
        let graph: SiteGraph<AppRoute>
        let pages: [String: Data]
        /// Each route's place in the walk: its stack with each step's title, how it was shown, and by whom.
        let places: [AppRoute: String]
    }

    /// The embedded data's site, walked and built once for every edit's comparison.
    static let original = Task { try await walkAndBuild(try EmbeddedSnapshot.load()) }

    static func walkAndBuild(_ archive: SwapiArchive) async throws -> Walked {
        let app = AppCoordinator(dependencies: .live(.archive(archive)))
        var walker = SiteWalker(coordinator: app, concurrency: 4, keepsEdges: false)
        walker.recordsInputs = true
        let graph = try await walker.walk { _ in }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "starwars-inputs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try await SiteBuilder(coordinator: app).build(into: folder)
        var pages: [String: Data] = [:]
        for route in graph.routes {
            pages[route.path.file] = try Data(contentsOf: folder.appendingPathComponent(route.path.file))
        }
        let titles = graph.titles
        let places = graph.records.mapValues { record in
            func place(_ route: AppRoute) -> String { "\(route.path.file)=\(titles[route] ?? "")" }
            return "\(record.stack.map(place)) \(record.presentation) \(record.presenter.map(place) ?? "-")"
        }
        return Walked(graph: graph, pages: pages, places: places)
    }

    @Test(arguments: 0..<edits.count)
    func everyPageAnEditChangesReadAChangedInputOrMoved(edit: Int) async throws {
        let original = try EmbeddedSnapshot.load()
        var data: Archive = (
            original.people, original.films, original.planets, original.species, original.starships, original.vehicles
        )
        var random = SplitMix(seed: 0x5EED_0000 + UInt64(edit))
        Self.edits[edit].apply(&data, &random)
        let edited = try SwapiArchive(
            people: data.people, films: data.films, planets: data.planets, species: data.species,
            starships: data.starships, vehicles: data.vehicles
        )
        let changed = Catalog(archive: edited).changedInputs(since: Catalog(archive: original))
        #expect(!changed.isEmpty, "the edit changed nothing")

        let (old, new) = (try await Self.original.value, try await Self.walkAndBuild(edited))
        var inputs: [AppRoute: [InputKey]] = [:]
        for (route, read) in zip(old.graph.routes, old.graph.inputs) { inputs[route] = read }
        #expect(inputs.count == old.graph.routes.count)
        // Only pages that show no data (About) read nothing.
        let readNothing = inputs.filter { $0.value.isEmpty }.map { $0.key.path.file }.sorted()
        #expect(readNothing == ["about/index.html"], "\(readNothing)")

        var predicted: Set<String> = []
        for route in new.graph.routes {
            let file = route.path.file
            guard let read = inputs[route] else {
                predicted.insert(file) // a new page
                continue
            }
            if read.contains(where: changed.contains) || old.places[route] != new.places[route] {
                predicted.insert(file)
            }
        }
        let actual = Set(new.pages.filter { old.pages[$0.key] != $0.value }.keys)
        #expect(
            actual.isSubset(of: predicted),
            "\(Self.edits[edit]): pages changed that read nothing changed: \(actual.subtracting(predicted).sorted())")
        #expect(!actual.isEmpty)
        // Precise enough to be worth it: an edit to one record reaches the pages that show it.
        #expect(
            predicted.count < new.pages.count / 2,
            "\(Self.edits[edit]): \(predicted.count) of \(new.pages.count) pages predicted")
    }

    /// Every input of every kind has a table of its own, numbered from the declarations.
    @Test func everyInputOfEveryKindHasATableOfItsOwn() {
        let tables =
            CatalogInput.allCases.flatMap { input in ResourceKind.allCases.map { input.table($0) } }
            + [InputKey.everything.table]
        #expect(Set(tables).count == CatalogInput.allCases.count * ResourceKind.allCases.count + 1)
        #expect(InputKey.slug(.films, id: 3) == InputKey(table: CatalogInput.slug.table(.films), id: 3))
        #expect(InputKey.record(.people, id: 1) < InputKey.slug(.people, id: 1))
        #expect(InputKey.name(.vehicles, id: 1) < InputKey.everything)
    }

    /// A list page reads its own rows and the kind's order, not every record of the kind.
    @Test func aListPageReadsItsRowsAndNotTheWholeKind() async throws {
        let archive = try EmbeddedSnapshot.load()
        let app = AppCoordinator(dependencies: .live(.archive(archive)))
        var walker = SiteWalker(coordinator: app, concurrency: 2, keepsEdges: false)
        walker.recordsInputs = true
        let graph = try await walker.walk { _ in }
        let index = try #require(graph.routes.firstIndex { $0.path.file == "characters/index.html" })
        let read = graph.inputs[index]
        let people = read.filter { $0.table == InputKey.record(.people, id: 0).table }
        #expect(
            !people.isEmpty && people.count < archive.people.count, "\(people.count) of \(archive.people.count) people")
        #expect(read.contains(.order(.people)), "the people's order")
        #expect(!read.contains(.everything), "not the whole archive")
    }
}
