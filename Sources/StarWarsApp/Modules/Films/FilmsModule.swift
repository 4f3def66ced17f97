import FlowSite
import SWAPI

/// Films: listed by episode, with their synopsis, credits and everything that appears in them.
public enum FilmsModule {
    /// Films in episode order (unknown episodes last, by id).
    public static func ordered(_ films: [Film]) -> [Film] {
        films.sorted { ($0.episodeID ?? Int.max, $0.id) < ($1.episodeID ?? Int.max, $1.id) }
    }

    /// "Episode IV · 25 May 1977 · directed by George Lucas".
    public static func summary(of film: Film) -> String {
        "\(Format.episode(film.episodeID)) · \(Format.date(film.releaseDate)) · directed by \(Format.text(film.director))"
    }

    public static func detail(of film: Film, in catalog: Catalog) -> DetailContent {
        DetailContent(
            kind: .films,
            title: film.title,
            introduction: film.openingCrawl.lowercased() == "unknown" ? nil : film.openingCrawl,
            attributes: [
                .init("Episode", Format.episode(film.episodeID)),
                .init("Director", Format.text(film.director)),
                .init("Producer", Format.text(film.producer)),
                .init("Release date", Format.date(film.releaseDate)),
            ],
            relations: [
                .init("Characters", catalog.links(.people, film.characters)),
                .init("Planets", catalog.links(.planets, film.planets)),
                .init("Starships", catalog.links(.starships, film.starships)),
                .init("Vehicles", catalog.links(.vehicles, film.vehicles)),
                .init("Species", catalog.links(.species, film.species)),
            ]
        )
    }

    public static func makeCoordinator(_ dependencies: AppDependencies) -> some ChildCoordinator {
        ResourceFlowController(factory: LiveResourceFactory(dependencies: dependencies, kind: .films) {
            MappedDetailViewModel(dependencies: $0, id: $1, find: { $0.film($1) }, map: detail)
        })
    }
}
