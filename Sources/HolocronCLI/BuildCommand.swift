import ArgumentParser
import Foundation

/// `holocron build`: parses the options into a ``BuildAction`` and runs it.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the site into a folder, replacing the previous site only when the build succeeds."
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder to write the site to.", valueName: "dir"))
    var output: String = "site"

    @OptionGroup(title: "Data")
    var fetch: FetchOptions

    @Option(help: ArgumentHelp("A folder of templates and assets that override the built-in ones, file by file.", valueName: "dir"))
    var templates: String?

    @Option(help: ArgumentHelp("The absolute URL the site will be served from, for sitemap.xml, robots.txt and 404.html.", valueName: "url"))
    var baseURL: String?

    @Flag(help: "Replace the output folder even if holocron did not create it.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        if let baseURL {
            guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else {
                throw ValidationError("--base-url '\(baseURL)' is not an absolute http(s) URL; write it like https://example.com/docs/.")
            }
        }
        if let templates {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: templates, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--templates '\(templates)' is not a folder; give a folder holding layout.mustache and friends.")
            }
        }
    }

    func run() async throws {
        let action = BuildAction(
            output: URL(fileURLWithPath: output),
            source: fetch.source(output: URL(fileURLWithPath: output)),
            templates: templates.map { URL(fileURLWithPath: $0) },
            baseURL: baseURL,
            force: force,
            quiet: quiet
        )
        let report = try await action.run()
        if !quiet { print(report) }
    }
}
