import FlowSite
import FlowSiteUtilities
import Foundation
import Logging

/// One build of a ``SiteApp``'s site, as `build`, `serve` and the app's verbs run it: it loads and writes nothing
/// when no input changed, and remakes only the pages an edit reaches when the app fingerprints its inputs.
public struct SiteBuildAction<App: SiteApp>: Sendable {
    /// The app to build, made from its options.
    public var app: App
    /// The folder the site is built into.
    public var output: URL
    /// A folder of templates over the built-in ones (`--templates`).
    public var templates: URL?
    /// The URL the site is served from (`--base-url`).
    public var baseURL: String?
    /// Whether to replace an output folder that a build did not make (`--force`).
    public var force: Bool
    /// Whether to print nothing but errors (`--quiet`).
    public var quiet: Bool
    /// Whether a flow lint warning fails the build.
    public var strictFlowLint = false
    /// Flow lint settings over the app's own.
    public var flowLint: FlowLintConfiguration?
    /// Flow coverage files or folders, merged, so the flow map marks the transitions no test takes.
    public var coverage: [URL] = []
    /// The log: warnings and errors on standard error, only errors when quiet.
    public var logger: Logger

    /// A build of `app` into `output`; ``SiteOptions/action(app:output:force:quiet:)`` makes one from options.
    public init(
        app: App, output: URL, templates: URL? = nil, baseURL: String? = nil, force: Bool = false, quiet: Bool = false
    ) {
        self.app = app
        self.output = output
        self.templates = templates
        self.baseURL = baseURL
        self.force = force
        self.quiet = quiet
        logger = CommandLineMessage.logger(quiet: quiet)
    }

    /// Builds the site, or finds it up to date; `changedPaths` are those `serve --watch` saw since the last build.
    public func run(changedPaths: Set<String>? = nil) async throws -> BuildReport {
        let flowCoverage = try coverage.isEmpty ? nil : FlowGraph.Coverage.load(from: coverage)
        let inputs = inputsFingerprint(coverage: flowCoverage)
        if !force, let report = SiteBuilder<App.Coordinator>.unchangedSite(at: output, inputs: inputs, logger: logger) {
            return report
        }
        let clock = ContinuousClock()
        let started = clock.now
        // The site's manifests and journal are read on another core while the data loads.
        let readAhead = force ? nil : SiteReadAhead(output: output)
        let content = try await app.load(
            SiteLoad(output: output, changedPaths: changedPaths, logger: logger, quiet: quiet))
        let templateSet = try templates.map { try TemplateSet.load(from: $0) } ?? .embedded
        var builder = SiteBuilder(
            coordinator: content.coordinator, templates: templateSet, baseURL: baseURL, force: force, logger: logger)
        builder.otherLanguages = content.otherLanguages
        builder.strictFlowLint = strictFlowLint
        builder.flowLint = flowLint
        builder.flowCoverage = flowCoverage
        builder.setCommandLineInputs(inputs, readAhead: readAhead, fingerprints: content.inputFingerprints?())
        let loading = clock.now - started
        let line = BuildProgressLine(enabled: BuildProgressLine.shouldDraw(quiet: quiet))
        builder.progress = { line.update($0) }
        line.start()
        defer { line.finish() }
        var report = try await SiteEngine<App.Coordinator>.forCommand.build(builder, output)
        report.timings.insert(.init(phase: "load data and templates", seconds: loading.timeInterval), at: 0)
        return report
    }

    /// This build as `serve` runs it, given the paths changed since the last run (`nil` for the first).
    public func rebuilds() -> @Sendable (Set<String>?) async throws -> BuildReport {
        { [self] changed in try await run(changedPaths: changed) }
    }

    /// What the site depends on besides code (app inputs, templates, options, program); `nil` if inputs are unknown.
    func inputsFingerprint(coverage: FlowGraph.Coverage?) -> String? {
        guard let appInputs = app.inputs else { return nil }
        var hash = StableHash()
        let taken =
            coverage.map { "coverage " + $0.transitions.sorted().map(\.description).joined(separator: "\n") } ?? "-"
        for part in [
            ProgramIdentity.current, appInputs, baseURL ?? "-", strictFlowLint ? "strict" : "-",
            flowLint.map { "\($0)" } ?? "-",
            templates.map { "templates " + SiteInputs.listing(of: $0) } ?? "-", taken
        ] {
            hash.combine(part)
        }
        return hash.description
    }
}
