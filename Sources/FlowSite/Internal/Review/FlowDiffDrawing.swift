import FlowMapLayout
import FlowSiteUtilities

/// The part of the flow a change touches, drawn as the flow map draws it: changed kinds and transitions,
/// with the changed kinds' neighbours for context.
///
/// Old kinds sit where the old site's map drew them (or `dot`'s layout of the old flow), spread by the least
/// factor (``spread``) that keeps widened boxes clear. A new kind goes beside its nearest drawn kind in `dot`'s
/// layout, moved until clear. Graphviz then routes the arrows in place, so a reviewer compares shapes.
/// Each mark is a class (``FlowMapSVG/Change``) and words in the box, label and tooltip.
struct FlowDiffDrawing {
    let nodes: [FlowMapSVG.Node]
    let edges: [FlowMapSVG.Edge]
    let layout: LayoutResult
    /// Each box's kind by its new id, in the order of ``nodes``.
    let kinds: [String]
    /// How far the old map's centres were spread; 1 when every kept kind is exactly where the old map drew it.
    let spread: Double

    var svg: String { FlowMapSVG.draw(layout, nodes: nodes, edges: edges) }

    /// A kind of either flow, under its new id.
    private struct Kind {
        var id: String
        var name: String
        var oldName: String?
        var pagesBefore: Int?
        var pagesAfter: Int?
        /// Its place in the old flow's kinds: its box's place on the old map.
        var oldIndex: Int?
        var renamed = false

        var change: FlowMapSVG.Change? {
            if pagesBefore == nil { return .added }
            if pagesAfter == nil { return .removed }
            if renamed { return .renamed }
            return pagesBefore == pagesAfter ? nil : .changed
        }
    }

    private struct Pair: Hashable { var from, to: String }

    /// `nil` when no kind or transition changed. `oldMap` is the old site's map page; `link` gives each box its URL.
    init?(old: FlowRecord, new: FlowRecord, diff: FlowDiff, link: (String) -> String) throws {
        let renamed = Dictionary(
            diff.renames.map { ($0.idBefore, $0.idAfter) }, uniquingKeysWith: { first, _ in first })
        func newID(_ id: String) -> String { renamed[id] ?? id }

        // The new flow's kinds in order, then the kinds that are gone.
        var all: [Kind] = []
        var place: [String: Int] = [:]
        for kind in new.kinds where place[kind.id] == nil {
            place[kind.id] = all.count
            all.append(Kind(id: kind.id, name: kind.name, pagesAfter: kind.pages))
        }
        for (index, kind) in old.kinds.enumerated() {
            let id = newID(kind.id)
            if let known = place[id] {
                all[known].pagesBefore = kind.pages
                all[known].oldIndex = index
                all[known].renamed = renamed[kind.id] != nil || kind.name != all[known].name
                if kind.name != all[known].name { all[known].oldName = kind.name }
            } else {
                place[id] = all.count
                all.append(Kind(id: id, name: kind.name, pagesBefore: kind.pages, oldIndex: index))
            }
        }

        // Pairs of kinds with transitions on either side.
        var pairs: [Pair] = []
        var sides: [Pair: (before: [FlowRecord.Transition], after: [FlowRecord.Transition])] = [:]
        for (transition, isNew) in new.transitions.map({ ($0, true) }) + old.transitions.map({ ($0, false) }) {
            let pair =
                isNew
                ? Pair(from: transition.from, to: transition.to)
                : Pair(from: newID(transition.from), to: newID(transition.to))
            guard place[pair.from] != nil, place[pair.to] != nil else { continue }
            if sides[pair] == nil { pairs.append(pair) }
            if isNew {
                sides[pair, default: ([], [])].after.append(transition)
            } else {
                sides[pair, default: ([], [])].before.append(transition)
            }
        }
        let changes = Dictionary(
            diff.transitions.map { (Pair(from: $0.from, to: $0.to), $0) }, uniquingKeysWith: { first, _ in first })

        // Touched: changed, or at an end of a changed transition; drawn: those and the changed ones' neighbours.
        let changed = Set(all.filter { $0.change != nil }.map(\.id))
        var touched = changed
        for pair in pairs where changes[pair] != nil { touched.formUnion([pair.from, pair.to]) }
        guard !touched.isEmpty else { return nil }
        var drawn = touched
        for pair in pairs where changed.contains(pair.from) || changed.contains(pair.to) {
            drawn.formUnion([pair.from, pair.to])
        }
        let kinds = all.filter { drawn.contains($0.id) }
        let index = Dictionary(uniqueKeysWithValues: kinds.enumerated().map { ($1.id, $0) })

        let boxes = kinds.map { Self.node($0, touched: touched.contains($0.id), url: link($0.id)) }
        // Not every arrow of a kind that is only at the end of a changed transition.
        let arrows = pairs.compactMap { pair -> FlowMapSVG.Edge? in
            let shown =
                changes[pair] != nil || changed.contains(pair.from) || changed.contains(pair.to)
                || touched.contains(pair.from) && touched.contains(pair.to)
            guard shown, let from = index[pair.from], let to = index[pair.to], let side = sides[pair] else {
                return nil
            }
            return Self.edge(from: from, to: to, side, change: changes[pair], names: (kinds[from].name, kinds[to].name))
        }

        let oldBoxes = try Self.oldBoxes(old)
        let draft = try FlowMapSVG.layout(nodes: boxes, edges: arrows)
        var neighbours = Array(repeating: Set<Int>(), count: kinds.count)
        for arrow in arrows {
            neighbours[arrow.from].insert(arrow.to)
            neighbours[arrow.to].insert(arrow.from)
        }
        let old = kinds.map { kind in kind.oldIndex.map { LayoutResult.Point(x: oldBoxes[$0].x, y: oldBoxes[$0].y) } }
        let factor = Self.spread(old, draft.nodes, gap: Self.gap / 2)
        let given = old.map {
            $0.map { LayoutResult.Point(x: Self.rounded($0.x * factor), y: Self.rounded($0.y * factor)) }
        }
        let centres = Self.place(given, draft: draft, neighbours: neighbours)
        layout = try GraphvizLayout.route(FlowMapSVG.graph(nodes: boxes, edges: arrows), at: centres)
        spread = factor
        nodes = boxes
        edges = arrows
        self.kinds = kinds.map(\.id)
    }

