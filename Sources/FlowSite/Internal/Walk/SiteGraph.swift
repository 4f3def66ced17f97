import FlowSiteUtilities
import Foundation

/// What the walk found: every route, every edge, and the screens that failed.
package struct SiteGraph<R: Route>: Sendable {
    var table = RouteTable<R>()
    /// In discovery order, when the walker keeps them.
    var edges: [Edge<R>] = []
    var edgeCount = 0
    /// Which of ``edges`` are tab selections: taken once, from the start page, though every page but a dialog
    /// has the tab bar.
    var tabEdges: [Int] = []
    /// The page each of ``edges`` leads to, by discovery index: a tab root's dialog copy where a link opens that.
    var edgeTargets: [Int32] = []
    /// The pages' links out of the site (``MarkdownDocument/Inline/externalLink(_:url:)``), which are never walked.
    var externalLinkCount = 0
    /// Screens that could not be built; the build fails when there are any.
    var failures: [ScreenFailure<R>] = []
    /// Screens that failed but were replaced by the app's error screen.
    var recovered: [ScreenFailure<R>] = []
    var flow = FlowRecorder()
    var deepLinks: DeepLinkCheck?
    /// The app's journeys taken over this walk.
    var journeys = JourneyCheck()
    /// What each route's page read, by its place in ``routes`` (when the walker records inputs).
    package var inputs: [[InputKey]] = []

    /// Every reachable route in breadth-first discovery order.
    package var routes: [R] { table.routes }

    /// Every route once, in discovery order: without the dialog copies of tab roots.
    var distinctRoutes: [R] {
        table.routes.indices.filter { !table.isDialogCopy($0) }.map { table.routes[$0] }
    }

    var records: [R: RouteRecord<R>] {
        var records: [R: RouteRecord<R>] = [:]
        for index in table.routes.indices where !table.isDialogCopy(index) {
            records[table.routes[index]] = RouteRecord(
                stack: table.stack(of: index).map { table.routes[$0] },
                presentation: table.presentation(of: index),
                presenter: table.presenter(of: index).map { table.routes[$0] }
            )
        }
        return records
    }

    var titles: [R: String] {
        var titles: [R: String] = [:]
        for index in table.routes.indices where !table.isDialogCopy(index) {
            titles[table.routes[index]] = table.fullTitle(index)
        }
        return titles
    }

    /// The navigation stack of `route` on its first, shortest path.
    package func stack(of route: R) -> [R]? {
        table.index(of: route).map { table.stack(of: $0).map { table.routes[$0] } }
    }

    /// Throws when screens failed that the app has no error screen for.
    /// - Throws: ``FlowSiteError`` listing each failed route, its path and its error.
    package func requireNoFailures() throws {
        guard failures.isEmpty else {
            throw FlowSiteError(.screensFailed(failures.map { ($0.route.shownPathAndName, $0.error) }))
        }
    }
}

/// The walk's routes, by index: parent, first presentation, presenter and title. A stack is followed through
/// parents; only one that isn't its parent's plus the route is kept whole.
struct RouteTable<R: Route>: Sendable {
    /// In discovery order.
    private(set) var routes: [R] = []
    /// Set once the page is made: the breadcrumb's title.
    var titles: [String?] = []
    /// The full titles of pages whose breadcrumb shows a short one, for the page graph and the flow's examples.
    var fullTitles: [Int32: String] = [:]

    /// The page's full title once it is made.
    func fullTitle(_ index: Int) -> String? {
        fullTitles.isEmpty ? titles[index] : fullTitles[Int32(index)] ?? titles[index]
    }

    /// By the route's hash: four bytes a route, not a dictionary entry holding a copy.
    private var indexes = IndexTable()
    private var parents: [Int32] = []
    private var presentations: [Presentation] = []
    private var presenters: [Int32: Int32] = [:]
    private var stacks: [Int32: [Int32]] = [:]
    /// Tab roots' dialog copies: an app has a few at most.
    private var dialogCopies: [R: Int32] = [:]
    /// By path hash, to find two routes with one path without keeping every path.
    private var owners = IndexTable()

    var count: Int { routes.count }

    /// The index of `route`'s own page, not its dialog copy.
    func index(of route: R) -> Int? {
        indexes.find(hash: route.hashValue) { routes[$0] == route }
    }

    func dialogCopyIndex(of route: R) -> Int? { dialogCopies[route].map(Int.init) }

    /// The page at `path`: a route's own page or a dialog copy.
    func index(ofPath path: RoutePath) -> Int? {
        owners.find(hash: Self.hash(of: path)) { self.path(of: $0) == path }
    }

    private static func hash(of path: RoutePath) -> Int {
        var key = Hasher()
        for slug in path.slugs { key.combine(slug) }
        return key.finalize()
    }

    func isDialogCopy(_ index: Int) -> Bool {
        !dialogCopies.isEmpty && dialogCopies[routes[index]] == Int32(index)
    }

