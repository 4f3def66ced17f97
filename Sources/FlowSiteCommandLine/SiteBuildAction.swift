@_spi(Engine) import FlowSite
import Foundation
import Logging
import Synchronization

/// One build of a ``SiteApp``'s site, as `build`, `serve` and the app's own verbs run it: when
/// nothing it reads has changed since the site was built, it loads nothing and writes nothing;
/// otherwise it loads the app and builds, making again only the pages an edit reaches when the
/// app fingerprints its inputs (``SiteContent/inputFingerprints``).
@_spi(Engine) public struct SiteBuildAction<App: SiteApp>: Sendable {
    public var app: App
    public var output: URL
    public var templates: URL?
    public var baseURL: String?
    public var force: Bool
    public var quiet: Bool
    /// Whether a flow lint warning fails the build.
    public var strictFlowLint = false
    /// Flow lint settings over the app's own.
    public var flowLint: FlowLintConfiguration?
    /// What `serve --watch` keeps from one rebuild to the next; `nil` for a build of its own.
    public var memory: ServeMemory<App.Coordinator.R>?
    /// Whether `output` is a private preview nobody else reads as a whole (`serve --watch`'s
    /// own): an edit that moves no page is then written into it in place.
    public var patchesInPlace = false
    /// The log: warnings and errors on standard error, only errors when quiet.
    public var logger: Logger

    public init(app: App, output: URL, templates: URL? = nil, baseURL: String? = nil, force: Bool = false, quiet: Bool = false) {
        self.app = app
        self.output = output
        self.templates = templates
        self.baseURL = baseURL
        self.force = force
        self.quiet = quiet
        logger = CommandLineMessage.logger(quiet: quiet)
    }

    /// Builds the site, or finds it up to date; `changedPaths` are the paths `serve --watch`
    /// saw change since the last build.
    public func run(changedPaths: Set<String>? = nil) async throws -> BuildReport {
        let inputs = inputsFingerprint()
        if !force, memory == nil, let report = SiteBuilder<App.Coordinator>.unchangedSite(at: output, inputs: inputs, logger: logger) {
            return report
        }
        let clock = ContinuousClock()
        let started = clock.now
        // The site's manifests and journal are read on another core while the data loads.
        let readAhead = force || memory != nil ? nil : SiteReadAhead(output: output)
        let content = try await app.load(SiteLoad(output: output, changedPaths: changedPaths, logger: logger, quiet: quiet))
        let templateSet = try templates.map { try TemplateSet.load(from: $0) } ?? .embedded
        var builder = SiteBuilder(coordinator: content.coordinator, templates: templateSet, baseURL: baseURL, force: force, logger: logger)
        builder.otherLanguages = content.otherLanguages
        builder.strictFlowLint = strictFlowLint
        builder.flowLint = flowLint
        builder.inputs = inputs
        builder.readAhead = content.otherLanguages.isEmpty ? readAhead : nil
        // Fingerprints serve serve's memory and the journal, which keeps sites of one language.
        let fingerprints = memory != nil || content.otherLanguages.isEmpty ? content.inputFingerprints?() : nil
        if let memory {
            builder.patchesInPlace = patchesInPlace
            builder.memory = memory.pages
            builder.changedInputs = fingerprints.flatMap { memory.changes(to: $0) }
        } else if let fingerprints, content.otherLanguages.isEmpty {
            builder.journalsEdits = true
            builder.inputFingerprints = fingerprints
        }
        let loading = clock.now - started
        let line = BuildProgressLine(enabled: BuildProgressLine.shouldDraw(quiet: quiet))
        builder.progress = { line.update($0) }
        line.start()
        defer { line.finish() }
        var report = try await SiteEngine<App.Coordinator>.forCommand.build(builder, output)
        memory?.built(fingerprints)
        let (seconds, attoseconds) = loading.components
        report.timings.insert(("load data and templates", Double(seconds) + Double(attoseconds) / 1e18), at: 0)
        return report
    }

    /// This build as `serve` runs it, given the paths that changed since the last run (`nil`
    /// for the first). With `remembering` (`serve --watch`), the builds share a memory, so that
    /// a rebuild makes only the pages an edit reaches.
    public func rebuilds(remembering: Bool) -> @Sendable (Set<String>?) async throws -> BuildReport {
        var build = self
        if remembering, build.memory == nil { build.memory = ServeMemory() }
        return { [build] changed in try await build.run(changedPaths: changed) }
    }

    /// What the site depends on outside the program's code: the app's inputs, the templates
    /// (each file by path, size and modification time, as make does), the options and the
    /// program itself. `nil` when the app can't tell its inputs.
    func inputsFingerprint() -> String? {
        guard let appInputs = app.inputs else { return nil }
        var hash = StableHash()
        for part in [
            ProgramIdentity.current, appInputs, baseURL ?? "-", strictFlowLint ? "strict" : "-", flowLint.map { "\($0)" } ?? "-",
            templates.map { "templates " + SiteInputs.listing(of: $0) } ?? "-",
        ] {
            hash.combine(part)
        }
        return hash.description
    }
}

/// What `serve --watch` keeps between rebuilds: the last build's memory of its pages and the
/// fingerprints of the inputs they read, so the next build knows which inputs an edit changed.
@_spi(Engine) public final class ServeMemory<R: Route>: Sendable {
    let pages = BuildMemory<R>()
    private let built = Mutex<InputFingerprints?>(nil)

    public init() {}

    /// The inputs whose fingerprints differ from the last built ones (`nil` before the first
    /// build).
    func changes(to new: InputFingerprints) -> Set<InputKey>? {
        built.withLock { $0.map { new.changes(since: $0) } }
    }

    /// A build succeeded: its fingerprints are what the memory now describes.
    func built(_ new: InputFingerprints?) {
        built.withLock { $0 = new }
    }
}
