import Foundation
import PackagePlugin

/// `swift package lint-site [--format text|json|sarif] [--output FILE] [--strict] [--config FILE] [--max-depth N]`:
/// builds the site executable and runs its `lint` with source locations relative to the package's root, so SARIF
/// and text reports name files in the repository. Fails when flow lint finds an error, or under `--strict` a warning.
/// For code scanning: `swift package --allow-writing-to-package-directory lint-site --format sarif --output FILE`.
@main struct LintSite: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var arguments = ArgumentExtractor(arguments)
        let site = try SiteExecutable(context: context, packageManager: packageManager, arguments: &arguments)
        let folder = context.package.directoryURL
        var lint = ["lint"] + arguments.remainingArguments
        if !lint.contains("--source-root") { lint += ["--source-root", folder.path] }
        let status = try site.run(lint, in: folder)
        switch status {
        case 0: return
        case 1: throw SiteExecutable.Failure(description: "flow lint failed: the findings are above")
        default:
            throw SiteExecutable.Failure(
                description: "the site executable's lint failed (exit \(status)); its message is above")
        }
    }
}
