import ArgumentParser
@_spi(Engine) import FlowSite
import HolocronKit
import Foundation

extension GraphFormat: ExpressibleByArgument {}
extension GraphLevel: ExpressibleByArgument {}

/// `holocron graph`: walks the app without writing a site and prints its navigation graph.
struct GraphCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print the app's navigation graph, by screen kind or by page, as Graphviz, Mermaid or JSON.",
        discussion: """
            With --level screens (what people read), nodes are screen kinds with their page counts, \
            click depths and the source line of their screen; edges are transitions with their \
            presentation, the number of page links each stands for and the line that chose it. \
            With --level pages (the default, for tools), pages are nodes named by title and path; \
            links are edges labelled with their action: \
            solid for push, dashed for modal, bold for root, dotted for replace (in Mermaid, \
            dotted arrows are modals and thick ones roots). Render a DOT file with \
            `dot -Tsvg graph.dot -o graph.svg`.
            """
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("dot, mermaid or json.", valueName: "format"))
    var format: GraphFormat = .dot

    @Option(help: ArgumentHelp("screens (kinds and transitions) or pages (every page and link).", valueName: "level"))
    var level: GraphLevel = .pages

    @Option(name: .shortAndLong, help: ArgumentHelp("A file to write the graph to (default: standard output).", valueName: "file"))
    var output: String?

    @OptionGroup(title: "Data")
    var fetch: FetchOptions

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func run() async throws {
        let graph = try await GraphAction(source: fetch.source(), format: format, level: level, quiet: quiet).run()
        guard let output else {
            print(graph.text, terminator: "")
            return
        }
        do {
            try Data(graph.text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw ValidationError("Cannot write the graph to \(output): \(error.localizedDescription). Check that its folder exists and is writable.")
        }
        if !quiet {
            let (nodes, edges) = level == .screens ? ("screen kinds", "transitions") : ("pages", "links")
            print("Wrote the graph of \(graph.pages) \(nodes) and \(graph.links) \(edges) to \(output)")
        }
    }
}
