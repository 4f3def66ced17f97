import Foundation

/// What checking an app's ``DeepLinks`` against every route of a walk found, by route index.
struct DeepLinkCheck: Sendable {
    var roundTrips: [Bool] = []
    /// Routes no link opens, of kinds whose other pages a link opens (a kind no link opens is not deep-linkable).
    var unlinkable: [Int] = []
    /// Routes whose link reads back as another route, or as none.
    var mismatches: [(route: Int, url: String, parsed: String)] = []
    /// Unknown links that open a screen other than the not-found one.
    var unknownOpened: [(url: String, parsed: String)] = []

    /// `skipping` marks second pages of a route (dialog copies); each kind's first link makes an unknown one.
    init<R: Route>(
        _ deepLinks: DeepLinks<R>, routes: [R], skipping: (Int) -> Bool = { _ in false }, kindOf: (Int) -> Int32
    ) {
        roundTrips.reserveCapacity(routes.count)
        var unknown = deepLinks.unknownLinks
        var kindsSeen = Set<Int32>()
        var missing: [Int] = []
        for (index, route) in routes.enumerated() {
            guard !skipping(index) else {
                roundTrips.append(false)
                continue
            }
            guard let url = deepLinks.link(route) else {
                missing.append(index)
                roundTrips.append(false)
                continue
            }
            let parsed = deepLinks.route(url)
            roundTrips.append(parsed == route)
            if parsed != route {
                mismatches.append((index, url.absoluteString, parsed.map { "\($0)" } ?? "nothing"))
            }
            if kindsSeen.insert(kindOf(index)).inserted {
                unknown.append(url.appendingPathComponent(DeepLinks<R>.unknownSegment))
            }
        }
        unlinkable = missing.filter { kindsSeen.contains(kindOf($0)) }
        for url in unknown {
            guard let parsed = deepLinks.route(url), parsed != deepLinks.notFound else { continue }
            unknownOpened.append((url.absoluteString, "\(parsed)"))
        }
    }
}
