extension SiteComparison {
    /// One group per signature, fewer pages first: a change on one page is never behind a ripple. A rename on
    /// many pages is one group, and trail-only changes are grouped by how the trail changed.
    package var groups: [ChangeGroup] {
        var groups: [ChangeGroup] = []
        var bySignature: [Signature: Int] = [:]
        func add(_ what: ChangeGroup.What, _ change: TextChange, on page: PageName, of kind: String) {
            let words = Self.changedWords(change)
            let index = bySignature[Signature(what: what, words: words), default: groups.count]
            if index == groups.count {
                bySignature[Signature(what: what, words: words)] = index
                groups.append(ChangeGroup(what: what, before: words.before, after: words.after, pages: []))
            }
            if groups[index].pages.last?.page != page {
                groups[index].pages.append(.init(page: page, kind: kind, change: change))
            }
        }
        for kind in kinds {
            for (what, pages) in [(ChangeGroup.What.pageAdded, kind.added), (.pageRemoved, kind.removed)]
            where !pages.isEmpty {
                groups.append(ChangeGroup(what: what, pages: pages.map { .init(page: $0, kind: kind.id) }))
            }
            for changed in kind.changed {
                for change in changed.changes { add(.text, change, on: changed.page, of: kind.id) }
                if let trail = changed.trail { add(.trail, trail, on: changed.page, of: kind.id) }
            }
        }
        groups = Self.pairingRenames(groups)
        for index in groups.indices {
            let pages = groups[index].pages
            var seen: [String: Int] = [:]
            let rank = pages.map { example -> Int in
                seen[example.kind, default: 0] += 1
                return seen[example.kind]!
            }
            groups[index].pages = pages.indices.sorted { (rank[$0], $0) < (rank[$1], $1) }.map { pages[$0] }
        }
        return groups.indices.sorted { (groups[$0].pages.count, $0) < (groups[$1].pages.count, $1) }.map { groups[$0] }
    }

    private struct Signature: Hashable {
        let what: ChangeGroup.What
        let words: TextChange
    }

    /// A text removed and another added on the same pages (same section) become one "old → new" change: on two
    /// or more pages, or on one when the same words changed elsewhere (a page retitled, and the link to it on the
    /// one page that lists it). Only pairs nothing else on exactly those pages competes with, in removal order:
    /// deterministic.
    static func pairingRenames(_ groups: [ChangeGroup]) -> [ChangeGroup] {
        func pages(_ group: ChangeGroup) -> [String] { group.pages.map(\.page.path).sorted() }
        var removals: [[String]: [Int]] = [:]
        var additions: [[String]: [Int]] = [:]
        for (index, group) in groups.enumerated() where group.what == .text {
            if group.after == nil { removals[pages(group), default: []].append(index) }
            if group.before == nil { additions[pages(group), default: []].append(index) }
        }
        var groups = groups
        var joined = Set<Int>()
        for removal in removals.values.filter({ $0.count == 1 }).map({ $0[0] }).sorted() {
            let old = groups[removal]
            guard let candidates = additions[pages(old)], candidates.count == 1 else { continue }
            let new = groups[candidates[0]]
            let sections = Dictionary(
                old.pages.map { ($0.page.path, $0.change?.section) }, uniquingKeysWith: { first, _ in first })
            guard new.pages.allSatisfy({ sections[$0.page.path] == $0.change?.section }) else { continue }
            let renamed = new.pages.map { example in
                ChangeGroup.Example(
                    page: example.page, kind: example.kind,
                    change: TextChange(
                        section: example.change?.section, before: old.before, after: new.after
                    ))
            }
            let words = changedWords(TextChange(before: old.before, after: new.after))
            let same = groups.indices.first {
                !joined.contains($0) && $0 != removal && $0 != candidates[0] && groups[$0].what == .text
                    && groups[$0].before == words.before && groups[$0].after == words.after
            }
            guard same != nil || old.pages.count > 1 else { continue }
            joined.insert(candidates[0])
            if let same {
                let named = Set(groups[same].pages.map(\.page.path))
                groups[same].pages += renamed.filter { !named.contains($0.page.path) }
                joined.insert(removal)
            } else {
                groups[removal] = ChangeGroup(what: .text, before: old.before, after: new.after, pages: renamed)
            }
        }
        return groups.indices.filter { !joined.contains($0) }.map { groups[$0] }
    }
}
