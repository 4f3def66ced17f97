@_spi(Engine) import FlowSite
import Foundation
import StarWarsApp

/// Everything `holocron graph` does, as a value: walks the app over the data, without writing
/// a site, and exports its navigation graph.
package struct GraphAction: Sendable {
    /// Where the data comes from.
    package var source: DataSource
    /// DOT, Mermaid or JSON.
    package var format: GraphFormat
    /// Screen kinds and their transitions, or every page and link.
    package var level: GraphLevel
    /// Whether progress is left out.
    package var quiet: Bool

    package init(source: DataSource, format: GraphFormat, level: GraphLevel = .pages, quiet: Bool = false) {
        self.source = source
        self.format = format
        self.level = level
        self.quiet = quiet
    }

    /// The graph as text, with its node and edge counts.
    package func run() async throws -> (text: String, pages: Int, links: Int) {
        let build = BuildAction(output: URL(fileURLWithPath: "/dev/null"), source: source, quiet: quiet)
        let coordinator = try await build.loadApp(logger: build.makeLogger())
        if level == .screens {
            let flow = try await FlowLinter(coordinator: coordinator).walk().graph
            let text = switch format {
            case .dot: flow.dot()
            case .mermaid: flow.mermaid()
            case .json: flow.json()
            }
            return (text, flow.kinds.count, flow.transitions.count)
        }
        let graph = try await SiteWalker(coordinator: coordinator).walk { _ in }
        try graph.requireNoFailures()
        return (graph.export(format), graph.routes.count, graph.distinctEdgeCount)
    }
}

/// How much `holocron graph` shows.
package enum GraphLevel: String, Sendable, CaseIterable {
    /// Screen kinds as nodes, transitions between kinds as edges: the flow people read.
    case screens
    /// Every page and every link, for tools.
    case pages
}
