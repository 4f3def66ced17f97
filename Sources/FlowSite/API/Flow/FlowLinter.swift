/// Runs flow lint over an app without building its site. Unlike a build, it reports a link no coordinator shows
/// as an `unhandled-intent` finding and goes on, so one run lists every hole.
///
/// ```swift
/// let report = try await FlowLinter(coordinator: AppCoordinator(dependencies: .mock)).run()
/// print(report.text())
/// ```
public struct FlowLinter<C: RootCoordinator>: Sendable {
    /// The app's root coordinator.
    public var coordinator: C
    /// Settings over the coordinator's own ``RootCoordinator/flowLint``.
    public var configuration: FlowLintConfiguration?
    /// The transitions the app's tests take, counted per flow in the report and by `untested-transition`.
    public var coverage: FlowGraph.Coverage?

    /// A linter for `coordinator`'s app, with `configuration` over the app's own and the tests' `coverage`.
    public init(coordinator: C, configuration: FlowLintConfiguration? = nil, coverage: FlowGraph.Coverage? = nil) {
        self.coordinator = coordinator
        self.configuration = configuration
        self.coverage = coverage
    }

    /// Walks the app and lints its flow.
    /// - Throws: ``FlowSiteError`` for screens that fail, routes that share a path, or unknown rules.
    public func run() async throws -> FlowLintReport {
        try await walk().lint
    }

    /// Walks the app: its flow graph and its lint report.
    public func walk() async throws -> (graph: FlowGraph, lint: FlowLintReport) {
        let (graph, lint) = try await walkedGraph(keepsEdges: false)
        return (graph.flowGraph(lint: lint, coverage: coverage), lint)
    }

    /// Walks the app and lints its flow, and writes a Swift Testing suite with a test for each transition
    /// ``coverage`` leaves untested (none given: every transition), as `lint --write-tests` does.
    package func runWritingTests(_ options: TransitionTestOptions) async throws -> (lint: FlowLintReport, tests: String)
    {
        // The tests need each link's text, which only the walk's edges keep.
        let (graph, lint) = try await walkedGraph(keepsEdges: true)
        let tests = graph.untestedTransitionTests(
            coverage: coverage ?? FlowGraph.Coverage([]), options: options, coordinator: String(reflecting: C.self))
        return (lint, tests)
    }

    private func walkedGraph(keepsEdges: Bool) async throws -> (SiteGraph<C.R>, FlowLintReport) {
        var settings = coordinator.flowLint
        if let configuration { settings = settings.merging(configuration) }
        try settings.validate()
        var walker = SiteWalker(coordinator: coordinator, keepsEdges: keepsEdges)
        walker.recordsUnhandledLinks = true
        let graph = try await walker.walk { _ in }
        try graph.requireNoFailures()
        // The findings speak the site's language, as its flow map does.
        let site = coordinator.siteInfo
        let lint = graph.lint(
            settings, declared: coordinator.declaredScreens.map(\.screenKind), coverage: coverage, site: site,
            rules: try? PluralRules(language: site.language)
        )
        return (graph, lint)
    }
}
