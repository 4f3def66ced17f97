import Foundation
import PackagePlugin

/// Embeds every file under a target's `Resources` folder in its code as text, as
/// `EmbeddedFiles.files` (path below `Resources` → text) and `EmbeddedFiles.text(_:)`.
///
/// SwiftPM's own `.embedInCode` writes each file as an array literal of its bytes, which the
/// compiler takes about 20 s to build for the Star Wars app's 175 KB of data (bench/RESULTS.md);
/// a raw string literal of the same text builds in a fraction of a second. The files must be
/// UTF-8 text with `\n` line endings: a multi-line literal would turn `\r\n` into `\n`, so the
/// plugin refuses what it could not embed byte for byte. The target excludes `Resources`, so
/// SwiftPM does not treat the files as resources of its own.
@main struct EmbedFiles: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) async throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let folder = target.directoryURL.appending(path: "Resources")
        let paths = try EmbeddedText.files(below: folder)
        guard !paths.isEmpty else { throw EmbeddedText.Refusal(description: "\(folder.path) has no file to embed") }
        for path in paths { try EmbeddedText.check(folder.appending(path: path), path: path) }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedFiles.swift")
        return [
            .buildCommand(
                displayName: "Embedding the resources of \(target.name)",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", EmbeddedText.script, "embed-files", output.path]
                    + paths.flatMap { [$0, folder.appending(path: $0).path] },
                inputFiles: paths.map { folder.appending(path: $0) },
                outputFiles: [output]
            )
        ]
    }
}
