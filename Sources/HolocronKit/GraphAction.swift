import FlowSite
import Foundation
import StarWarsApp

/// Everything `holocron graph` does, as a value: walks the app over the data, without writing
/// a site, and exports its navigation graph.
package struct GraphAction: Sendable {
    /// Where the data comes from.
    package var source: DataSource
    /// DOT, Mermaid or JSON.
    package var format: GraphFormat
    /// Whether progress is left out.
    package var quiet: Bool

    package init(source: DataSource, format: GraphFormat, quiet: Bool = false) {
        self.source = source
        self.format = format
        self.quiet = quiet
    }

    /// The graph as text, with its page and link counts.
    package func run() async throws -> (text: String, pages: Int, links: Int) {
        let build = BuildAction(output: URL(fileURLWithPath: "/dev/null"), source: source, quiet: quiet)
        let coordinator = try await build.loadApp(logger: build.makeLogger())
        let graph = try await SiteWalker(coordinator: coordinator).walk { _ in }
        try graph.requireNoFailures()
        return (graph.export(format), graph.routes.count, graph.distinctEdgeCount)
    }
}
