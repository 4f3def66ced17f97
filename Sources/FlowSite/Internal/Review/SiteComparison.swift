import FlowSiteUtilities
import Foundation

/// What a change did to a built site, as the command line's `diff` reports it: pages by screen kind, layout, links,
/// the flow (``FlowDiff``) and other files. Reads the builds' records; a page with the same fingerprint on
/// both sides is not read.
package struct SiteComparison: Sendable {
    /// A page, named as a reader knows it.
    package struct PageName: Sendable, Equatable, Codable {
        /// From the site's root (`characters/luke/index.html`).
        package var path: String
        package var title: String
    }

    /// A row, heading or list item whose text changed; one side `nil` for an item added or removed.
    package struct TextChange: Sendable, Hashable, Codable {
        var section: String?
        package var before: String?
        package var after: String?
    }

    /// A page whose content changed.
    package struct ChangedPage: Sendable, Equatable, Codable {
        package var page: PageName
        package var changes: [TextChange]
        /// The breadcrumb trail before and after, when only the trail changed.
        package var trail: TextChange?
    }

    /// A link from one page's content to another page.
    package struct Link: Sendable, Equatable, Codable {
        package var from: PageName
        package var to: String
        /// The target's title, in the site that has the link (the first links of each list only: what reports show).
        package var toTitle: String?
    }

    /// What changed among the pages of one screen kind.
    package struct KindPages: Sendable, Equatable, Codable {
        package var id: String
        package var name: String
        /// The old name, when the kind was renamed.
        package var renamedFrom: String?
        var pagesBefore: Int
        var pagesAfter: Int
        package var added: [PageName] = []
        package var removed: [PageName] = []
        package var changed: [ChangedPage] = []

        package var isEmpty: Bool {
            added.isEmpty && removed.isEmpty && changed.isEmpty && pagesBefore == pagesAfter && renamedFrom == nil
        }
    }

    /// One change (same words, item, trail change, or pages of one kind added or removed) and every page with it.
    package struct ChangeGroup: Sendable, Equatable, Codable {
        package enum What: String, Sendable, Codable {
            case text, trail = "trail changed", pageAdded = "page added", pageRemoved = "page removed"
        }
        /// A page of the group, with its own row for a change in text.
        package struct Example: Sendable, Equatable, Codable {
            package var page: PageName
            package var kind: String
            package var change: TextChange?
        }
        package var what: What
        /// The words removed and added; `nil` on a missing side.
        package var before, after: String?
        /// One page of each kind first, then the others.
        package var pages: [Example]

        var kinds: Int { Set(pages.map(\.kind)).count }
    }

    /// Pages whose content is the same and whose bytes are not: the layout changed.
    package struct LayoutChange: Sendable, Equatable, Codable {
        package var pages: Int
        /// The first such page.
        package var example: PageName
        package var changes: [TextChange]
    }

    /// Files that are not pages.
    package struct Files: Sendable, Equatable, Codable {
        package var added: [String] = []
        package var removed: [String] = []
        package var changed: [String] = []
        /// Flow map pages added, removed or changed: the flow section says why.
        var flowMap = 0

        package var isEmpty: Bool { added.isEmpty && removed.isEmpty && changed.isEmpty && flowMap == 0 }
    }

    /// In the new flow's order, then kinds only the old site has; unchanged kinds are kept for the counts.
    package var kinds: [KindPages] = []
    package var layout: LayoutChange?
    var linksAdded: [Link] = []
    var linksRemoved: [Link] = []
    package var flow: FlowDiff
    /// For ``FlowDiffDrawing``; `nil` unless both sites recorded their flow.
    var flows: (old: FlowRecord, new: FlowRecord)?
    var hasFlow: Bool { flows != nil }
    package var files = Files()
    /// Reported first; empty unless a site recorded journeys.
    package var journeyChanges = JourneyChanges()

    package var isEqual: Bool {
        kinds.allSatisfy(\.isEmpty) && layout == nil && linksAdded.isEmpty && linksRemoved.isEmpty && flow.isEmpty
            && files.isEmpty && journeyChanges.isEmpty
    }

    var pagesAdded: Int { kinds.reduce(0) { $0 + $1.added.count } }
    var pagesRemoved: Int { kinds.reduce(0) { $0 + $1.removed.count } }
    var pagesChanged: Int { kinds.reduce(0) { $0 + $1.changed.count } }

    /// Compares two folders made by a FlowSite build.
    /// - Throws: ``FlowSiteError`` naming a folder that is missing or not a built site.
    package init(old: URL, new: URL) throws {
        try self.init(BuiltSite(at: old), BuiltSite(at: new))
    }

    private init(_ old: BuiltSite, _ new: BuiltSite) throws {
        if let before = old.flow, let after = new.flow { flows = (before, after) }
        // A kind is renamed only if its pages are the same files on both sides.
        let none = FlowRecord(kinds: [], transitions: [], findings: [])
        var routes: (old: [String: Set<String>], new: [String: Set<String>])?
        flow = FlowDiff(old: old.flow ?? none, new: new.flow ?? none) { was, now in
            routes = routes ?? (old.paths(), new.paths())
            return routes?.old[was] == routes?.new[now]
        }
        let renamed = Dictionary(
            flow.renames.map { ($0.idBefore, $0.idAfter) }, uniquingKeysWith: { first, _ in first })

        let (was, now) = (old.manifest.files, new.manifest.files)
        let added = now.keys.filter { was[$0] == nil && !BuiltSite.isRecord($0) }.sorted()
        let removed = was.keys.filter { now[$0] == nil && !BuiltSite.isRecord($0) }.sorted()
        let suspects = now.filter { path, entry in
            !BuiltSite.isRecord(path)
                && was[path].map { $0.fingerprint != entry.fingerprint || $0.size != entry.size } == true
        }.keys.sorted()

        // A fingerprint covers the program and templates too: compare bytes to tell a change from a rebuild.
        let differs = try Self.inParallel(suspects) { try old.bytes($0) != new.bytes($0) }
        let differing = suspects.indices.filter { differs[$0] }.map { suspects[$0] }

        var kindOrder: [String] = []
        var kindPages: [String: KindPages] = [:]
        func noteKind(_ id: String) {
            if kindPages[id] == nil {
                kindOrder.append(id)
                kindPages[id] = KindPages(id: id, name: flow.name(id), pagesBefore: 0, pagesAfter: 0)
            }
        }
        func newID(_ id: String) -> String { renamed[id] ?? id }
        for kind in new.flow?.kinds ?? [] { noteKind(kind.id) }
        for kind in old.flow?.kinds ?? [] { noteKind(newID(kind.id)) }
        for (_, entry) in new.pages {
            noteKind(entry.kind)
            kindPages[entry.kind]!.pagesAfter += 1
        }
        for (_, entry) in old.pages {
            noteKind(newID(entry.kind))
            kindPages[newID(entry.kind)]!.pagesBefore += 1
        }
        for rename in flow.renames { kindPages[rename.idAfter]?.renamedFrom = rename.nameBefore }

        let addedPages = added.filter { new.pages[$0] != nil }
        let removedPages = removed.filter { old.pages[$0] != nil }
        let changedPages = differing.filter { new.pages[$0] != nil && old.pages[$0] != nil }
        func sameContent(_ path: String) -> Bool {
            old.index != nil && new.index != nil && old.pages[path]?.content == new.pages[path]?.content
        }
        let layoutOnly = changedPages.filter(sameContent)
        let contentChanged = changedPages.filter { !sameContent($0) }
        files.added = added.filter { new.pages[$0] == nil }
        files.removed = removed.filter { old.pages[$0] == nil }
        files.changed = differing.filter { new.pages[$0] == nil || old.pages[$0] == nil }
        // Flow map pages change with the flow, which the report shows as such.
        for list in [\Files.added, \.removed, \.changed] {
            files.flowMap += files[keyPath: list].count { $0.hasPrefix("flow/") }
            files[keyPath: list].removeAll { $0.hasPrefix("flow/") }
        }

        var texts = try Self.read(
            addedPages.map { (new, $0) } + removedPages.map { (old, $0) }
                + contentChanged.flatMap { [(old, $0), (new, $0)] }
        ).makeIterator()
        func next() -> PageText { texts.next()! }
        for path in addedPages {
            let text = next()
            let name = PageName(path: path, title: text.title)
            kindPages[new.pages[path]!.kind]!.added.append(name)
            linksAdded += text.links.map { Link(from: name, to: $0) }
        }
        for path in removedPages {
            let text = next()
            let name = PageName(path: path, title: text.title)
            kindPages[newID(old.pages[path]!.kind)]!.removed.append(name)
            linksRemoved += text.links.map { Link(from: name, to: $0) }
        }
        for path in contentChanged {
            let (before, after) = (next(), next())
            let name = PageName(path: path, title: after.title)
            let changes = Self.changes(from: before.items, to: after.items, titles: (before.title, after.title))
            var page = ChangedPage(page: name, changes: changes)
            // The same text under another trail (a page above renamed or moved).
            if page.changes.isEmpty, before.trail != after.trail {
                func steps(_ trail: [String]) -> String? { trail.isEmpty ? nil : trail.joined(separator: " › ") }
                page.trail = TextChange(before: steps(before.trail), after: steps(after.trail))
            }
            kindPages[new.pages[path]!.kind]!.changed.append(page)
            let (had, has) = (Set(before.links), Set(after.links))
            linksAdded += after.links.filter { !had.contains($0) }.map { Link(from: name, to: $0) }
            linksRemoved += before.links.filter { !has.contains($0) }.map { Link(from: name, to: $0) }
        }
        if let first = layoutOnly.first {
            let pair = try Self.read([(old, first), (new, first)])
            let changes = Self.changes(from: pair[0].chrome, to: pair[1].chrome)
            layout = LayoutChange(
                pages: layoutOnly.count, example: PageName(path: first, title: pair[1].title), changes: changes)
        }
        kinds = kindOrder.map { kindPages[$0]! }
        let oldJourneys = old.flow?.journeys ?? []
        let newJourneys = new.flow?.journeys ?? []
        if !oldJourneys.isEmpty || !newJourneys.isEmpty {
            let changed = Dictionary(
                kinds.flatMap(\.changed).map { ($0.page.path, $0) }, uniquingKeysWith: { first, _ in first })
            journeyChanges = Self.journeys(old: oldJourneys, new: newJourneys, changed: changed)
        }
        // Links are named by their targets' titles too ("About → Coding Journal", not "About → /"), read from the
        // site that has them, for as many as a report shows.
        let shown = 200
        let titled = try Self.inParallel(
            linksAdded.prefix(shown).map { (new, $0.to) } + linksRemoved.prefix(shown).map { (old, $0.to) }
        ) { site, path in (try? site.bytes(path)).map { PageText(html: $0, path: path).title } }
        for index in linksAdded.indices.prefix(shown) { linksAdded[index].toTitle = titled[index] }
        let cut = min(shown, linksAdded.count)
        for index in linksRemoved.indices.prefix(shown) { linksRemoved[index].toTitle = titled[cut + index] }
    }

    private static func read(_ pages: [(BuiltSite, String)]) throws -> [PageText] {
        try inParallel(pages) { site, path in PageText(html: try site.bytes(path), path: path) }
    }

    /// `transform` of each item on every core, in order; throws the first error.
    static func inParallel<Item: Sendable, Result: Sendable>(
        _ items: [Item], _ transform: @Sendable (Item) throws -> Result
    ) throws -> [Result] {
        let results = Locked<[Result?]>(Array(repeating: nil, count: items.count))
        let failure = Locked<(any Error)?>(nil)
        let lanes = max(1, min(items.count, ProcessInfo.processInfo.activeProcessorCount))
        DispatchQueue.concurrentPerform(iterations: lanes) { lane in
            for index in stride(from: lane, to: items.count, by: lanes) {
                do {
                    let result = try transform(items[index])
                    results.withLock { $0[index] = result }
                } catch {
                    failure.withLock { $0 = $0 ?? error }
                }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return results.withLock { $0 }.map { $0! }
    }

    /// Items removed and added, in the new page's order; a relabelled row, an edited text or a new title pairs
    /// with its old version as one change.
    static func changes(
        from before: [PageText.Item], to after: [PageText.Item], titles: (String, String)? = nil
    ) -> [TextChange] {
        let difference = after.difference(from: before)
        // A difference lists its removals last item first: read in the old page's order.
        var removals: [(offset: Int, item: PageText.Item)] = []
        var insertions: [PageText.Item] = []
        for change in difference {
            switch change {
            case .remove(let offset, let item, _): removals.append((offset, item))
            case .insert(_, let item, _): insertions.append(item)
            }
        }
        let removed = removals.sorted { $0.offset < $1.offset }.map(\.item)
        var changes: [TextChange] = []
        var paired = Set<Int>()
        for item in insertions {
            let candidates = removed.indices.filter { !paired.contains($0) && removed[$0].section == item.section }
            let sameLabel = item.label.flatMap { label in candidates.first { removed[$0].label == label } }
            // A heading (no section) that is the new title takes the old one: the page renamed.
            let retitled = titles.flatMap { old, new in
                item.section == nil && item.text == new ? candidates.first { removed[$0].text == old } : nil
            }
            let edited = { candidates.first { Self.similar(removed[$0].text, item.text) } }
            if let match = sameLabel ?? retitled ?? edited() {
                paired.insert(match)
                changes.append(TextChange(section: item.section, before: removed[match].text, after: item.text))
            } else {
                changes.append(TextChange(section: item.section, before: nil, after: item.text))
            }
        }
        for (index, item) in removed.enumerated() where !paired.contains(index) {
            changes.append(TextChange(section: item.section, before: item.text, after: nil))
        }
        return changes
    }
}

extension SiteComparison {
    /// Whether two texts are one edited: at least half the longer one's words kept at its start and end.
    static func similar(_ a: String, _ b: String) -> Bool {
        let (x, y) = (words(a), words(b))
        let (prefix, suffix) = affixes(x, y)
        return Double(prefix + suffix) >= Double(max(x.count, y.count)) / 2
    }

    static func affixes(_ x: [Substring], _ y: [Substring]) -> (prefix: Int, suffix: Int) {
        var prefix = 0
        while prefix < min(x.count, y.count), x[prefix] == y[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(x.count, y.count) - prefix, x[x.count - 1 - suffix] == y[y.count - 1 - suffix] {
            suffix += 1
        }
        return (prefix, suffix)
    }

    static func words(_ text: String) -> [Substring] { text.split(separator: " ") }

    /// Shared first words, each side's middle, shared last words; a shared word stays in the middle when a side
    /// would be empty: "Tatooine → Tatooine Prime".
    static func parts(_ before: String, _ after: String) -> (head: String, was: String, now: String, tail: String) {
        let (x, y) = (words(before), words(after))
        var (prefix, suffix) = affixes(x, y)
        if prefix + suffix == min(x.count, y.count) {
            if prefix > 0 { prefix -= 1 } else if suffix > 0 { suffix -= 1 }
        }
        let (was, now) = (x[prefix..<(x.count - suffix)], y[prefix..<(y.count - suffix)])
        return (
            x[..<prefix].joined(separator: " "), was.joined(separator: " "), now.joined(separator: " "),
            x[(x.count - suffix)...].joined(separator: " ")
        )
    }

    /// A change's signature: the changed words (``parts(_:_:)``), or an added or removed item's text.
    static func changedWords(_ change: TextChange) -> TextChange {
        guard let before = change.before, let after = change.after else {
            return TextChange(before: change.before, after: change.after)
        }
        let parts = parts(before, after)
        return TextChange(before: parts.was, after: parts.now)
    }

    /// "Height: [172 → 180] cm".
    static func inline(_ before: String, _ after: String) -> String {
        let parts = parts(before, after)
        return [parts.head, "[\(parts.was) → \(parts.now)]", parts.tail].filter { !$0.isEmpty }.joined(separator: " ")
    }
}
