import ArgumentParser
import FlowSite
import Foundation

/// `graph`: the app's navigation graph, by screen kind or by page.
struct GraphCommand<App: SiteApp>: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "graph",
            abstract: "Print the app's navigation graph, by screen kind or by page, as Graphviz, Mermaid or JSON.",
            discussion: """
                With --level screens (the default, what people read), nodes are screen kinds with \
                their page counts and the source line of their screen; edges are transitions with \
                their presentation and the number of links each stands for. With --level pages, \
                every page is a node and every link an edge. Render a DOT file with \
                `dot -Tsvg graph.dot -o graph.svg`.
                """
        )
    }

    @Option(name: .shortAndLong, help: ArgumentHelp("dot, mermaid or json.", valueName: "format"))
    var format: GraphFormat = .dot

    @Option(help: ArgumentHelp("screens (kinds and transitions) or pages (every page and link).", valueName: "level"))
    var level: GraphLevel = .screens

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("A file to write the graph to (default: standard output).", valueName: "file"))
    var output: String?

    @OptionGroup(title: "App")
    var app: App.Options

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func run() async throws {
        let logger = CommandLineMessage.logger(quiet: quiet)
        let coordinator = try await App(options: app).load(SiteLoad(logger: logger, quiet: quiet)).coordinator
        let text: String
        let counts: (nodes: Int, edges: Int)
        switch level {
        case .screens:
            let flow = try await FlowLinter(coordinator: coordinator).walk().graph
            text =
                switch format {
                case .dot: flow.dot()
                case .mermaid: flow.mermaid()
                case .json: flow.json()
                }
            counts = (flow.kinds.count, flow.transitions.count)
        case .pages:
            let graph = try await SiteWalker(coordinator: coordinator).walk { _ in }
            try graph.requireNoFailures()
            text = graph.export(format)
            counts = (graph.routes.count, graph.distinctEdgeCount)
        }
        try ReportOutput.write(text, to: output, forTerminal: false)
        if let output, !quiet {
            let (nodes, edges) = level == .screens ? ("screen kinds", "transitions") : ("pages", "links")
            print("Wrote the graph of \(counts.nodes) \(nodes) and \(counts.edges) \(edges) to \(output)")
        }
    }
}

extension GraphFormat: ExpressibleByArgument {}

/// How much `graph` shows.
enum GraphLevel: String, ExpressibleByArgument, CaseIterable {
    /// Screen kinds as nodes, transitions between kinds as edges: the flow people read.
    case screens
    /// Every page and every link, for tools.
    case pages
}
