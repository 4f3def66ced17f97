/// What a change did to the app's journeys, which `diff` reports first: a journey that breaks, gets longer or
/// shorter, or passes pages whose content changed; the unchanged ones are counted.
extension SiteComparison {
    package struct JourneyChange: Sendable, Equatable, Codable {
        package enum What: String, Sendable, Codable {
            /// It held and now breaks (``step``, ``reason``).
            case breaks
            /// It broke and now holds.
            case mended
            /// It holds on both sides over another way with more or fewer taps.
            case longer, shorter
            /// The same number of taps, another way or pages whose content changed.
            case changed
            case added, removed
        }

        package var name: String
        /// `declared` or `test`.
        package var source: String
        package var what: What
        package var tapsBefore: Int?
        package var tapsAfter: Int?
        /// The step it breaks at, from 1.
        package var step: Int?
        /// Why it breaks, in the words of its lint finding.
        package var reason: String?
        /// The pages' titles before and after, when the way changed.
        package var wayBefore: [String]?
        package var wayAfter: [String]?
        /// Its pages whose content changed, in its order, with their rows.
        package var pages: [ChangedPage] = []
    }

    package struct JourneyChanges: Sendable, Equatable, Codable {
        /// Broken first, then longer or shorter, changed, mended, added and removed; each in the new site's order.
        package var changes: [JourneyChange] = []
        /// The journeys both sites take the same way, over pages whose content is the same.
        package var unchanged = 0

        package var isEmpty: Bool { changes.isEmpty }
    }

    /// Compares the journeys of two flow records; `changed` names each page whose content changed by its file path.
    static func journeys(
        old: [JourneyRecord], new: [JourneyRecord], changed: [String: ChangedPage]
    ) -> JourneyChanges {
        func key(_ journey: JourneyRecord) -> [String] { [journey.source, journey.location ?? "", journey.name] }
        let before = Dictionary(old.map { (key($0), $0) }, uniquingKeysWith: { first, _ in first })
        var result = JourneyChanges()
        var found: [JourneyChange] = []
        for journey in new {
            var change = JourneyChange(
                name: journey.name, source: journey.source, what: .changed, tapsBefore: nil, tapsAfter: journey.taps)
            guard let was = before[key(journey)] else {
                change.what = .added
                found.append(change)
                continue
            }
            change.tapsBefore = was.taps
            switch (was.brokenAtStep, journey.brokenAtStep) {
            case (nil, let step?):
                change.what = .breaks
                change.step = step
                change.reason = journey.broken
                found.append(change)
                continue
            case (_?, nil):
                change.what = .mended
                found.append(change)
                continue
            case (_?, _?):
                // Still broken: its finding says so on both sides.
                result.unchanged += 1
                continue
            case (nil, nil):
                break
            }
            if was.pages != journey.pages {
                change.what = was.taps < journey.taps ? .longer : was.taps > journey.taps ? .shorter : .changed
                change.wayBefore = was.titles
                change.wayAfter = journey.titles
            }
            change.pages = journey.pages.compactMap { changed[RoutePath(parsing: $0).file] }
            if change.wayBefore == nil && change.pages.isEmpty {
                result.unchanged += 1
                continue
            }
            found.append(change)
        }
        let now = Set(new.map(key))
        for journey in old where !now.contains(key(journey)) {
            found.append(
                JourneyChange(
                    name: journey.name, source: journey.source, what: .removed, tapsBefore: journey.taps,
                    tapsAfter: nil))
        }
        result.changes = JourneyChange.What.allInOrder.flatMap { what in found.filter { $0.what == what } }
        return result
    }

    /// "journeys 1 breaks, 1 longer, 2 unchanged".
    var journeySummary: String? {
        guard !journeyChanges.isEmpty else { return nil }
        let counts = JourneyChange.What.allInOrder.compactMap { what -> String? in
            let count = journeyChanges.changes.count { $0.what == what }
            return count == 0 ? nil : "\(count) \(what.rawValue)"
        }
        return "journeys " + (counts + ["\(journeyChanges.unchanged) unchanged"]).joined(separator: ", ")
    }

    /// One line of plain text a change: "'Read a film's planets' breaks at step 3: no link …".
    static func line(_ change: JourneyChange) -> String {
        let name = "'\(change.name)'"
        let taps = "\(change.tapsBefore ?? 0) → \(change.tapsAfter ?? 0) taps"
        switch change.what {
        // Its finding names the journey and the step.
        case .breaks: return change.reason ?? "\(name) breaks at step \(change.step ?? 0)"
        case .mended: return "\(name) holds again (\(change.tapsAfter ?? 0) taps)"
        case .added: return "\(name) is new (\(change.tapsAfter ?? 0) taps)"
        case .removed: return "\(name) is gone"
        case .longer, .shorter, .changed:
            var text = name + ": "
            if let was = change.wayBefore, let now = change.wayAfter {
                text +=
                    (change.what == .changed ? "another way, " : "") + taps + " ("
                    + was.joined(separator: " › ") + " → " + now.joined(separator: " › ") + ")"
            } else {
                text += "pages changed on the way"
            }
            return text
        }
    }
}

extension SiteComparison.JourneyChange.What {
    /// The order reports list them in: what a reviewer must act on first.
    static let allInOrder: [Self] = [.breaks, .longer, .shorter, .changed, .mended, .added, .removed]
}