    // MARK: Boxes and arrows

    private static func node(_ kind: Kind, touched: Bool, url: String) -> FlowMapSVG.Node {
        let name = plain(kind.name)
        let pages = pageCount(kind.pagesAfter ?? kind.pagesBefore ?? 0)
        var node = FlowMapSVG.Node(
            name: name, detail: pages, url: url, role: touched ? .member : .context, change: kind.change)
        switch kind.change {
        case .added:
            node.detail = "+ added · " + pages
            node.source = "Added: \(name), \(pages)"
        case .removed:
            node.detail = "− removed · " + pages
            node.source = "Removed: \(name), had \(pages)"
        case .renamed:
            node.name = kind.oldName.map { plain($0) + " → " + name } ?? name
            node.detail = "renamed · " + pages
            node.source = "Renamed: \(node.name), \(pages)"
        case .changed:
            node.detail = "~ \(count(kind.pagesBefore ?? 0)) → " + pages
            node.source = "Page count changed: \(name), \(count(kind.pagesBefore ?? 0)) → \(pages)"
        case nil:
            node.source = "Unchanged: \(name), \(pages)"
        }
        return node
    }

    /// One arrow per pair of kinds, styled by the presentation with the most links.
    private static func edge(
        from: Int, to: Int, _ side: (before: [FlowRecord.Transition], after: [FlowRecord.Transition]),
        change: FlowDiff.TransitionChange?, names: (String, String)
    ) -> FlowMapSVG.Edge {
        let shown = side.after.isEmpty ? side.before : side.after
        let main = shown.max { ($0.links, $1.presentation) < ($1.links, $0.presentation) }
        let links = shown.reduce(0) { $0 + $1.links }
        var edge = FlowMapSVG.Edge(
            from: from, to: to, presentation: main.flatMap { Presentation(rawValue: $0.presentation) } ?? .push,
            links: links)
        let pair = plain(names.0) + " → " + plain(names.1)
        let presented = Set(shown.map(\.presentation)).sorted().joined(separator: ", ")
        guard let change else {
            edge.faded = true
            edge.title = "Unchanged: \(pair), \(presented), \(linkCount(links))"
            return edge
        }
        if change.isAdded {
            (edge.change, edge.label) = (.added, "+ " + count(links))
            edge.title = "Added: \(pair), \(presented), \(linkCount(links))"
        } else if change.isRemoved {
            (edge.change, edge.label) = (.removed, "− " + count(links))
            edge.title = "Cut: \(pair), \(presented), had \(linkCount(links))"
        } else if change.presentationChanged {
            let was = change.before.joined(separator: ", ")
            let now = change.after.joined(separator: ", ")
            (edge.change, edge.label) = (.changed, "\(was) → \(now)")
            edge.title = "Presented another way: \(pair), \(was) → \(now), \(linkCount(links))"
        } else {
            (edge.change, edge.label) = (.changed, "\(count(change.linksBefore)) → \(count(change.linksAfter))")
            edge.title = "Links changed: \(pair), \(count(change.linksBefore)) → \(linkCount(change.linksAfter))"
        }
        return edge
    }

    // MARK: Places

