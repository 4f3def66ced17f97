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
                `dot -Tsvg graph.dot -o graph.svg`. With --from and --to, it prints the shortest way \
                between two pages or screen kinds instead, as a journey: each page, and the link taken to it.
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

    @Option(
        help: ArgumentHelp(
            "With --to: print the shortest way from this page path (/films/) or screen kind id (home) instead.",
            valueName: "page-or-kind"))
    var from: String?

    @Option(
        help: ArgumentHelp(
            "With --from: where the way leads, a page path or a screen kind id.", valueName: "page-or-kind"))
    var to: String?

    @Option(
        help: ArgumentHelp(
            """
            A flow coverage file, or a folder of them (what the app's .flowCoverage() tests write); repeatable. \
            With --format json, the tests' journeys follow the app's.
            """,
            valueName: "path"))
    var coverage: [String] = []

    @OptionGroup(title: "App")
    var app: App.Options

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if (from == nil) != (to == nil) { throw ValidationError("--from and --to go together: give both") }
    }

    func run() async throws {
        let flowCoverage =
            try coverage.isEmpty ? nil : FlowGraph.Coverage.load(from: coverage.map { URL(fileURLWithPath: $0) })
        let logger = CommandLineMessage.logger(quiet: quiet)
        let coordinator = try await App(options: app).load(SiteLoad(logger: logger, quiet: quiet)).coordinator
        if let from, let to {
            let graph = try await SiteWalker(coordinator: coordinator).walk { _ in }
            try graph.requireNoFailures()
            func pages(_ query: String, _ option: String) throws -> [Int] {
                guard let pages = graph.pages(named: query) else {
                    throw ValidationError(
                        "\(option) \(query) names no page or screen kind: give a page's path (/films/) or a kind's id ("
                            + graph.kindIDs.joined(separator: ", ") + ")")
                }
                return pages
            }
            let way = graph.shortestPath(from: try pages(from, "--from"), to: try pages(to, "--to"))
            let text: String
            switch (way, format) {
            case (let way?, .json): text = way.json + "\n"
            case (let way?, _):
                text =
                    "The shortest way from \(from) to \(to): \(way.taps) \(way.taps == 1 ? "tap" : "taps")\n" + way.text
                    + "\n"
            case (nil, _):
                throw ValidationError("No link leads from \(from) to \(to)")
            }
            try ReportOutput.write(text, to: output, forTerminal: format != .json)
            return
        }
        let text: String
        let counts: (nodes: Int, edges: Int)
        switch level {
        case .screens:
            let flow = try await FlowLinter(coordinator: coordinator, coverage: flowCoverage).walk().graph
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
