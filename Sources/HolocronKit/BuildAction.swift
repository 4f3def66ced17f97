import FlowSite
import Foundation
import Logging
import StarWarsApp
import SWAPI
import SWAPILive

/// Everything `holocron build` needs, as a value: the command parses, this runs.
public struct BuildAction: Sendable {
    public var output: URL
    public var source: DataSource
    public var templates: URL?
    public var baseURL: String?
    public var force: Bool
    public var quiet: Bool
    /// Waits between fetch attempts; tests pass one that doesn't sleep.
    public var sleep: @Sendable (Duration) async throws -> Void

    public init(
        output: URL, source: DataSource = .embedded, templates: URL? = nil, baseURL: String? = nil,
        force: Bool = false, quiet: Bool = false,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        self.output = output
        self.source = source
        self.sleep = sleep
        self.templates = templates
        self.baseURL = baseURL
        self.force = force
        self.quiet = quiet
    }

    /// Loads the data, warns about relations to missing resources, and builds the site; on a
    /// terminal, a long build shows a progress line (``BuildProgressLine``) until it ends.
    public func run() async throws -> BuildReport {
        var builder = try await makeBuilder()
        let line = BuildProgressLine(enabled: BuildProgressLine.shouldDraw(quiet: quiet))
        builder.progress = { line.update($0) }
        line.start()
        defer { line.finish() }
        return try await builder.build(into: output)
    }

    /// Loads the data and the templates, and makes the builder `run` uses; `holocron check` and
    /// `holocron serve` build with it too.
    public func makeBuilder() async throws -> SiteBuilder<AppCoordinator> {
        let logger = makeLogger()
        let coordinator = try await loadApp(logger: logger)
        let templateSet = try templates.map { try TemplateSet.load(from: $0) } ?? .embedded
        return SiteBuilder(coordinator: coordinator, templates: templateSet, baseURL: baseURL, force: force, logger: logger)
    }

    /// The Star Wars app over the loaded data. All data is loaded before any site is touched,
    /// so a failed fetch leaves the old site as it was.
    public func loadApp(logger: Logger) async throws -> AppCoordinator {
        let archive = try await source.load(sleep: sleep, reporter: ProgressReporter(quiet: quiet))
        for dangling in archive.danglingReferences {
            logger.warning("\(dangling)")
        }
        return AppCoordinator(dependencies: .live(.archive(archive), logger: logger))
    }

    /// Warnings and errors on standard error; only errors when quiet.
    public func makeLogger() -> Logger {
        var logger = Logger(label: "holocron") { TerminalSafeLogHandler(base: StreamLogHandler.standardError(label: $0)) }
        logger.logLevel = quiet ? .error : .info
        return logger
    }
}
