/// What the walk learns about the app's flow: each route's screen kind and click depth, the transitions
/// between kinds, and the pages flow lint asks about. Fed on the walk's serial path, so a link costs a few
/// array operations: kinds are interned to numbers, and a transition's key packs its kinds and presentation.
struct FlowRecorder: Sendable {
    /// In the order the walk first met a page of each.
    private(set) var kinds: [ScreenKind] = []
    private var kindNumbers: [String: Int32] = [:]
    private(set) var kindOfRoute: [Int32] = []
    /// Click depth from the start route; -1 while no link has reached the route.
    private(set) var depth: [Int32] = []
    /// The previous page on each route's shortest path (-1 for the start and unreached routes), and that link's
    /// presentation.
    private(set) var cameFrom: [Int32] = []
    private(set) var cameAs: [Presentation] = []
    /// Bit 0: some link leads to the route; bit 1: some link from a page that is not a dialog does; bit 2: the
    /// link on its shortest path is a tab selection.
    private(set) var reached: [UInt8] = []
    /// Each kind's first page's source location.
    private(set) var kindLocations: [CodeLocation?] = []
    /// By ``transitionKey(from:to:presentation:)``.
    private(set) var transitions: [UInt64: Transition] = [:]
    /// Pages with no way out (not dialogs, not meant to end), in walk order.
    private(set) var deadEnds: [Int32] = []
    private(set) var emptyStates: [Int32] = []
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
        /// Links followed from a page that is itself a dialog.
        var fromDialogs = 0
        var tabs = 0
        var dialogExample: (from: Int32, to: Int32)?
    }

    private var lastKey: UInt64 = .max

    /// Gives every route discovered since the last call its kind.
    mutating func assignKinds<R: Route>(to routes: [R]) {
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
            cameFrom.append(-1)
            cameAs.append(.root)
            reached.append(0)
        }
    }

    /// Records the page at `route`; `ownLinks` excludes the site-wide navigation.
    mutating func page<R>(
        _ route: Int, location: CodeLocation?, ownLinks: Int, ending: Page<R>.Ending?, isDialog: Bool,
        labels: LinkLabelProblems?
    ) {
        let kind = Int(kindOfRoute[route])
        if kindLocations[kind] == nil { kindLocations[kind] = location }
        if ending == .emptyState { emptyStates.append(Int32(route)) }
        // A dialog always has its Close link back to the page under it.
        if ownLinks == 0 && !isDialog && ending == nil { deadEnds.append(Int32(route)) }
        if let labels, labels.hasProblems { labelProblems.append((Int32(route), labels)) }
    }

    /// Records a link. A tab selection (`isTab`) is recorded from the start page, whose turn follows the tabs.
    mutating func link(
        from source: Int, to target: Int, presentation: Presentation, location: CodeLocation?, sourceIsDialog: Bool,
        isTab: Bool = false
    ) {
        if depth[target] < 0 && depth[source] >= 0 {
            depth[target] = depth[source] + 1
            cameFrom[target] = Int32(source)
            cameAs[target] = presentation
            if isTab { reached[target] |= 4 }
        }
        reached[target] |= sourceIsDialog ? 1 : 3
        let key = Self.transitionKey(from: kindOfRoute[source], to: kindOfRoute[target], presentation: presentation)
        if key == lastKey, !sourceIsDialog, !isTab {
            // Most links of a page go to pages of one kind: a film's characters.
            transitions[key]!.links += 1
            return
        }
        lastKey = key
        transitions[key, default: Transition(location: location, example: (Int32(source), Int32(target)))].links += 1
        if isTab { transitions[key]!.tabs += 1 }
        if sourceIsDialog {
            transitions[key]!.fromDialogs += 1
            if transitions[key]!.dialogExample == nil {
                transitions[key]!.dialogExample = (Int32(source), Int32(target))
            }
        }
    }

    /// On `route`'s shortest path, the first link of the longest run of one transition (the nearest to `route`
    /// on a tie): a page of a list's fifth page is deep because of the pagination, not the link to it.
    func chainStart(to route: Int) -> (key: UInt64, links: Int)? {
        let keys = steps(to: route)
        // From the page back to the start: a run's first link is the last one seen.
        var best: (key: UInt64, links: Int)?
        var index = 0
        while index < keys.count {
            var end = index
            while end + 1 < keys.count && keys[end + 1] == keys[index] { end += 1 }
            if end - index + 1 > best?.links ?? 0 { best = (keys[index], end - index + 1) }
            index = end + 1
        }
        return best
    }

    /// The transition of the `click`-th click (from 1) on the way from the start page to `route`'s page.
    func step(to route: Int, click: Int) -> UInt64? {
        let keys = steps(to: route)
        guard click >= 1, click <= keys.count else { return nil }
        return keys[keys.count - click]
    }

    /// The pages of the shortest way from the start page to `route`'s, the start first, each with how it was
    /// reached; `nil` when no link reaches it from the start.
    func wayIn(to route: Int) -> [(page: Int, presentation: Presentation, tab: Bool)]? {
        var way: [(page: Int, presentation: Presentation, tab: Bool)] = []
        var at = route
        while cameFrom[at] >= 0 {
            way.append((at, cameAs[at], reached[at] & 4 != 0))
            at = Int(cameFrom[at])
        }
        guard at == 0 else { return nil }
        way.append((0, .root, false))
        return way.reversed()
    }

    /// The transitions of the way from the start page to `route`'s page, from the page back to the start.
    private func steps(to route: Int) -> [UInt64] {
        var keys: [UInt64] = []
        var at = route
        while cameFrom[at] >= 0 {
            let from = Int(cameFrom[at])
            keys.append(Self.transitionKey(from: kindOfRoute[from], to: kindOfRoute[at], presentation: cameAs[at]))
            at = from
        }
        return keys
    }

    mutating func unhandledLink(on route: Int, label: String, target: String, shown: [String]) {
        unhandled.append((Int32(route), label, target, shown))
    }

    /// A transition's kinds and presentation in one word, so a link costs no hashing of text.
    static func transitionKey(from: Int32, to: Int32, presentation: Presentation) -> UInt64 {
        UInt64(UInt32(from)) << 35 | UInt64(UInt32(to)) << 3
            | UInt64(Presentation.allCases.firstIndex(of: presentation)!)
    }

    static func parts(of key: UInt64) -> (from: Int, to: Int, presentation: Presentation) {
        (Int(key >> 35), Int(key >> 3 & 0xFFFF_FFFF), Presentation.allCases[Int(key & 7)])
    }
}

