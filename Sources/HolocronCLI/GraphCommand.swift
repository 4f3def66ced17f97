import ArgumentParser
import FlowSite
import HolocronKit
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
        let graph = try await GraphAction(source: fetch.source(), format: format, quiet: quiet).run()
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
            print("Wrote the graph of \(graph.pages) pages and \(graph.links) links to \(output)")
        }
    }
}
