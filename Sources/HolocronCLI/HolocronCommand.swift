import ArgumentParser

/// The `holocron` command: turns an app's navigation graph into a static site.
public struct HolocronCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "holocron",
        abstract: "Turn an MVVM-C app's navigation graph into a static site, one page per screen.",
        discussion: """
            holocron walks every route of the app offline, renders each screen's state to Markdown, \
            turns it into HTML with cmark and writes one page per screen, with relative links that \
            work from any web server path and straight from disk.
            """,
        version: "0.1.0",
        subcommands: [BuildCommand.self, ServeCommand.self, CheckCommand.self, SnapshotCommand.self, GraphCommand.self],
        defaultSubcommand: BuildCommand.self
    )

    public init() {}
}
