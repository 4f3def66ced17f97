import ExampleApp
import FlowSite
import Foundation
import Logging

/// Everything `holocron build` needs, as a value: the command parses, this runs.
public struct BuildAction: Sendable {
    public var output: URL
    public var templates: URL?
    public var baseURL: String?
    public var force: Bool
    public var quiet: Bool

    public init(output: URL, templates: URL? = nil, baseURL: String? = nil, force: Bool = false, quiet: Bool = false) {
        self.output = output
        self.templates = templates
        self.baseURL = baseURL
        self.force = force
        self.quiet = quiet
    }

    /// Builds the app's site.
    public func run() async throws -> BuildReport {
        var logger = Logger(label: "holocron") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = quiet ? .error : .info
        let templateSet = try templates.map { try TemplateSet.load(from: $0) } ?? .embedded
        let builder = SiteBuilder(
            coordinator: ExampleCoordinator(),
            templates: templateSet,
            baseURL: baseURL,
            force: force,
            logger: logger
        )
        return try await builder.build(into: output)
    }
}
