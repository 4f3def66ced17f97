import FlowSite
import FlowSiteUtilities
import Foundation
import Testing

/// Records which transitions of the app's flow a suite's coordinator tests take, into a committed file per suite
/// that `build --coverage` and `lint --coverage` read, so the flow map shows the transitions no test takes:
/// `@Suite(.flowCoverage()) struct CoordinatorTests { … }`.
///
/// Each test's entry also keeps its journey: the pages it showed, in order, with how each was shown.
///
/// When a test ends, what its ``RecordingNavigator``s took is compared, like a snapshot, with its entry in
/// `flow-coverage/<test module>.<suite>.json`: a missing entry is recorded (the test fails once), a changed one
/// fails the test; a filtered run checks only its tests. `FLOW_COVERAGE_RECORD=all` re-records changed entries,
/// `never` records nothing (for CI), `prune` re-records and removes the entries of tests that no longer exist (run
/// the whole suite). Given the app (`.flowCoverage(of: app)`), the suite fails on transitions the flow lost.
public struct FlowCoverageTrait: SuiteTrait, TestTrait, TestScoping {
    /// When the trait writes the file.
    public enum Recording: String, Sendable {
        /// Records a test's entry when the file lacks it; checks the others (the default).
        case missing
        /// Re-records every entry that changed.
        case all
        /// Writes nothing: a missing entry fails like a changed one.
        case never
        /// Re-records every entry that changed, and after the suite removes the entries of tests that did not run
        /// (deleted or renamed ones): run the whole suite with it, never a filtered part.
        case prune

        /// `FLOW_COVERAGE_RECORD`'s value, `missing` when unset.
        static var fromEnvironment: Recording {
            ProcessInfo.processInfo.environment["FLOW_COVERAGE_RECORD"].flatMap { Recording(rawValue: $0.lowercased()) }
                ?? .missing
        }
    }

    /// The folder of the coverage files.
    public let folder: URL
    /// When to write; `nil` reads `FLOW_COVERAGE_RECORD`.
    public let recording: Recording?
    /// Walks the app's flow, for the suite's check of its file against it; `nil` checks nothing.
    let flow: (@Sendable () async throws -> FlowGraph)?

    /// A trait writing into `folder`; given `flow` (the app's flow graph), the suite checks its file against it.
    public init(folder: URL, recording: Recording? = nil, flow: (@Sendable () async throws -> FlowGraph)? = nil) {
        self.folder = folder
        self.recording = recording
        self.flow = flow
    }

    /// A suite's trait applies to each of its tests.
    public var isRecursive: Bool { true }

    /// One scope per test function, around all its cases (a parameterized test's entry is what they take together),
    /// and one per suite when there is a flow to check.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        if test.isSuite { return flow == nil && (recording ?? .fromEnvironment) != .prune ? nil : self }
        return testCase == nil ? self : nil
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if test.isSuite {
            // The tests settle their entries first; then the whole file is checked once.
            try await function()
            let file = folder.appendingPathComponent(Self.fileName(forSuite: test))
            if (recording ?? .fromEnvironment) == .prune, let message = try FlowCoverageCheck.prune(file) {
                Issue.record(Comment(rawValue: message), severity: .warning, sourceLocation: test.sourceLocation)
            }
            try await checkFlow(file: file, at: test.sourceLocation)
            return
        }
        let recorder = FlowCoverageRecorder()
        // A test that throws has failed already; its transitions are left unchecked.
        try await FlowCoverageRecorder.$current.withValue(recorder) { try await function() }
        let file = folder.appendingPathComponent(Self.fileName(for: test))
        if let message = try FlowCoverageCheck.settle(
            recorder.transitions, journey: recorder.journey, test: test.name, in: file,
            recording: recording ?? .fromEnvironment)
        {
            Issue.record(Comment(rawValue: message), sourceLocation: test.sourceLocation)
        }
    }

    /// Records an issue naming each transition `file` has that the app's flow no longer does.
    func checkFlow(file: URL, at location: SourceLocation) async throws {
        guard let flow else { return }
        if let message = try FlowCoverageCheck.stale(in: file, flow: try await flow()) {
            Issue.record(Comment(rawValue: message), sourceLocation: location)
        }
    }

    /// `<module>.<suite>.json` (nested suites joined by dots), or `<module>.json` outside any suite.
    static func fileName(for test: Test) -> String {
        ([test.id.moduleName] + test.id.nameComponents.dropLast()).joined(separator: ".") + ".json"
    }

    /// The file of the suite `suite` itself: its tests' ``fileName(for:)``.
    static func fileName(forSuite suite: Test) -> String {
        ([suite.id.moduleName] + suite.id.nameComponents).joined(separator: ".") + ".json"
    }
}

