import Foundation
import PackagePlugin

/// `swift package diff-site OLD NEW [--format text|markdown|json]`: builds the package's site
/// executable and runs its `diff` command on two built sites (folders relative to the package),
/// printing what changed by screen kind. A difference is a report, not a failure; with
/// `--exit-code` (as `git diff --exit-code`) the command fails when the sites differ, for a CI
/// step that must stop on any change.
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
