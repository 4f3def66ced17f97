import ArgumentParser
import FlowSite
import FlowSiteCommandLine
import Foundation
import HolocronKit

/// `holocron diff`: the library's `diff`, which can also build both sides first from two data
/// or templates folders.
struct DiffCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract:
            """
            Report what changed between two builds of the site: pages, their text, links, \
            the flow and its lint, other files.
            """,
        discussion: """
            Compares two folders made by `holocron build`, or builds both sides first from \
            --old-data/--new-data and --old-templates/--new-templates (a side without them uses \
            the embedded data and built-in templates). Pages whose fingerprints match are not read. \
            --format markdown makes a pull-request comment; --format html (or --html-report beside \
            another format) a review page with the flow drawn before and after. Exits 0 when the \
            sites are the same, 1 when they differ, 2 on error.
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

    @OptionGroup var report: DiffReportOptions

    /// One side of the comparison: a built site, or a build to make first.
    enum Side {
        case site(URL)
        case build(data: URL?, templates: URL?)
    }

    func validate() throws {
        let building = [oldData, newData, oldTemplates, newTemplates].contains { $0 != nil }
        switch (oldSite, newSite, building) {
        case (_?, _?, false), (nil, nil, true): break
        case (_, _, true):
            throw ValidationError(
                """
                Give two site folders, or --old-data/--new-data and --old-templates/--new-templates \
                to build both sides, not both.
                """
            )
        default:
            throw ValidationError(
                """
                Give two site folders (holocron diff OLD NEW), or --old-data/--new-data or \
                --old-templates/--new-templates to build both sides.
                """
            )
        }
        for (option, path) in [
            ("--old-data", oldData), ("--new-data", newData), ("--old-templates", oldTemplates),
            ("--new-templates", newTemplates)
        ] {
            guard let path else { continue }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("\(option) '\(path)' is not a folder.")
            }
        }
    }

    func run() async throws {
        // Sides that are built are built into a temporary folder, removed afterwards.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "holocron-diff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let old = try await folder(
            oldSite, data: oldData, templates: oldTemplates, scratch: scratch.appendingPathComponent("old"))
        let new = try await folder(
            newSite, data: newData, templates: newTemplates, scratch: scratch.appendingPathComponent("new"))
        try report.write(comparing: old, with: new)
    }

    private func folder(_ site: String?, data: String?, templates: String?, scratch: URL) async throws -> URL {
        if let site { return URL(fileURLWithPath: site) }
        let source = data.map { DataSource.directory(URL(fileURLWithPath: $0)) } ?? .embedded
        _ = try await BuildAction(
            output: scratch, source: source, templates: templates.map { URL(fileURLWithPath: $0) }, quiet: true
        ).run()
        return scratch
    }
}