extension Trait where Self == FlowCoverageTrait {
    /// Records and checks the transitions the tests' ``RecordingNavigator``s take, one file per suite in `folder`
    /// (absolute, or relative to the nearest folder above the test file with a `Package.swift`).
    public static func flowCoverage(
        _ folder: String = "flow-coverage", recording: FlowCoverageTrait.Recording? = nil, filePath: String = #filePath
    ) -> Self {
        if folder.hasPrefix("/") {
            return FlowCoverageTrait(folder: URL(fileURLWithPath: folder), recording: recording)
        }
        var root = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while root.path != "/",
            !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path)
        {
            root.deleteLastPathComponent()
        }
        return FlowCoverageTrait(folder: root.appendingPathComponent(folder), recording: recording)
    }

    /// ``flowCoverage(_:recording:filePath:)`` that also walks `app`'s flow after the suite's tests, and fails the
    /// suite naming each transition its file has that the flow no longer does (a gone test's entry, or a stale one).
    public static func flowCoverage<C: RootCoordinator>(
        _ folder: String = "flow-coverage", recording: FlowCoverageTrait.Recording? = nil, of app: C,
        filePath: String = #filePath
    ) -> Self {
        let folder = flowCoverage(folder, recording: recording, filePath: filePath).folder
        return FlowCoverageTrait(folder: folder, recording: recording) {
            try await FlowLinter(coordinator: app).walk().graph
        }
    }
}

/// The transitions one test's navigators take; task-local, so tests running in parallel keep theirs apart.
final class FlowCoverageRecorder: Sendable {
    @TaskLocal static var current: FlowCoverageRecorder?

    private let taken = Locked<(transitions: Set<FlowCoverageFile.Transition>, journey: [FlowCoverageFile.Step])>(
        ([], []))

    /// The test showed `route` as `presentation` over `source` (the page it taps on; `nil` on an empty stack), or
    /// from the tab bar: a transition from the source's kind or the tab bar (none for the app's start), and a step
    /// of its journey, which starts at the first source.
    func show<R: Route>(_ route: R, as presentation: Presentation, over source: R?, tab: Bool) {
        let from = tab ? FlowGraph.Coverage.tabBar : source?.screenKind.id
        taken.withLock { taken in
            if let from {
                taken.transitions.insert(.init(from: from, to: route.screenKind.id, presentation: presentation))
            }
            if taken.journey.isEmpty, let source {
                taken.journey.append(.init(path: source.path.description, kind: source.screenKind.id))
            }
            let shownFrom = source.map(\.path.description)
            taken.journey.append(
                .init(
                    path: route.path.description, kind: route.screenKind.id, presentation: presentation, tab: tab,
                    from: shownFrom == taken.journey.last?.path ? nil : shownFrom))
        }
    }

    /// What was taken, sorted.
    var transitions: [FlowCoverageFile.Transition] { taken.withLock { $0.transitions.sorted() } }

    /// The pages shown, in order.
    var journey: [FlowCoverageFile.Step] { taken.withLock { $0.journey } }
}