    /// Each old kind's box where the old site's map drew it (its flow record keeps them); else `dot`'s layout.
    private static func oldBoxes(_ old: FlowRecord) throws -> [LayoutResult.Box] {
        let drawn = old.kinds.compactMap(\.box)
        if drawn.count == old.kinds.count {
            return drawn.map { LayoutResult.Box(x: $0.x, y: $0.y, width: $0.width, height: $0.height) }
        }
        let index = Dictionary(old.kinds.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let nodes = old.kinds.map {
            FlowMapSVG.Node(name: $0.name, detail: pageCount($0.pages), url: "", role: .member)
        }
        let edges = old.transitions.compactMap { transition in
            index[transition.from].flatMap { from in
                index[transition.to].map { to in
                    FlowMapSVG.Edge(
                        from: from, to: to, presentation: Presentation(rawValue: transition.presentation) ?? .push,
                        links: transition.links)
                }
            }
        }
        return try FlowMapSVG.layout(nodes: nodes, edges: edges).nodes
    }

    /// Points between a new kind's box and any other.
    static let gap = 16.0

    /// Keeps each given centre; places a missing one at its `draft` offset from the nearest placed box (neighbours
    /// first), stepping down, up or right until `gap` clear. `draft`'s boxes give the sizes.
    static func place(
        _ given: [LayoutResult.Point?], draft: LayoutResult, neighbours: [Set<Int>]
    ) -> [LayoutResult.Point] {
        var centres = given
        let sizes = draft.nodes
        for index in centres.indices where centres[index] == nil {
            let placed = centres.indices.filter { centres[$0] != nil }
            let near = placed.filter { neighbours[index].contains($0) }
            func distance(_ other: Int) -> Double {
                let (dx, dy) = (sizes[index].x - sizes[other].x, sizes[index].y - sizes[other].y)
                return (dx * dx + dy * dy).squareRoot()
            }
            guard let anchor = (near.isEmpty ? placed : near).min(by: { (distance($0), $0) < (distance($1), $1) })
            else {
                centres[index] = LayoutResult.Point(x: sizes[index].x, y: sizes[index].y)
                continue
            }
            let base = LayoutResult.Point(
                x: rounded(centres[anchor]!.x + sizes[index].x - sizes[anchor].x),
                y: rounded(centres[anchor]!.y + sizes[index].y - sizes[anchor].y)
            )
            let step = (x: rounded(sizes[index].width / 2 + gap), y: rounded(sizes[index].height + gap))
            centres[index] = base
            // Far enough right nothing is placed, so the search ends.
            search: for steps in 0..<10_000 {
                for (dx, dy) in steps == 0 ? [(0.0, 0.0)] : [(0.0, 1.0), (0.0, -1.0), (1.0, 0.0)] {
                    let spot = LayoutResult.Point(
                        x: base.x + dx * Double(steps) * step.x, y: base.y + dy * Double(steps) * step.y)
                    centres[index] = spot
                    if !overlap(centres, sizes, gap: gap, only: index) { break search }
                }
            }
        }
        return centres.map { $0! }
    }

    /// The least factor (≥ 1, in hundredths) that, spreading the centres from the map's corner, keeps every two
    /// boxes `gap` apart.
    static func spread(_ centres: [LayoutResult.Point?], _ sizes: [LayoutResult.Box], gap: Double) -> Double {
        var factor = 1.0
        for first in centres.indices {
            guard let a = centres[first] else { continue }
            for second in centres.indices where second > first {
                guard let b = centres[second] else { continue }
                let (across, down) = (abs(a.x - b.x), abs(a.y - b.y))
                let room = (
                    x: (sizes[first].width + sizes[second].width) / 2 + gap,
                    y: (sizes[first].height + sizes[second].height) / 2 + gap
                )
                guard across < room.x, down < room.y, across > 0 || down > 0 else { continue }
                factor = max(
                    factor, min(across > 0 ? room.x / across : .infinity, down > 0 ? room.y / down : .infinity))
            }
        }
        // Up to the next hundredth, not past it when 1.6 × 100 is 160.00…03.
        return (factor * 100 - 1e-9).rounded(.up) / 100
    }

    /// Whether two placed boxes come closer than `gap` (only pairs with `only`, if given).
    static func overlap(
        _ centres: [LayoutResult.Point?], _ sizes: [LayoutResult.Box], gap: Double, only: Int? = nil
    ) -> Bool {
        for first in centres.indices where only == nil || first == only {
            guard let a = centres[first] else { continue }
            for second in centres.indices where second != first {
                guard let b = centres[second] else { continue }
                if abs(a.x - b.x) * 2 < sizes[first].width + sizes[second].width + 2 * gap,
                    abs(a.y - b.y) * 2 < sizes[first].height + sizes[second].height + 2 * gap
                {
                    return true
                }
            }
        }
        return false
    }

    // MARK: Words

    /// Text-reordering controls shown as U+FFFD: a kind's name can't turn the arrows and words around it.
    static func plain(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { $0.reordersText ? "\u{FFFD}" : $0 }))
    }

    private static func count(_ value: Int) -> String { FlowMapSVG.count(value) }
    private static func pageCount(_ value: Int) -> String {
        Wording.english("countPages", count: value, ["count": count(value)])
    }
    private static func linkCount(_ value: Int) -> String {
        Wording.english("countLinks", count: value, ["count": count(value)])
    }
    private static func rounded(_ value: Double) -> Double { (value * 10).rounded() / 10 + 0 }
}
