import ArgumentParser
import FlowSite
import Foundation

extension GraphFormat: ExpressibleByArgument {}

/// `holocron graph`: walks the app without writing a site and prints its navigation graph.
struct GraphCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print the app's navigation graph (every screen and every link) as Graphviz, Mermaid or JSON.",
        discussion: """
            Pages are nodes named by title and path; links are edges labelled with their action: \
            solid for push, dashed for modal, bold for root, dotted for replace (in Mermaid, \
            dotted arrows are modals and thick ones roots). Render a DOT file with \
            `dot -Tsvg graph.dot -o graph.svg`.
            """
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("dot, mermaid or json.", valueName: "format"))
    var format: GraphFormat = .dot

    @Option(name: .shortAndLong, help: ArgumentHelp("A file to write the graph to (default: standard output).", valueName: "file"))
    var output: String?

    @OptionGroup(title: "Data")
    var fetch: FetchOptions

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func run() async throws {
        let action = BuildAction(output: URL(fileURLWithPath: "site"), source: fetch.source(output: URL(fileURLWithPath: "site")), quiet: quiet)
        let coordinator = try await action.loadApp(logger: action.makeLogger())
        let graph = try await SiteWalker(coordinator: coordinator).walk { _ in }
        try graph.requireNoFailures()
        let text = graph.export(format)
        guard let output else {
            print(text, terminator: "")
            return
        }
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw ValidationError("Cannot write the graph to \(output): \(error.localizedDescription). Check that its folder exists and is writable.")
        }
        if !quiet {
            print("Wrote the graph of \(graph.routes.count) pages and \(graph.distinctEdgeCount) links to \(output)")
        }
    }
}
