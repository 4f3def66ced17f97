import FlowSite
import SWAPI

/// Films: listed by episode, with their synopsis, credits and everything that appears in them.
public enum FilmsModule: ResourceModule {
    /// Films in episode order (unknown episodes last, by id).
    public static func ordered(_ films: [Film]) -> [Film] {
        films.sorted { ($0.episodeID ?? Int.max, $0.id) < ($1.episodeID ?? Int.max, $1.id) }
    }

    /// "Episode IV · 25 May 1977 · directed by George Lucas".
    public static func summary(of film: Film, in catalog: Catalog, strings: Strings) -> String {
        let format = Format(strings)
        return strings.localizedString(
            .filmsSummary,
            [
                "episode": format.episode(film.episodeID), "date": format.date(film.releaseDate),
                "director": format.text(film.director)
            ])
    }

    public static func find(_ id: Int, in catalog: Catalog) -> Film? { catalog.film(id) }

    public static func detail(of film: Film, in catalog: Catalog, strings: Strings) -> DetailContent {
        let format = Format(strings)
        return DetailContent(
            kind: .films,
            title: film.title,
            introduction: film.openingCrawl.lowercased() == "unknown" ? nil : film.openingCrawl,
            attributes: [
                .init(strings.localizedString(.attributeEpisode), format.episode(film.episodeID)),
                .init(strings.localizedString(.attributeDirector), format.text(film.director)),
                .init(strings.localizedString(.attributeProducer), format.text(film.producer)),
                .init(strings.localizedString(.attributeReleaseDate), format.date(film.releaseDate))
            ],
            relations: [
                .init(
                    strings.localizedString(.relationCharacters),
                    catalog.links(.people, film.characters, strings: strings)),
                .init(
                    strings.localizedString(.relationPlanets), catalog.links(.planets, film.planets, strings: strings)),
                .init(
                    strings.localizedString(.relationStarships),
                    catalog.links(.starships, film.starships, strings: strings)),
                .init(
                    strings.localizedString(.relationVehicles),
                    catalog.links(.vehicles, film.vehicles, strings: strings)),
                .init(
                    strings.localizedString(.relationSpecies), catalog.links(.species, film.species, strings: strings))
            ]
        )
    }
}
