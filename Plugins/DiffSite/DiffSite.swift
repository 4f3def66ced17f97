import Foundation
import PackagePlugin

/// `swift package diff-site OLD NEW [--format text|markdown|json]`: runs the site executable's `diff` on two built
/// sites (folders relative to the package). A difference is not a failure unless `--exit-code` (as `git diff`).
@main struct DiffSite: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var arguments = ArgumentExtractor(arguments)
        let failsOnChange = arguments.extractFlag(named: "exit-code") > 0
        let site = try SiteExecutable(context: context, packageManager: packageManager, arguments: &arguments)
        let status = try site.run(["diff"] + arguments.remainingArguments, in: context.package.directoryURL)
        switch status {
        case 0: return
        case 1 where !failsOnChange: return
        case 1: throw SiteExecutable.Failure(description: "the sites differ (--exit-code): the report above says how")
        default:
            throw SiteExecutable.Failure(
                description: "the site executable's diff failed (exit \(status)); its message is above")
        }
    }
}
