import FlowSite
import Foundation
import Logging

/// FlowSite's errors in the command line's terms: its flags, not the API's parameters (`force`, `templates`).
package enum CommandLineMessage {
    /// The program's name as the user typed it, for messages that say what to run next.
    package static var programName: String {
        CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "site"
    }

    /// A command's log: warnings and errors on standard error, terminal-safe; only errors when quiet.
    package static func logger(quiet: Bool) -> Logger {
        var logger = Logger(label: programName) {
            TerminalSafeLogHandler(base: StreamLogHandler.standardError(label: $0))
        }
        logger.logLevel = quiet ? .error : .info
        return logger
    }

    package static func text(for error: FlowSiteError) -> String {
        switch error.reason {
        case .outputNotOwned(let path):
            """
            The output folder \(path) exists and was not made by a FlowSite build (it has no \(SiteLayout.marker) \
            marker and is not empty): choose another --output, or pass --force to replace it.
            """
        case .outputForbidden(let path, let why):
            "Refusing to write the site to \(path): \(why). Choose another --output; --force does not change this."
        case .template(let name, let message):
            """
            Template \(name) failed: \(message). Fix the template, or remove it from the --templates folder to use \
            the built-in one.
            """
        case .templatesUnreadable(let path, let message):
            "Cannot read templates at \(path): \(message). Check the --templates folder."
        case .siteUnreadable(let path, let message):
            "Cannot read the site at \(path): \(message). Build it first with `\(programName) build --output \(path)`."
        case .flowCoverage(let path, let message):
            """
            Cannot read the flow coverage at \(path): \(message). Give --coverage the folder the app's \
            `.flowCoverage()` tests write (or a file in it); run the tests to make it.
            """
        default:
            error.description
        }
    }
}