/// Links without text, and one text that leads to different pages (a screen reader can't tell them apart).
struct LinkLabelProblems: Sendable, Equatable {
    /// Links with no text (or only spaces).
    var emptyCount = 0
    /// The first such link's target.
    var firstEmpty: RoutePath?
    /// Links that share their text with an earlier link to another page.
    var ambiguousCount = 0
    var firstAmbiguous: Ambiguous?

    struct Ambiguous: Sendable, Equatable {
        let label: String
        let first: RoutePath
        let second: RoutePath
    }

    var hasProblems: Bool { emptyCount > 0 || ambiguousCount > 0 }
}

extension MarkdownDocument {
    /// Checks the text of every route link; `extra` (pagination) have offsets after ``routes``.
    /// Runs over every link of every page: texts are read in place by non-generic code, routes compared only on
    /// a repeat.
    func linkLabelProblems(extra: [NavigationAction<R>] = []) -> LinkLabelProblems {
        // Not `\.label`: a key path into a generic type is made at run time on every call.
        var texts = LinkTexts(blocks: blocks, extra: extra.map { $0.label })
        texts.scan()
        var problems = LinkLabelProblems()
        func target(at offset: Int) -> R { offset < routes.count ? routes[offset] : extra[offset - routes.count].route }
        problems.emptyCount = texts.empty.count
        problems.firstEmpty = texts.empty.first.map { target(at: $0).path }
        for pair in texts.repeats where target(at: pair.first) != target(at: pair.second) {
            let (first, second) = (pair.first, pair.second)
            problems.ambiguousCount += 1
            if problems.firstAmbiguous == nil {
                problems.firstAmbiguous = .init(
                    label: texts.label(at: second), first: target(at: first).path, second: target(at: second).path)
            }
        }
        return problems
    }
}

