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
    /// Each route's page on its shortest path from the start route (-1 for the start route and
    /// while no link has reached it), and the presentation of that link.
    private(set) var cameFrom: [Int32] = []
    private(set) var cameAs: [Presentation] = []
    /// Per route: bit 0, some link leads to it; bit 1, some link from a page that is not a
    /// dialog leads to it.
    private(set) var reached: [UInt8] = []
    /// Each kind's first page's source location.
    private(set) var kindLocations: [CodeLocation?] = []
    /// Transitions by their number (see ``transitionKey(from:to:presentation:)``).
    private(set) var transitions: [UInt64: Transition] = [:]
    /// Pages with no way out of their own (not dialogs, not meant to end), in walk order.
    private(set) var deadEnds: [Int32] = []
    /// Pages that show their empty state, in walk order.
    private(set) var emptyStates: [Int32] = []
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
        /// Links of this transition that are tab selections.
        var tabs = 0
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
            cameFrom.append(-1)
            cameAs.append(.root)
            reached.append(0)
        }
    }

    /// The page at `route` was made at `location`, with `ownLinks` links of its own (not the
    /// site-wide navigation) and its `ending`; `isDialog` when it was presented as a modal.
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

    /// A link from `source` to `target`, shown with `presentation` by the code at `location`.
    /// A tab selection (`isTab`) is recorded from the start page, whose turn follows the tabs.
    mutating func link(
        from source: Int, to target: Int, presentation: Presentation, location: CodeLocation?, sourceIsDialog: Bool,
        isTab: Bool = false
    ) {
        if depth[target] < 0 && depth[source] >= 0 {
            depth[target] = depth[source] + 1
            cameFrom[target] = Int32(source)
            cameAs[target] = presentation
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

    /// The transition that starts the long chain of clicks to `route`: on its shortest path from
    /// the start page, the first link of the longest run of links of one transition (the nearest
    /// to `route` of runs as long). A page of a list's fifth page is deep because of the
    /// pagination, not because of the link from the list to it.
    func chainStart(to route: Int) -> (key: UInt64, links: Int)? {
        var keys: [UInt64] = []
        var at = route
        while cameFrom[at] >= 0 {
            let from = Int(cameFrom[at])
            keys.append(Self.transitionKey(from: kindOfRoute[from], to: kindOfRoute[at], presentation: cameAs[at]))
            at = from
        }
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

    /// A link on `route`'s page whose route no coordinator showed.
    mutating func unhandledLink(on route: Int, label: String, target: String, shown: [String]) {
        unhandled.append((Int32(route), label, target, shown))
    }

    /// A transition's number: its kinds and presentation in one word, so a link costs no
    /// hashing of text.
    static func transitionKey(from: Int32, to: Int32, presentation: Presentation) -> UInt64 {
        UInt64(UInt32(from)) << 34 | UInt64(UInt32(to)) << 2
            | UInt64(Presentation.allCases.firstIndex(of: presentation)!)
    }

    /// The parts of a transition's number.
    static func parts(of key: UInt64) -> (from: Int, to: Int, presentation: Presentation) {
        (Int(key >> 34), Int(key >> 2 & 0xFFFF_FFFF), Presentation.allCases[Int(key & 3)])
    }
}

/// The link texts of one page that flow lint reports: links without text, and one text that
/// leads to different pages (a screen reader's list of links can't tell them apart).
struct LinkLabelProblems: Sendable, Equatable {
    /// How many links have no text (or only spaces).
    var emptyCount = 0
    /// The path of the first such link's page.
    var firstEmpty: RoutePath?
    /// How many links share their text with an earlier link to another page.
    var ambiguousCount = 0
    /// The first such text, and the paths of the two pages it leads to.
    var firstAmbiguous: Ambiguous?

    struct Ambiguous: Sendable, Equatable {
        let label: String
        let first: RoutePath
        let second: RoutePath
    }

    var hasProblems: Bool { emptyCount > 0 || ambiguousCount > 0 }
}

extension MarkdownDocument {
    /// Checks the text of every route link; `extra` are more links after the document's own
    /// (pagination), with offsets after ``routes``.
    ///
    /// Every page of a build runs it, over every link (a film's thousands of characters), so the
    /// texts are read where they are by code that isn't generic (``LinkTexts``), and routes are
    /// compared only for the rare text that comes twice.
    func linkLabelProblems(extra: [NavigationAction<R>] = []) -> LinkLabelProblems {
        // A closure, not `\.label`: a key path into a generic type is made at run time, on
        // every call.
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
    /// The link lists' texts where they are, and the other links' texts, by first offset.
    private var lists: [LinkList] = []
    private let extra: [String]
    private let blocks: [MarkdownBlock]
    /// Offsets of links with blank text.
    private(set) var empty: [Int] = []
    /// Pairs of offsets whose links have the same text: the first link with it, and a later one.
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

    /// The text of the link at `offset`.
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
        // One table of plain structs, on the stack when it is small: every page makes one, and
        // arrays of tuples cost a run-time metadata lookup each.
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

    /// Gathers every link's text in route order: a link list's as it is, other links' from
    /// their inlines, one list per run of them.
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

/// The link texts of one page seen so far, by a 64-bit FNV-1a hash of their bytes: open
/// addressing over a page's own slots, so a page of ten thousand links makes no dictionary of
/// Strings and copies no text; two texts are compared only when their hashes meet.
private struct LabelTable {
    /// A link whose text is in the table: the hash of its text, and the list and index it is at.
    struct Slot {
        var hash: UInt64
        var list: Int32
        var index: Int32

        static let vacant = Slot(hash: 0, list: -1, index: 0)
    }

    /// A power of two of them, at least twice the links.
    let slots: UnsafeMutableBufferPointer<Slot>

    /// The offset of the first link with the text of `lists[list].labels[index]`, or `nil` after
    /// recording that link as the first.
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
        func fnv<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            return hash
        }
        return label.utf8.withContiguousStorageIfAvailable { fnv($0) } ?? fnv(label.utf8)
    }
}

extension LinkLabelProblems {
    /// Whether a link text is empty or only white space, without walking graphemes for the
    /// common case of a text that starts with a visible ASCII character.
    static func isBlank(_ label: String) -> Bool {
        guard let first = label.utf8.first else { return true }
        if first > 0x20 && first < 0x7F { return false }
        return label.allSatisfy(\.isWhitespace)
    }
}
