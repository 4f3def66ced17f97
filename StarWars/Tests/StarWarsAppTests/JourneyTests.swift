import Foundation
import SWAPI
import Testing

@testable import FlowSite
@testable import StarWarsApp

/// The Star Wars app's journeys on its own data, in English and in Spanish: each is taken to its end, through the
/// pages a reader passes, in the app's own words.
@Suite struct StarWarsJourneyTests {
    @Test(arguments: ["en", "es"])
    func everyJourneyIsTakenToItsEnd(language: String) async throws {
        let app = AppCoordinator(
            dependencies: .live(.archive(try EmbeddedSnapshot.load()), strings: try Strings(language: language)))
        let graph = try await SiteWalker(coordinator: app, keepsEdges: false).walk { _ in }
        let taken = graph.journeys.journeys
        #expect(taken.count == 5)
        #expect(taken.allSatisfy { $0.broken == nil }, "\(taken.compactMap(\.broken))")
        #expect(
            taken.map { $0.pages.map { graph.table.path(of: $0).description } } == [
                ["/", "/characters/luke-skywalker/", "/planets/tatooine/"],
                ["/", "/search/", "/films/a-new-hope/"],
                ["/", "/films/", "/films/a-new-hope/", "/planets/tatooine/"],
                ["/characters/luke-skywalker/", "/starships/x-wing/", "/characters/wedge-antilles/"],
                ["/", "/about/"]
            ])
        #expect(taken[2].presentations.first == .root)
        #expect(taken[4].presentations == [.modal])
        // The tab and the links are named in the language of the walk.
        #expect(taken[2].labels.first == (language == "es" ? "Películas" : "Films"))
    }
}
