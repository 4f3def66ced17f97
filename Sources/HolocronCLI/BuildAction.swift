import FlowSite
import Foundation
import Logging
import StarWarsApp
import SWAPI

/// Everything `holocron build` needs, as a value: the command parses, this runs.
public struct BuildAction: Sendable {
    public var output: URL
    public var data: URL?
    public var templates: URL?
    public var baseURL: String?
    public var force: Bool
    public var quiet: Bool

    public init(output: URL, data: URL? = nil, templates: URL? = nil, baseURL: String? = nil, force: Bool = false, quiet: Bool = false) {
        self.output = output
        self.data = data
        self.templates = templates
        self.baseURL = baseURL
        self.force = force
        self.quiet = quiet
    }

    /// Loads the data, warns about relations to missing resources, and builds the site.
    public func run() async throws -> BuildReport {
        var logger = Logger(label: "holocron") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = quiet ? .error : .info
        let archive = try data.map { try SnapshotDirectory(url: $0).load() } ?? EmbeddedSnapshot.load()
        for dangling in archive.danglingReferences {
            logger.warning("\(dangling)")
        }
        let templateSet = try templates.map { try TemplateSet.load(from: $0) } ?? .embedded
        let builder = SiteBuilder(
            coordinator: AppCoordinator(dependencies: .live(.archive(archive), logger: logger)),
            templates: templateSet,
            baseURL: baseURL,
            force: force,
            logger: logger
        )
        return try await builder.build(into: output)
    }
}
