import ArgumentParser
import FlowSite
import Foundation

/// `holocron templates`: writes the built-in templates and assets into a new folder, the
/// starting point for `--templates`.
struct TemplatesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "templates",
        abstract: "Write the built-in templates and assets into a folder to start your own from.",
        discussion: """
            Edit the copies, delete the ones you keep as they are, and build with \
            `holocron build --templates DIR`: files in DIR override the built-in ones file by file.
            """
    )

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp("The folder to write to; existing files are never overwritten.", valueName: "dir"))
    var output: String = "templates"

    func run() throws {
        let folder = URL(fileURLWithPath: output)
        try TemplateSet.embedded.write(to: folder)
        print(
            """
            Wrote the built-in templates to \(output)/: layout.mustache, 404.mustache, partials/ and assets/. \
            Build with --templates \(output).
            """
        )
    }
}
