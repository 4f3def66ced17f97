import ArgumentParser
import Foundation
import HolocronKit

/// `holocron cmark-floor`: for the benchmark only (hidden). Prints how long cmark alone takes to
/// convert every page's Markdown, the floor a build's time is compared with.
struct CmarkFloorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cmark-floor",
        abstract: "Time cmark alone over every page's Markdown (for make bench).",
        shouldDisplay: false
    )

    @OptionGroup(title: "Data")
    var fetch: FetchOptions

    @Option(help: ArgumentHelp("Threads to convert on (default: one per core).", valueName: "n"))
    var threads = ProcessInfo.processInfo.activeProcessorCount

    @Option(help: ArgumentHelp("Also write each page's HTML to its file below this new folder.", valueName: "dir"))
    var writeInto: String?

    @Option(help: ArgumentHelp("Instead, write every page's Markdown below this new folder (content/ as Hugo reads it, and pages.tsv) for the baselines of make bench.", valueName: "dir"))
    var dumpMarkdown: String?

    func run() async throws {
        if let dumpMarkdown {
            let folder = URL(fileURLWithPath: dumpMarkdown)
            guard !FileManager.default.fileExists(atPath: folder.path) else {
                throw ValidationError("--dump-markdown \(folder.path) exists: give a folder that does not exist yet.")
            }
            let pages = try await CmarkFloorAction(site: StarWarsSite(source: fetch.source())).dumpMarkdown(into: folder)
            print("wrote the Markdown of \(pages) pages to \(folder.path)")
            return
        }
        let folder = writeInto.map { URL(fileURLWithPath: $0) }
        if let folder, FileManager.default.fileExists(atPath: folder.path) {
            throw ValidationError("--write-into \(folder.path) exists: give a folder that does not exist yet.")
        }
        let floor = try await CmarkFloorAction(
            site: StarWarsSite(source: fetch.source()), threads: threads, writeInto: folder
        ).run()
        let what = folder == nil ? "converted" : "converted and wrote"
        print("cmark \(what) \(floor.pages) pages (\(floor.bytes / 1024) KiB of Markdown) in \(String(format: "%.3f", floor.seconds)) s on \(threads) threads")
    }
}
