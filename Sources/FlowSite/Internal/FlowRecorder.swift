/// What the walk learns about the app's flow, kept beside the route table: each route's screen
/// kind and click depth, the transitions between kinds (with how many links each stands for
/// and the code that chose it), and the pages flow lint asks about.
///
/// The walk feeds it in discovery order on its one serial path, so everything here is a few
/// array operations per link: kinds are interned to small numbers when a route is first seen,
/// and a transition is found by a number made of its two kinds and its presentation.
struct FlowRecorder: Sendable {
    /// Every kind, in the order the walk first met a page of it.
    private(set) var kinds: [ScreenKind] = []
    private var kindNumbers: [String: Int32] = [:]
    /// Each route's kind, by route index.
    private(set) var kindOfRoute: [Int32] = []
    /// Each route's click depth from the start route; -1 while no link has reached it (a step
    /// of a root stack that nothing links to yet).
    private(set) var depth: [Int32] = []
    /// Per route: bit 0, some link leads to it; bit 1, some link from a page that is not a
    /// dialog leads to it.
    private(set) var reached: [UInt8] = []
    /// Each kind's first page's source location.
    private(set) var kindLocations: [CodeLocation?] = []
    /// Transitions by their number (see ``transitionKey(from:to:presentation:)``).
    private(set) var transitions: [UInt64: Transition] = [:]
    /// Pages with no way out of their own (not dialogs), in walk order.
    private(set) var deadEnds: [Int32] = []
    /// Pages whose links have empty or ambiguous text.
    private(set) var labelProblems: [(route: Int32, problems: LinkLabelProblems)] = []
    /// Links whose route no coordinator showed, when the walk reports them instead of failing.
    private(set) var unhandled: [(route: Int32, label: String, target: String, shown: [String])] = []

    /// A transition between two kinds with one presentation.
    struct Transition: Sendable {
        var links = 0
        /// The code that chose it, the first time it was followed.
        var location: CodeLocation?
        /// The first link that made it: source and target route indexes.
        var example: (from: Int32, to: Int32)
        /// Links of this transition followed from a page that is itself a dialog.
        var fromDialogs = 0
        var dialogExample: (from: Int32, to: Int32)?
    }

    private var lastKey: UInt64 = .max

    /// Gives every route the table has discovered since the last call its kind.
    mutating func catchUp<R: Route>(with routes: [R]) {
        while kindOfRoute.count < routes.count {
            let kind = routes[kindOfRoute.count].screenKind
            let number: Int32
            if let known = kindNumbers[kind.id] {
                number = known
            } else {
                number = Int32(kinds.count)
                kindNumbers[kind.id] = number
                kinds.append(kind)
                kindLocations.append(nil)
            }
            kindOfRoute.append(number)
            depth.append(kindOfRoute.count == 1 ? 0 : -1)
            reached.append(0)
        }
    }

    /// The page at `route` was made at `location`, with `ownLinks` links of its own (not the
    /// site-wide navigation); `isDialog` when it was presented as a modal.
    mutating func page(_ route: Int, location: CodeLocation?, ownLinks: Int, isDialog: Bool, labels: LinkLabelProblems?) {
        let kind = Int(kindOfRoute[route])
        if kindLocations[kind] == nil { kindLocations[kind] = location }
        // A dialog always has its Close link back to the page under it.
        if ownLinks == 0 && !isDialog { deadEnds.append(Int32(route)) }
        if let labels, labels.hasProblems { labelProblems.append((Int32(route), labels)) }
    }

    /// A link from `source` to `target`, shown with `presentation` by the code at `location`.
    mutating func link(from source: Int, to target: Int, presentation: Presentation, location: CodeLocation?, sourceIsDialog: Bool) {
        if depth[target] < 0 && depth[source] >= 0 { depth[target] = depth[source] + 1 }
        reached[target] |= sourceIsDialog ? 1 : 3
        let key = Self.transitionKey(from: kindOfRoute[source], to: kindOfRoute[target], presentation: presentation)
        if key == lastKey, !sourceIsDialog {
            // Most links of a page go to pages of one kind: a film's characters.
            transitions[key]!.links += 1
            return
        }
        lastKey = key
        transitions[key, default: Transition(location: location, example: (Int32(source), Int32(target)))].links += 1
        if sourceIsDialog {
            transitions[key]!.fromDialogs += 1
            if transitions[key]!.dialogExample == nil { transitions[key]!.dialogExample = (Int32(source), Int32(target)) }
        }
    }

    /// A link on `route`'s page whose route no coordinator showed.
    mutating func unhandledLink(on route: Int, label: String, target: String, shown: [String]) {
        unhandled.append((Int32(route), label, target, shown))
    }

    /// A transition's number: its kinds and presentation in one word, so a link costs no
    /// hashing of text.
    static func transitionKey(from: Int32, to: Int32, presentation: Presentation) -> UInt64 {
        UInt64(UInt32(from)) << 34 | UInt64(UInt32(to)) << 2 | UInt64(Presentation.allCases.firstIndex(of: presentation)!)
    }

    /// The parts of a transition's number.
    static func parts(of key: UInt64) -> (from: Int, to: Int, presentation: Presentation) {
        (Int(key >> 34), Int(key >> 2 & 0xFFFF_FFFF), Presentation.allCases[Int(key & 3)])
    }
}

/// The link texts of one page that flow lint reports: links without text, and one text that
/// leads to different pages (a screen reader's list of links can't tell them apart).
package struct LinkLabelProblems: Sendable {
    /// How many links have no text (or only spaces).
    var emptyCount = 0
    /// The path of the first such link's page.
    var firstEmpty: RoutePath?
    /// How many links share their text with an earlier link to another page.
    var ambiguousCount = 0
    /// The first such text, and the paths of the two pages it leads to.
    var firstAmbiguous: (label: String, first: RoutePath, second: RoutePath)?

    var hasProblems: Bool { emptyCount > 0 || ambiguousCount > 0 }
}

extension MarkdownDocument {
    /// Checks the text of every route link; `extra` are more links after the document's own
    /// (pagination), with offsets after ``routes``.
    package func linkLabelProblems(extra: [NavigationAction<R>] = []) -> LinkLabelProblems {
        var problems = LinkLabelProblems()
        var firstByLabel: [String: Int] = [:]
        var offset = 0
        func target(at offset: Int) -> R { offset < routes.count ? routes[offset] : extra[offset - routes.count].route }
        func check(_ label: String, _ route: R) {
            defer { offset += 1 }
            if label.allSatisfy({ $0.isWhitespace }) {
                problems.emptyCount += 1
                if problems.firstEmpty == nil { problems.firstEmpty = route.path }
                return
            }
            if let first = firstByLabel[label] {
                if target(at: first) != route {
                    problems.ambiguousCount += 1
                    if problems.firstAmbiguous == nil { problems.firstAmbiguous = (label, target(at: first).path, route.path) }
                }
            } else {
                firstByLabel[label] = offset
            }
        }
        var labels: [String] = []
        MarkdownBlock.collectLinkLabels(blocks, into: &labels)
        for (label, route) in zip(labels, routes) { check(label, route) }
        for action in extra { check(action.label, action.route) }
        return problems
    }
}
