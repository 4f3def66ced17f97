import ArgumentParser
@_spi(Engine) import FlowSite
import Foundation
import HolocronKit
@_spi(Engine) import FlowSiteCommandLine

extension DiffAction.Format: ExpressibleByArgument {}

/// `holocron diff`: what a change did to the site, grouped by screen kind.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Report what changed between two builds of the site: pages, their text, links, the flow and its lint, other files.",
        discussion: """
            Compares two folders made by `holocron build`, or builds both sides first from \
            --old-data/--new-data and --old-templates/--new-templates (a side without them uses \
            the embedded data and built-in templates). Pages whose fingerprints match are not read. \
            --format markdown makes a pull-request comment. Exits 0 when the sites are the same, \
            1 when they differ, 2 on error.
            """
    )

    @Argument(help: ArgumentHelp("The site before the change (a folder holocron built).", valueName: "old"))
    var oldSite: String?

    @Argument(help: ArgumentHelp("The site after the change.", valueName: "new"))
    var newSite: String?

    @Option(help: ArgumentHelp("Build the old side from this data folder.", valueName: "dir"))
    var oldData: String?

    @Option(help: ArgumentHelp("Build the new side from this data folder.", valueName: "dir"))
    var newData: String?

    @Option(help: ArgumentHelp("Build the old side with this templates folder.", valueName: "dir"))
    var oldTemplates: String?

    @Option(help: ArgumentHelp("Build the new side with this templates folder.", valueName: "dir"))
    var newTemplates: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("text (for a terminal), markdown (for a pull-request comment) or json.", valueName: "format"))
    var format: DiffAction.Format = .text

    @Option(help: ArgumentHelp("Where the old site is published, so each page named links to its before.", valueName: "url"))
    var oldURL: String?

    @Option(help: ArgumentHelp("Where the new site is published, so each page named links to its after.", valueName: "url"))
    var newURL: String?

    @Option(help: ArgumentHelp("Pages named per list before \"and N more\" (default 5).", valueName: "n"))
    var limit = 5

    @Option(name: .shortAndLong, help: ArgumentHelp("A file to write the report to (default: standard output).", valueName: "file"))
    var output: String?

    func run() async throws {
        do {
            let action = try makeAction()
            let (comparison, report) = try await action.run()
            if let output {
                do {
                    try Data(report.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
                } catch {
                    throw ValidationError("Cannot write the report to \(output): \(error.localizedDescription). Check that its folder exists and is writable.")
                }
                print(TerminalText.safe("\(comparison.summaryLine); wrote the \(format.rawValue) report to \(output)"))
            } else {
                print(format == .text ? TerminalText.safe(report) : report, terminator: "")
            }
            if !comparison.isEqual { throw ExitCode(1) }
        } catch let code as ExitCode {
            throw code
        } catch {
            // diff's convention: 2 for trouble, so that 1 always means "different".
            let message = (error as? FlowSiteError).map { "Error: " + CommandLineMessage.text(for: $0) } ?? "Error: \(Self.message(for: error))"
            FileHandle.standardError.write(Data((TerminalText.safe(message) + "\n").utf8))
            throw ExitCode(2)
        }
    }

    private func makeAction() throws -> DiffAction {
        let building = [oldData, newData, oldTemplates, newTemplates].contains { $0 != nil }
        let old: DiffAction.Side
        let new: DiffAction.Side
        switch (oldSite, newSite, building) {
        case (let a?, let b?, false):
            old = .site(URL(fileURLWithPath: a))
            new = .site(URL(fileURLWithPath: b))
        case (nil, nil, true):
            old = .build(data: try Self.folder(oldData, "--old-data"), templates: try Self.folder(oldTemplates, "--old-templates"))
            new = .build(data: try Self.folder(newData, "--new-data"), templates: try Self.folder(newTemplates, "--new-templates"))
        case (_, _, true):
            throw ValidationError("Give two site folders, or --old-data/--new-data and --old-templates/--new-templates to build both sides, not both.")
        default:
            throw ValidationError("Give two site folders (holocron diff OLD NEW), or --old-data/--new-data or --old-templates/--new-templates to build both sides.")
        }
        guard limit >= 1 else { throw ValidationError("--limit must be 1 or more, not \(limit).") }
        for (name, url) in [("--old-url", oldURL), ("--new-url", newURL)] {
            if let url, URL(string: url)?.scheme == nil {
                throw ValidationError("\(name) '\(url)' is not an absolute URL; write it like https://example.com/site/.")
            }
        }
        return DiffAction(old: old, new: new, format: format, options: .init(limit: limit, oldURL: oldURL, newURL: newURL))
    }

    private static func folder(_ path: String?, _ option: String) throws -> URL? {
        guard let path else { return nil }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("\(option) '\(path)' is not a folder.")
        }
        return URL(fileURLWithPath: path)
    }

    private static func message(for error: any Error) -> String {
        if let error = error as? ValidationError { return error.message }
        return "\(error)"
    }
}
