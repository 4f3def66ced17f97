import FlowSite
import Foundation
import Testing

/// Records which transitions of the app's flow a test suite's coordinator tests take, into a
/// committed file per suite that a build (`build --coverage`) and flow lint
/// (`lint --coverage`) read: the flow map then shows which transitions no test takes.
///
/// ```swift
/// @Suite(.flowCoverage()) struct CoordinatorTests {
///     @Test func selectingACharacterPushesIt() {
///         let navigator = RecordingNavigator<AppRoute>(stack: [.home, .characters])
///         flow.show(.character(1), from: .characters, in: navigator)
///         #expect(navigator.shown == [.init(.character(1), .push)])
///     }
/// }
/// ```
///
/// Each test's ``RecordingNavigator``s record the transitions it takes (see there how); when
/// the test ends, they are compared with the test's entry in the suite's file,
/// `flow-coverage/<test module>.<suite>.json` at the package's root, like a snapshot: a missing
/// entry is recorded (and the test fails once, asking to re-run and commit), and an entry that
/// no longer matches fails the test with what changed, so the committed coverage is always
/// what the tests take and a build can read it without running them. Set the environment
/// variable `FLOW_COVERAGE_RECORD` to `all` to re-record every entry that changed, or to
/// `never` to record nothing (as CI should). Tests run in parallel and each keeps its own
/// transitions; a filtered run checks only the tests it runs. The entry of a test that is
/// deleted or renamed stays until the file's entry is removed by hand: give the trait the app
/// (`.flowCoverage(of: app)`) and, once the suite's tests have run, it walks the app's flow and
/// fails the suite naming each transition the file has that the flow no longer does.
public struct FlowCoverageTrait: SuiteTrait, TestTrait, TestScoping {
    /// When the trait writes the file.
    public enum Recording: String, Sendable {
        /// Records a test's entry when the file lacks it; checks the others (the default).
        case missing
        /// Re-records every entry that changed.
        case all
        /// Writes nothing: a missing entry fails like a changed one.
        case never

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

    /// A trait writing into `folder`, which tests usually write as `.flowCoverage()`. Given
    /// `flow` (the app's flow graph, such as `FlowLinter(coordinator: app).walk().graph`), a
    /// suite's trait checks its file against it once the suite's tests have run.
    public init(folder: URL, recording: Recording? = nil, flow: (@Sendable () async throws -> FlowGraph)? = nil) {
        self.folder = folder
        self.recording = recording
        self.flow = flow
    }

    /// A suite's trait applies to each of its tests.
    public var isRecursive: Bool { true }

    /// One scope per test function, around all its cases, so a parameterized test's entry is
    /// what all its cases take together; and one around a suite when there is a flow to check
    /// its file against.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        if test.isSuite { return flow == nil ? nil : self }
        return testCase == nil ? self : nil
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        if test.isSuite {
            // The tests settle their entries first; then the whole file is checked once.
            try await function()
            let file = folder.appendingPathComponent(Self.fileName(forSuite: test))
            try await checkFlow(file: file, at: test.sourceLocation)
            return
        }
        let recorder = FlowCoverageRecorder()
        // A test that throws has failed already; its transitions are left unchecked.
        try await FlowCoverageRecorder.$current.withValue(recorder) { try await function() }
        let file = folder.appendingPathComponent(Self.fileName(for: test))
        if let message = try FlowCoverageCheck.settle(
            recorder.transitions, test: test.name, in: file, recording: recording ?? .fromEnvironment)
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

    /// `<module>.<suite>.json` (nested suites joined by dots), or `<module>.json` for a test
    /// outside any suite.
    static func fileName(for test: Test) -> String {
        ([test.id.moduleName] + test.id.nameComponents.dropLast()).joined(separator: ".") + ".json"
    }

    /// The file of the suite `suite` itself: its tests' ``fileName(for:)``.
    static func fileName(forSuite suite: Test) -> String {
        ([suite.id.moduleName] + suite.id.nameComponents).joined(separator: ".") + ".json"
    }
}

extension Trait where Self == FlowCoverageTrait {
    /// Records the transitions the tests' ``RecordingNavigator``s take into `folder` (relative
    /// to the package's root, the nearest folder above the test file with a `Package.swift`;
    /// or absolute), one file per suite, and checks them against it: see ``FlowCoverageTrait``.
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

    /// ``flowCoverage(_:recording:filePath:)`` that also walks `app`'s flow once the suite's
    /// tests have run, and fails the suite naming each transition its file has that the flow no
    /// longer does (the entry of a test that is gone, or one recorded before the flow changed):
    ///
    /// ```swift
    /// @Suite(.flowCoverage(of: AppCoordinator(dependencies: .mock))) struct CoordinatorTests { … }
    /// ```
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

/// The transitions one test's navigators take; a task-local, so tests running in parallel keep
/// theirs apart.
final class FlowCoverageRecorder: Sendable {
    @TaskLocal static var current: FlowCoverageRecorder?

    private let taken = Locked<Set<FlowCoverageFile.Transition>>([])

    func record(from: String, to: String, presentation: Presentation) {
        _ = taken.withLock { $0.insert(.init(from: from, to: to, presentation: presentation.rawValue)) }
    }

    /// What was taken, sorted.
    var transitions: [FlowCoverageFile.Transition] { taken.withLock { $0.sorted() } }
}
