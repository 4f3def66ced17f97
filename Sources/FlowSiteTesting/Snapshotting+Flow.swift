import FlowSite
import Foundation
import SnapshotTesting

extension Snapshotting where Value == BuildReport, Format == String {
    /// The app's flow by screen kind as stable text: kinds with page counts, transitions with presentation and link
    /// count, flow lint findings. On a change the failure says how, as the command line's `diff` does.
    ///
    /// ```swift
    /// let report = try await SiteBuilder(coordinator: app).build(into: folder)
    /// assertSnapshot(of: report, as: .flow)
    /// ```
    public static var flow: Snapshotting<BuildReport, String> {
        Snapshotting<String, String>(pathExtension: "flow.json", diffing: .flow).pullback {
            (report: BuildReport) -> String in
            guard let graph = report.flow else {
                return "no flow: the report is of an unchanged site; build with force to record one\n"
            }
            return FlowRecord(graph: graph, lint: report.flowLint).json()
        }
    }
}

extension Snapshotting where Value == FlowGraph, Format == String {
    /// The flow graph alone, without lint findings (see the build report's `.flow`).
    public static var flow: Snapshotting<FlowGraph, String> {
        Snapshotting<String, String>(pathExtension: "flow.json", diffing: .flow).pullback {
            FlowRecord(graph: $0, lint: nil).json()
        }
    }
}

extension Diffing where Value == String {
    /// Describes how two flow records differ; a line diff when either isn't one (an old or hand-edited reference).
    static var flow: Diffing<String> {
        .diff(toData: { Data($0.utf8) }, fromData: { String(decoding: $0, as: UTF8.self) }) { old, new in
            guard old != new else { return nil }
            guard let before = try? FlowRecord(json: Data(old.utf8), source: "reference"),
                let after = try? FlowRecord(json: Data(new.utf8), source: "new")
            else { return Diffing<String>.lines.diffV2(old, new) }
            let lines = FlowDiff(old: before, new: after).lines()
            let message =
                "The flow changed:\n"
                + (lines.isEmpty
                    ? "(the same kinds, transitions and findings; only their text or order)"
                    : lines.joined(separator: "\n"))
            return (message, [.data(Data(message.utf8), name: "flow-difference.txt")])
        }
    }
}

extension Snapshotting where Value == BuildReport, Format == String {
    /// One of the build's journeys (`RootCoordinator.journeys`, or a test's with flow coverage) as its story:
    /// each page in order with the link taken to it and how it was presented, then where it breaks, if it does. A
    /// change that breaks the journey or moves its way reads as a line diff of the story.
    ///
    /// ```swift
    /// let report = try await SiteBuilder(coordinator: app).build(into: folder)
    /// assertSnapshot(of: report, as: .journey("Read a film's planets"))
    /// ```
    public static func journey(_ name: String) -> Snapshotting<BuildReport, String> {
        Snapshotting<String, String>(pathExtension: "journey.txt", diffing: .lines).pullback {
            (report: BuildReport) -> String in
            guard let graph = report.flow else {
                return "no flow: the report is of an unchanged site; build with force to record one\n"
            }
            return graph.journeyText(named: name)
        }
    }
}

extension Snapshotting where Value == FlowGraph, Format == String {
    /// One journey of the graph (see the build report's `.journey(_:)`).
    public static func journey(_ name: String) -> Snapshotting<FlowGraph, String> {
        Snapshotting<String, String>(pathExtension: "journey.txt", diffing: .lines).pullback {
            $0.journeyText(named: name)
        }
    }
}

extension FlowGraph {
    /// The journey named `name`'s story, or which journeys there are.
    fileprivate func journeyText(named name: String) -> String {
        if let journey = journeys.first(where: { $0.name == name }) { return journey.text }
        let names = journeys.map { "'\($0.name)'" }.joined(separator: ", ")
        return "no journey is named '\(name)'; the app's are \(names.isEmpty ? "none" : names)\n"
    }
}
