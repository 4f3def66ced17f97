/// What changed between two flows: screen kinds, transitions, and flow lint findings.
package struct FlowDiff: Sendable, Equatable, Encodable {
    /// A kind in one flow and not the other, or in both with another page count.
    package struct KindChange: Sendable, Equatable, Codable {
        package var id: String
        package var name: String
        /// `nil` when the kind is new.
        var pagesBefore: Int?
        /// `nil` when the kind is gone.
        var pagesAfter: Int?
    }

    /// The same pages and transitions under another name or id.
    package struct KindRename: Sendable, Equatable, Codable {
        package var idBefore, idAfter, nameBefore, nameAfter: String
    }

    /// A pair of kinds whose transitions changed.
    package struct TransitionChange: Sendable, Equatable, Codable {
        package var from: String
        package var to: String
        /// Presentations, sorted; empty on the side that lacks the pair.
        package var before: [String]
        package var after: [String]
        /// All presentations together.
        var linksBefore: Int
        var linksAfter: Int

        var isAdded: Bool { before.isEmpty }
        var isRemoved: Bool { after.isEmpty }
        var presentationChanged: Bool { !before.isEmpty && !after.isEmpty && before != after }
    }

    package var kinds: [KindChange] = []
    package var renames: [KindRename] = []
    package var transitions: [TransitionChange] = []
    var newFindings: [FlowRecord.Finding] = []
    var goneFindings: [FlowRecord.Finding] = []
    /// Findings of one rule and kind on both sides whose message changed.
    var changedFindings: [FindingChange] = []

    package struct FindingChange: Sendable, Equatable, Codable {
        package var before: FlowRecord.Finding
        package var after: FlowRecord.Finding
    }
    /// Kind names by id, from both flows, the new one's first.
    package var names: [String: String] = [:]

    private enum CodingKeys: CodingKey { case kinds, renames, transitions, newFindings, goneFindings, changedFindings }

    package var isEmpty: Bool {
        kinds.isEmpty && renames.isEmpty && transitions.isEmpty && newFindings.isEmpty && goneFindings.isEmpty
            && changedFindings.isEmpty
    }

    /// A kind gone from `old` counts as renamed to a new kind with as many pages, the same transitions and, as
    /// `sameRoutes` says (a flow alone can't), the same routes.
    package init(
        old: FlowRecord, new: FlowRecord, sameRoutes: (_ old: String, _ new: String) -> Bool = { _, _ in false }
    ) {
        for kind in old.kinds + new.kinds { names[kind.id] = kind.name }
        let renamed = Self.renamed(old: old, new: new, sameRoutes: sameRoutes)
        let rename = { (id: String) in renamed[id] ?? id }
        let after = Dictionary(new.kinds.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for kind in old.kinds {
            if let name = after[rename(kind.id)]?.name, rename(kind.id) != kind.id || name != kind.name {
                renames.append(
                    KindRename(idBefore: kind.id, idAfter: rename(kind.id), nameBefore: kind.name, nameAfter: name))
            }
        }
        // From here on the old flow speaks of renamed kinds by their new ids.
        var old = old
        for i in old.kinds.indices { old.kinds[i].id = rename(old.kinds[i].id) }
        for i in old.transitions.indices {
            (old.transitions[i].from, old.transitions[i].to) = (
                rename(old.transitions[i].from), rename(old.transitions[i].to)
            )
        }
        for i in old.findings.indices { old.findings[i].kind = old.findings[i].kind.map(rename) }
        let before = Dictionary(old.kinds.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for kind in new.kinds where before[kind.id]?.pages != kind.pages {
            kinds.append(
                KindChange(id: kind.id, name: kind.name, pagesBefore: before[kind.id]?.pages, pagesAfter: kind.pages))
        }
        for kind in old.kinds where after[kind.id] == nil {
            kinds.append(KindChange(id: kind.id, name: kind.name, pagesBefore: kind.pages, pagesAfter: nil))
        }

        struct Pair: Hashable { var from, to: String }
        let was = Dictionary(grouping: old.transitions) { Pair(from: $0.from, to: $0.to) }
        let now = Dictionary(grouping: new.transitions) { Pair(from: $0.from, to: $0.to) }
        func presentations(_ pair: [FlowRecord.Transition]?) -> [String] {
            Set((pair ?? []).map(\.presentation)).sorted()
        }
        func links(_ pair: [FlowRecord.Transition]?) -> Int { (pair ?? []).reduce(0) { $0 + $1.links } }
        var seen: Set<Pair> = []
        for pair in (new.transitions + old.transitions).map({ Pair(from: $0.from, to: $0.to) })
        where seen.insert(pair).inserted {
            let change = TransitionChange(
                from: pair.from, to: pair.to, before: presentations(was[pair]), after: presentations(now[pair]),
                linksBefore: links(was[pair]), linksAfter: links(now[pair])
            )
            if change.before != change.after || change.linksBefore != change.linksAfter { transitions.append(change) }
        }

        let (oldFindings, newSet) = (Set(old.findings), Set(new.findings))
        var gone = old.findings.filter { !newSet.contains($0) }
        for finding in new.findings where !oldFindings.contains(finding) {
            if let match = gone.firstIndex(where: { $0.rule == finding.rule && $0.kind == finding.kind }) {
                changedFindings.append(FindingChange(before: gone.remove(at: match), after: finding))
            } else {
                newFindings.append(finding)
            }
        }
        goneFindings = gone
    }

    /// Old id → new id; transitions compared with every rename applied.
    private static func renamed(
        old: FlowRecord, new: FlowRecord, sameRoutes: (String, String) -> Bool
    ) -> [String: String] {
        let (oldIDs, newIDs) = (Set(old.kinds.map(\.id)), Set(new.kinds.map(\.id)))
        var map: [String: String] = [:]
        for gone in old.kinds where !newIDs.contains(gone.id) {
            map[gone.id] =
                new.kinds.first {
                    !oldIDs.contains($0.id) && !map.values.contains($0.id) && $0.pages == gone.pages
                        && sameRoutes(gone.id, $0.id)
                }?.id
        }
        func edges(_ record: FlowRecord, of id: String, _ rename: (String) -> String) -> [String] {
            record.transitions.filter { rename($0.from) == id || rename($0.to) == id }
                .map { "\(rename($0.from)) \(rename($0.to)) \($0.presentation) \($0.links)" }.sorted()
        }
        while true {
            let wrong = map.filter { edges(old, of: $0.value) { map[$0] ?? $0 } != edges(new, of: $0.value) { $0 } }
            if wrong.isEmpty { return map }
            for id in wrong.keys { map[id] = nil }
        }
    }

    /// The id when neither flow names it.
    package func name(_ id: String) -> String { names[id] ?? id }

    /// Plain lines for a terminal; empty when nothing changed.
    package func lines() -> [String] {
        var lines = renames.map {
            "~ screen kind \($0.nameBefore) (\($0.idBefore)) renamed \($0.nameAfter) (\($0.idAfter))"
        }
        for kind in kinds {
            switch (kind.pagesBefore, kind.pagesAfter) {
            case (nil, let after?):
                lines.append("+ screen kind \(kind.name) (\(kind.id)): " + Wording.english("countPages", count: after))
            case (let before?, nil):
                lines.append(
                    "- screen kind \(kind.name) (\(kind.id)): had " + Wording.english("countPages", count: before))
            case (let before?, let after?):
                lines.append("~ screen kind \(kind.name) (\(kind.id)): \(before) → \(after) pages")
            default: break
            }
        }
        for change in transitions {
            let pair = "\(name(change.from)) → \(name(change.to))"
            if change.isAdded {
                lines.append(
                    "+ transition \(pair) (\(change.after.joined(separator: ", ")), "
                        + Wording.english("countLinks", count: change.linksAfter) + ")")
            } else if change.isRemoved {
                lines.append(
                    "- transition \(pair) (\(change.before.joined(separator: ", ")), had "
                        + Wording.english("countLinks", count: change.linksBefore) + ")")
            } else if change.presentationChanged {
                lines.append(
                    """
                    ~ transition \(pair): presented by \(change.before.joined(separator: ", ")) → \
                    \(change.after.joined(separator: ", "))
                    """
                )
            } else {
                lines.append("~ transition \(pair): \(change.linksBefore) → \(change.linksAfter) links")
            }
        }
        for finding in newFindings { lines.append("+ lint \(finding.rule): \(finding.message)") }
        for finding in goneFindings { lines.append("- lint \(finding.rule): \(finding.message)") }
        for change in changedFindings {
            lines.append("~ lint \(change.after.rule) was: \(change.before.message)")
            lines.append("  lint \(change.after.rule) now: \(change.after.message)")
        }
        return lines
    }
}
