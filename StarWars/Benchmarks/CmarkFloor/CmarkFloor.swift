import ArgumentParser
import Foundation
import HolocronKit

/// `cmark-floor`, for `make bench` only: how long cmark alone takes to convert every page's
/// Markdown, the floor a build's time is compared with; or the pages' Markdown written out for
/// the benchmark's baselines outside holocron (the C floor, Hugo).
@main
struct CmarkFloor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cmark-floor",
        abstract: "Time cmark alone over every page's Markdown (for make bench)."
    )

    @Option(help: ArgumentHelp("A SWAPI snapshot folder to build from (default: the embedded data).", valueName: "dir"))
    var data: String?

    @Option(help: ArgumentHelp("Threads to convert on (default: one per core).", valueName: "n"))
    var threads = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Also write each page's HTML to its file below this new folder.", valueName: "dir"))
    var writeInto: String?

    @Option(
        help: ArgumentHelp(
            """
            Instead, write every page's Markdown below this new folder (content/ as Hugo reads it, \
            and pages.tsv) for the baselines of make bench.
            """,
            valueName: "dir"))
    var dumpMarkdown: String?

    func run() async throws {
        let site = StarWarsSite(source: data.map { .directory(URL(fileURLWithPath: $0)) } ?? .embedded)
        if let dumpMarkdown {
            let pages = try await CmarkFloorAction(site: site).dumpMarkdown(into: URL(fileURLWithPath: dumpMarkdown))
            print("wrote the Markdown of \(pages) pages to \(dumpMarkdown)")
            return
        }
        let folder = writeInto.map { URL(fileURLWithPath: $0) }
        let floor = try await CmarkFloorAction(site: site, threads: threads, writeInto: folder).run()
        let what = folder == nil ? "converted" : "converted and wrote"
        print(
            """
            cmark \(what) \(floor.pages) pages (\(floor.bytes / 1024) KiB of Markdown) in \
            \(String(format: "%.3f", floor.seconds)) s on \(threads) threads
            """
        )
    }
}
