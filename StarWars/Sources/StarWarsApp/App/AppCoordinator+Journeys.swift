import FlowSite
import SWAPI

extension AppCoordinator {
    /// The paths readers take through the archive, checked on every build. A record's link text is data (a
    /// name the pseudo-locales respell), so those steps name the route; the site's own words come from the
    /// string table, so each language's walk takes them in its own words.
    public var journeys: [Journey<AppRoute>] {
        let luke = AppRoute.resources(.people, .detail(id: 1, slug: "luke-skywalker"))
        let tatooine = AppRoute.resources(.planets, .detail(id: 1, slug: "tatooine"))
        let aNewHope = AppRoute.resources(.films, .detail(id: 1, slug: "a-new-hope"))
        let xWing = AppRoute.resources(.starships, .detail(id: 12, slug: "x-wing"))
        let wedge = AppRoute.resources(.people, .detail(id: 18, slug: "wedge-antilles"))
        return [
            Journey(
                "From the home page to Luke's homeworld", from: .home, steps: [.follow(to: luke), .follow(to: tatooine)]
            ),
            Journey(
                "Find a film through search", from: .home,
                steps: [
                    .follow(strings.localizedString(.homeLinkSearch), title: strings.localizedString(.searchTitle)),
                    .follow(to: aNewHope)
                ]),
            Journey(
                "Read a film's planets", from: .home,
                steps: [.tab(strings.name(of: .films, plural: true)), .follow(to: aNewHope), .follow(to: tatooine)]),
            Journey(
                "Meet a starship's other pilots", from: luke, steps: [.follow(to: xWing), .follow(to: wedge)]),
            Journey(
                "Read about the site, where the story ends", from: .home,
                steps: [
                    .follow(
                        strings.localizedString(.homeLinkAbout), as: .modal,
                        title: strings.localizedString(.aboutTitle),
                        ending: .intended)
                ])
        ]
    }
}