/// The link texts of a document in route order, and which are blank or repeat an earlier one.
struct LinkTexts {
    /// By first offset.
    private var lists: [LinkList] = []
    private let extra: [String]
    private let blocks: [MarkdownBlock]
    /// Offsets of links with blank text.
    private(set) var empty: [Int] = []
    /// The first link with a text, and a later one.
    private(set) var repeats: [Repeat] = []

    struct Repeat {
        let first: Int
        let second: Int
    }

    fileprivate struct LinkList {
        let first: Int
        let labels: [String]
    }

    init(blocks: [MarkdownBlock], extra: [String]) {
        self.blocks = blocks
        self.extra = extra
    }

    func label(at offset: Int) -> String {
        for list in lists.reversed() where list.first <= offset {
            if offset < list.first + list.labels.count { return list.labels[offset - list.first] }
            break
        }
        return extra[offset - (lists.last.map { $0.first + $0.labels.count } ?? 0)]
    }

    mutating func scan() {
        var offset = 0
        collect(blocks, offset: &offset)
        if !extra.isEmpty { lists.append(LinkList(first: offset, labels: extra)) }
        var total = 0
        for list in lists { total += list.labels.count }
        guard total > 0 else { return }
        var size = 16
        while size < total * 2 { size <<= 1 }
        // Plain structs, on the stack when small: every page makes one; tuple arrays cost a metadata lookup each.
        withUnsafeTemporaryAllocation(of: LabelTable.Slot.self, capacity: size) { slots in
            slots.initialize(repeating: .vacant)
            var seen = LabelTable(slots: slots)
            for listIndex in lists.indices {
                let list = lists[listIndex]
                for index in list.labels.indices {
                    let label = list.labels[index]
                    let offset = list.first + index
                    if LinkLabelProblems.isBlank(label) {
                        empty.append(offset)
                    } else if let first = seen.firstOffset(of: label, list: listIndex, index: index, in: lists) {
                        repeats.append(Repeat(first: first, second: offset))
                    }
                }
            }
        }
    }

    /// Gathers every link's text in route order: link lists as they are, other links from their inlines.
    private mutating func collect(_ blocks: [MarkdownBlock], offset: inout Int) {
        for block in blocks {
            switch block {
            case .linkList(let labels, let first):
                lists.append(LinkList(first: first, labels: labels))
                offset = first + labels.count
            case .section(_, let inner):
                collect(inner, offset: &offset)
            default:
                var labels: [String] = []
                MarkdownBlock.collectLinkLabels([block], into: &labels)
                guard !labels.isEmpty else { continue }
                lists.append(LinkList(first: offset, labels: labels))
                offset += labels.count
            }
        }
    }
}

/// Link texts seen so far, by their 64-bit `StableHash`, open addressing: no dictionary of Strings, no text copied;
/// texts are compared only when their hashes meet.
private struct LabelTable {
    struct Slot {
        var hash: UInt64
        var list: Int32
        var index: Int32

        static let vacant = Slot(hash: 0, list: -1, index: 0)
    }

    /// A power of two, at least twice the links.
    let slots: UnsafeMutableBufferPointer<Slot>

    /// The offset of the first link with this text, or `nil` after recording this one as the first.
    mutating func firstOffset(of label: String, list: Int, index: Int, in lists: [LinkTexts.LinkList]) -> Int? {
        let hash = Self.hash(label)
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot].list >= 0 {
            let seen = slots[slot]
            if seen.hash == hash {
                let other = lists[Int(seen.list)]
                if other.labels[Int(seen.index)] == label { return other.first + Int(seen.index) }
            }
            slot = (slot + 1) & mask
        }
        slots[slot] = Slot(hash: hash, list: Int32(list), index: Int32(index))
        return nil
    }

    private static func hash(_ label: String) -> UInt64 {
        var hash = StableHash()
        hash.combine(label)
        return hash.low
    }
}

extension LinkLabelProblems {
    /// Whether a text is empty or white space; a visible ASCII first byte skips walking graphemes.
    static func isBlank(_ label: String) -> Bool {
        guard let first = label.utf8.first else { return true }
        if first > 0x20 && first < 0x7F { return false }
        return label.allSatisfy(\.isWhitespace)
    }
}
