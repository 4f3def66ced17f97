import FlowSite
import FlowSiteUtilities
import Foundation

/// The snapshot-like half of ``FlowCoverageTrait``: checks a test's entry in the suite's file, writing it if allowed.
enum FlowCoverageCheck {
    /// Locks every read-modify-write of a coverage file: a suite's tests share it and end in parallel.
    private static let files = Locked(())
    /// The tests that settled their entry in this run, by file: what `FLOW_COVERAGE_RECORD=prune` keeps.
    private static let ran = Locked<[String: Set<String>]>([:])

    /// Settles `test`'s entry in `file` with `taken`: `nil` when they match (or nothing taken, no entry), else the
    /// failure message, after writing the entry if `recording` allows.
    /// - Throws: ``FlowSiteError`` when the file is there but not a coverage file, or can't be written.
    static func settle(
        _ taken: [FlowCoverageFile.Transition], journey: [FlowCoverageFile.Step] = [], test: String, in file: URL,
        recording: FlowCoverageTrait.Recording
    ) throws -> String? {
        ran.withLock { _ = $0[file.path, default: []].insert(test) }
        return try files.withLock { _ in
            var contents = FlowCoverageFile()
            if FileManager.default.fileExists(atPath: file.path) {
                contents = try FlowCoverageFile(json: try Data(contentsOf: file), source: file.path)
            }
            let committed = contents.tests[test]
            let committedJourney = contents.journeys?[test]
            let journeyMatches = committedJourney == journey || (committedJourney == nil && journey.isEmpty)
            if (committed == taken && journeyMatches) || (committed == nil && taken.isEmpty) { return nil }
            let name = file.lastPathComponent
            func store() {
                contents.tests[test] = taken.isEmpty ? nil : taken
                var journeys = contents.journeys ?? [:]
                journeys[test] = taken.isEmpty || journey.isEmpty ? nil : journey
                contents.journeys = journeys.isEmpty ? nil : journeys
            }
            // A missing entry is recorded; so is the journey of an entry written before journeys were.
            guard let committed, committed != taken || committedJourney != nil else {
                let (what, them) =
                    committed == nil
                    ? ("takes \(transitions(taken.count))", "them") : ("shows \(pages(journey.count))", "its journey")
                guard recording != .never else {
                    return """
                        \(test) \(what) that \(name) has no entry for, and FLOW_COVERAGE_RECORD=never records \
                        nothing. Run the tests without it to record \(them), and commit the file.
                        """
                }
                store()
                try write(contents, to: file)
                return """
                    Recorded what \(test) \(what) into \(file.path). Re-run the test to check against \(them), and \
                    commit the file.
                    """
            }
            let change =
                committed == taken
                ? "it shows \(steps(journey)), where it showed \(steps(committedJourney ?? []))"
                : describe(from: committed, to: taken)
            guard recording == .all || recording == .prune else {
                return """
                    The transitions \(test) takes no longer match \(name): \(change). If the change is meant, \
                    re-run with FLOW_COVERAGE_RECORD=all to record it, and commit the file.
                    """
            }
            store()
            try write(contents, to: file)
            return """
                Re-recorded \(test) in \(file.path): \(change). Re-run without FLOW_COVERAGE_RECORD to check \
                against it, and commit the file.
                """
        }
    }

    /// Removes from `file` the entries of tests that did not settle one in this run (a deleted or renamed test's),
    /// for `FLOW_COVERAGE_RECORD=prune` after a whole suite ran; the message names them, `nil` when none.
    /// - Throws: ``FlowSiteError`` when the file is there but not a coverage file, or can't be written.
    static func prune(_ file: URL) throws -> String? {
        let kept = ran.withLock { $0[file.path] ?? [] }
        return try files.withLock { _ in
            guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            var contents = try FlowCoverageFile(json: try Data(contentsOf: file), source: file.path)
            let gone = contents.tests.keys.filter { !kept.contains($0) }.sorted()
            guard !gone.isEmpty else { return nil }
            for test in gone {
                contents.tests[test] = nil
                contents.journeys?[test] = nil
            }
            try write(contents, to: file)
            return """
                Removed the entries of \(gone.count == 1 ? "1 test" : "\(gone.count) tests") that did not run from \
                \(file.path): \(gone.joined(separator: ", ")). Commit the file.
                """
        }
    }

    /// The message naming each entry of `file` whose transition `flow` no longer has; `nil` for none or no file.
    /// - Throws: ``FlowSiteError`` when the file is there but not a coverage file.
    static func stale(in file: URL, flow: FlowGraph) throws -> String? {
        try files.withLock { _ in
            guard FileManager.default.fileExists(atPath: file.path) else { return nil }
            let stale = try FlowCoverageFile(json: Data(contentsOf: file), source: file.path).stale(in: flow)
            guard !stale.isEmpty else { return nil }
            let named = stale.map { test, transition in
                "\(transition.from) → \(transition.to) (\(transition.presentation)) in \(test)"
            }
            return "\(file.path) names \(transitions(stale.count)) the app's flow no longer has: "
                + named.joined(separator: "; ") + ". The coverage is stale: re-record it (re-run the suite with "
                + "FLOW_COVERAGE_RECORD=all), remove the entries of tests that are gone, and commit the file."
        }
    }

    /// "1 page", "3 pages".
    private static func pages(_ count: Int) -> String { Wording.english("countPages", count: count) }

    /// "/ → /characters/ (root) → /characters/luke/ (push)".
    private static func steps(_ journey: [FlowCoverageFile.Step]) -> String {
        journey.map { step in
            (step.from.map { "(from \($0)) " } ?? "") + step.path + (step.presentation.map { " (\($0))" } ?? "")
        }.joined(separator: " → ")
    }

    /// "1 transition", "2 transitions".
    private static func transitions(_ count: Int) -> String { Wording.english("countTransitions", count: count) }

    /// "now takes a → b (push); no longer takes …".
    static func describe(from old: [FlowCoverageFile.Transition], to new: [FlowCoverageFile.Transition]) -> String {
        func list(_ transitions: [FlowCoverageFile.Transition]) -> String {
            transitions.map { "\($0.from) → \($0.to) (\($0.presentation))" }.joined(separator: ", ")
        }
        let added = new.filter { !old.contains($0) }
        let gone = old.filter { !new.contains($0) }
        var parts: [String] = []
        if !added.isEmpty { parts.append("now takes " + list(added)) }
        if !gone.isEmpty { parts.append("no longer takes " + list(gone)) }
        return parts.joined(separator: "; ")
    }

    /// Writes `contents` to `file` (making its folder), or removes the file when no entry is left.
    private static func write(_ contents: FlowCoverageFile, to file: URL) throws {
        do {
            if contents.tests.isEmpty {
                try FileManager.default.removeItem(at: file)
                return
            }
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.json().utf8).write(to: file, options: .atomic)
        } catch {
            throw FlowSiteError(
                .flowCoverage(path: file.path, message: "it can't be written (\(error.localizedDescription))"))
        }
    }
}