    func path(of index: Int) -> RoutePath {
        routes[index].pagePath(dialogCopy: isDialogCopy(index))
    }

    func parent(of index: Int) -> Int? {
        let parent = parents[index]
        return parent < 0 ? nil : Int(parent)
    }

    func presentation(of index: Int) -> Presentation { presentations[index] }

    func presenter(of index: Int) -> Int? { presenters[Int32(index)].map(Int.init) }

    /// `index`'s navigation stack, `index` last.
    func stack(of index: Int) -> [Int] {
        var reversed = [index]
        var current = index
        while true {
            if let whole = stacks[Int32(current)] {
                return whole.map(Int.init) + reversed.dropFirst().reversed()
            }
            guard let parent = parent(of: current) else { break }
            reversed.append(parent)
            current = parent
        }
        return reversed.reversed()
    }

    mutating func setStack(_ stack: [Int], of index: Int) {
        stacks[Int32(index)] = stack.map { Int32($0) }
    }

    func trailIsTitled(_ index: Int) -> Bool {
        if let presenter = presenter(of: index), titles[presenter] == nil { return false }
        return stack(of: index).dropLast().allSatisfy { titles[$0] != nil }
    }

    /// Adds a route and returns its index. A tab root also shown as a dialog has a second page, its dialog copy.
    /// - Throws: ``FlowSiteError`` when another route has its path, or the path is reserved.
    @discardableResult
    mutating func discover(
        _ route: R, parent: Int?, presentation: Presentation, presenter: Int?, asDialogCopy: Bool = false
    ) throws -> Int {
        let path = route.pagePath(dialogCopy: asDialogCopy)
        if let first = path.slugs.first, first.rawValue == SiteLayout.assetsFolder || first == SiteLayout.flowMapFolder
        {
            throw FlowSiteError(.reservedPath(path: path.description, route: route.shownName))
        }
        let pathHash = Self.hash(of: path)
        let index = routes.count
        if path.slugs.isEmpty, index > 0, !asDialogCopy {
            // The front page is the start route's, or the page that leads to it.
            throw FlowSiteError(
                .rootTaken(
                    route: route.shownName, startRoute: routes[0].shownName, startPath: self.path(of: 0).description))
        }
        if let owner = owners.find(hash: pathHash, where: { self.path(of: $0) == path }) {
            throw FlowSiteError(
                .pathConflict(path: path.description, first: routes[owner].shownName, second: route.shownName))
        }
        owners.insert(index, hash: pathHash)
        if asDialogCopy {
            dialogCopies[route] = Int32(index)
        } else {
            indexes.insert(index, hash: route.hashValue)
        }
        routes.appendGrowingByQuarters(route)
        titles.appendGrowingByQuarters(nil)
        parents.appendGrowingByQuarters(parent.map { Int32($0) } ?? -1)
        presentations.appendGrowingByQuarters(presentation)
        if let presenter { presenters[Int32(index)] = Int32(presenter) }
        return index
    }
}

/// Indexes into the caller's array by hash, open addressing: two 32-bit words a slot, no copy of the elements.
struct IndexTable: Sendable {
    private var slots: [Int32] = []
    /// The low 32 bits of each slot's hash, to skip most non-matching elements unseen.
    private var hashes: [UInt32] = []
    private(set) var count = 0

    func find(hash: Int, where matches: (Int) -> Bool) -> Int? {
        guard !slots.isEmpty else { return nil }
        let mask = slots.count - 1
        let short = UInt32(truncatingIfNeeded: hash)
        var slot = hash & mask
        while slots[slot] >= 0 {
            let index = Int(slots[slot])
            if hashes[slot] == short && matches(index) { return index }
            slot = (slot + 1) & mask
        }
        return nil
    }

    mutating func insert(_ index: Int, hash: Int) {
        // At most three quarters full.
        if (count + 1) * 4 > slots.count * 3 { grow() }
        put(Int32(index), hash: hash)
        count += 1
    }

    private mutating func put(_ index: Int32, hash: Int) {
        let mask = slots.count - 1
        var slot = hash & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = index
        hashes[slot] = UInt32(truncatingIfNeeded: hash)
    }

    private mutating func grow() {
        let old = zip(slots, hashes).filter { $0.0 >= 0 }
        let capacity = max(64, slots.count * 2)
        slots = Array(repeating: -1, count: capacity)
        hashes = Array(repeating: 0, count: capacity)
        // Only the low bits place a slot, and those are the bits kept.
        for (index, hash) in old { put(index, hash: Int(hash)) }
    }
}

/// How a route was first reached.
struct RouteRecord<R: Route>: Sendable, Hashable {
    /// On the shortest path from the start route, the route itself last.
    let stack: [R]
    let presentation: Presentation
    /// For a modal.
    let presenter: R?
}

struct Edge<R: Route>: Sendable, Hashable {
    let from: R
    let to: R
    let label: String
    let presentation: Presentation
}

struct ScreenFailure<R: Route>: Sendable {
    let route: R
    let error: String
}
