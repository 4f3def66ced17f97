/// What changed between two flows: screen kinds that appeared or vanished or whose page count
/// changed, transitions added, cut, presented another way or standing for another number of
/// links, and flow lint findings new or gone.
package struct FlowDiff: Sendable, Equatable {
    /// A kind in one flow and not the other, or in both with another page count.
    package struct KindChange: Sendable, Equatable, Codable {
        package var id: String
        package var name: String
        /// `nil` when the kind is new.
        var pagesBefore: Int?
        /// `nil` when the kind is gone.
        var pagesAfter: Int?

        package init(id: String, name: String, pagesBefore: Int?, pagesAfter: Int?) {
            self.id = id
            self.name = name
            self.pagesBefore = pagesBefore
            self.pagesAfter = pagesAfter
        }
    }

    /// A pair of kinds whose transitions changed.
    package struct TransitionChange: Sendable, Equatable, Codable {
        package var from: String
        package var to: String
        /// The presentations before and after, sorted; empty on the side that lacks the pair.
        package var before: [String]
        package var after: [String]
        /// The links the pair stands for, before and after, all presentations together.
        var linksBefore: Int
        var linksAfter: Int

        var isAdded: Bool { before.isEmpty }
        var isRemoved: Bool { after.isEmpty }
        var presentationChanged: Bool { !before.isEmpty && !after.isEmpty && before != after }
    }

    package var kinds: [KindChange] = []
    package var transitions: [TransitionChange] = []
    var newFindings: [FlowRecord.Finding] = []
    var goneFindings: [FlowRecord.Finding] = []
    /// Findings of one rule and kind on both sides whose message changed (their count or
    /// example): before and after.
    var changedFindings: [FindingChange] = []

    package struct FindingChange: Sendable, Equatable, Codable {
        package var before: FlowRecord.Finding
        package var after: FlowRecord.Finding
    }
    /// Kind names by id, from both flows, the new one's first.
    package var names: [String: String] = [:]

    package var isEmpty: Bool { kinds.isEmpty && transitions.isEmpty && newFindings.isEmpty && goneFindings.isEmpty && changedFindings.isEmpty }

    var addedTransitions: [TransitionChange] { transitions.filter(\.isAdded) }
    var removedTransitions: [TransitionChange] { transitions.filter(\.isRemoved) }
    var representedTransitions: [TransitionChange] { transitions.filter(\.presentationChanged) }

    package init(old: FlowRecord, new: FlowRecord) {
        for kind in old.kinds { names[kind.id] = kind.name }
        for kind in new.kinds { names[kind.id] = kind.name }
        let before = Dictionary(old.kinds.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(new.kinds.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        // The new flow's order, then kinds that are gone in the old flow's order.
        for kind in new.kinds where before[kind.id]?.pages != kind.pages {
            kinds.append(KindChange(id: kind.id, name: kind.name, pagesBefore: before[kind.id]?.pages, pagesAfter: kind.pages))
        }
        for kind in old.kinds where after[kind.id] == nil {
            kinds.append(KindChange(id: kind.id, name: kind.name, pagesBefore: kind.pages, pagesAfter: nil))
        }

        struct Pair: Hashable { var from, to: String }
        func grouped(_ transitions: [FlowRecord.Transition]) -> (order: [Pair], presentations: [Pair: [String]], links: [Pair: Int]) {
            var order: [Pair] = []
            var presentations: [Pair: [String]] = [:]
            var links: [Pair: Int] = [:]
            for transition in transitions {
                let pair = Pair(from: transition.from, to: transition.to)
                if presentations[pair] == nil { order.append(pair) }
                presentations[pair, default: []].append(transition.presentation)
                links[pair, default: 0] += transition.links
            }
            return (order, presentations.mapValues { Array(Set($0)).sorted() }, links)
        }
        let was = grouped(old.transitions)
        let now = grouped(new.transitions)
        for pair in now.order + was.order.filter({ now.presentations[$0] == nil }) {
            let change = TransitionChange(
                from: pair.from, to: pair.to, before: was.presentations[pair] ?? [], after: now.presentations[pair] ?? [],
                linksBefore: was.links[pair] ?? 0, linksAfter: now.links[pair] ?? 0
            )
            if change.before != change.after || change.linksBefore != change.linksAfter { transitions.append(change) }
        }

        let oldFindings = Set(old.findings)
        let newSet = Set(new.findings)
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

    /// The kind's name, or its id when neither flow names it.
    package func name(_ id: String) -> String { names[id] ?? id }

    /// The change as plain lines, the way a terminal shows it (empty when nothing changed).
    package func lines() -> [String] {
        var lines: [String] = []
        for kind in kinds {
            switch (kind.pagesBefore, kind.pagesAfter) {
            case (nil, let after?): lines.append("+ screen kind \(kind.name) (\(kind.id)): \(after) page\(after == 1 ? "" : "s")")
            case (let before?, nil): lines.append("- screen kind \(kind.name) (\(kind.id)): had \(before) page\(before == 1 ? "" : "s")")
            case (let before?, let after?): lines.append("~ screen kind \(kind.name) (\(kind.id)): \(before) → \(after) pages")
            default: break
            }
        }
        for change in transitions {
            let pair = "\(name(change.from)) → \(name(change.to))"
            if change.isAdded {
                lines.append("+ transition \(pair) (\(change.after.joined(separator: ", ")), \(change.linksAfter) link\(change.linksAfter == 1 ? "" : "s"))")
            } else if change.isRemoved {
                lines.append("- transition \(pair) (\(change.before.joined(separator: ", ")), had \(change.linksBefore) link\(change.linksBefore == 1 ? "" : "s"))")
            } else if change.presentationChanged {
                lines.append("~ transition \(pair): presented by \(change.before.joined(separator: ", ")) → \(change.after.joined(separator: ", "))")
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
