import Foundation
import PackagePlugin

/// `swift package diff-site OLD NEW [--format markdown]`: builds the package's site executable
/// and runs its `diff` command on two built sites (folders relative to the package), printing
/// what changed by screen kind. Fails (exit 1) when the sites differ, like `holocron diff`.
@main struct DiffSite: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var arguments = ArgumentExtractor(arguments)
        let site = try SiteExecutable(context: context, packageManager: packageManager, arguments: &arguments)
        let status = try site.run(["diff"] + arguments.remainingArguments, in: context.package.directoryURL)
        switch status {
        case 0: return
        case 1: throw SiteExecutable.Failure(description: "the sites differ")
        default: throw SiteExecutable.Failure(description: "the diff failed (exit \(status))")
        }
    }
}
