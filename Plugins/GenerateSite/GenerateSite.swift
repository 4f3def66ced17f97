import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-directory site generate-site --output site`: builds the
/// package's site executable and runs its `build` command, so the app's flow becomes a site in
/// the folder given (default `site`, relative to the package). Any other options
/// (`--base-url URL`, `--strict`, `--force`) are passed on.
@main struct GenerateSite: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var arguments = ArgumentExtractor(arguments)
        let output = arguments.extractOption(named: "output").last ?? "site"
        let site = try SiteExecutable(context: context, packageManager: packageManager, arguments: &arguments)
        let folder = context.package.directoryURL
        let target = output.hasPrefix("/") ? URL(fileURLWithPath: output) : folder.appendingPathComponent(output)
        let status = try site.run(["build", "--output", target.path] + arguments.remainingArguments, in: folder)
        guard status == 0 else {
            throw SiteExecutable.Failure(
                description: "the site's build exited with \(status)\(status == 1 ? ": strict flow lint failed" : "")")
        }
    }
}
