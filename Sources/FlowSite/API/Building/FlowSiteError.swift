/// An error from building a site; its description says what went wrong, where, and what to do, in the words of
/// FlowSite's API (a command-line tool maps them to its own flags by ``reason``).
public struct FlowSiteError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Sendable {
        /// A file a page publishes has a name that could leave its folder.
        case invalidResourceName(String, route: String)
        /// Two routes want the same page path.
        case pathConflict(path: String, first: String, second: String)
        /// A route's page path collides with a file the site writer owns.
        case reservedPath(path: String, route: String)
        /// Screens could not be built and the app has no error screen for them.
        case screensFailed([(route: String, error: String)])
        /// Following a link ran the app's navigation code, which did not show the link's route.
        case navigationMismatch(page: String, label: String, route: String, shown: [String])
        /// Pages link to files that do not exist: each page with the link as written.
        case brokenLinks([(page: String, link: String)])
        /// A build step failed.
        case stepFailed(step: String, error: any Error)
        /// The output folder exists but was not made by a FlowSite build.
        case outputNotOwned(path: String)
        /// The output folder is one that must never be replaced.
        case outputForbidden(path: String, why: String)
        /// Another build of the same output folder holds its lock; `pid` is its process, if known.
        case outputBusy(path: String, pid: Int32?)
        /// A template could not be parsed or rendered.
        case template(name: String, message: String)
        /// A templates folder or file could not be read.
        case templatesUnreadable(path: String, message: String)
        /// A file that would be written exists already and is kept.
        case wouldOverwrite(path: String)
        /// Reading or writing a file failed.
        case fileSystem(path: String, message: String)
        /// A site folder to compare or serve could not be read.
        case siteUnreadable(path: String, message: String)
        /// cmark returned no output.
        case commonMarkFailed
        /// A flow lint configuration (from `file`, if any) can't be used: `message` names the field.
        case flowLintConfiguration(file: String?, message: String)
        /// Flow lint found holes in the flow and the build is strict about them.
        case flowLintFailed(summary: String, findings: [String])
        /// The languages of a multilingual build can't make one site: two share a code, or a page is missing in one.
        case languages(message: String)
        /// A flow coverage file or folder (``FlowGraph/Coverage/load(from:)``) is missing or isn't one.
        case flowCoverage(path: String, message: String)
        /// A string table file (``StringTable/init(language:file:json:)``) is not a flat JSON object of key and text.
        case stringTable(file: String, message: String)
        /// ICU has no usable plural rules for a language code (``PluralRules``).
        case pluralRules(language: String, message: String)
        /// Translations that lack keys or placeholders (``TranslationCheck``); the message names each once, sorted.
        case translations([TranslationCheck.Problem])
        /// A route other than the start route has the front page's path, ``RoutePath/root``, which belongs to
        /// the start route (or, when the start route lives elsewhere, to the page that leads to it).
        case rootTaken(route: String, startRoute: String, startPath: String)
        /// A coordinator was handed a route it does not own (see ``FlowSiteError/notOwned(_:by:)``).
        case routeNotOwned(route: String, coordinator: String)
        /// A page links outside the site to a URL that is not an absolute `https`, `http` or `mailto` one, or
        /// that holds control or bidirectional characters.
        case unsafeExternalLink(page: String, url: String, why: String)
    }

    /// What went wrong.
    public let reason: Reason

    /// An error for `reason`.
    public init(_ reason: Reason) { self.reason = reason }

    /// The error a child coordinator throws from ``Coordinator/makeScreen(for:)`` for a route that belongs to
    /// another coordinator: the build then fails naming both, as a parent that dispatched the route wrongly.
    public static func notOwned<R: Route>(_ route: R, by coordinator: some Coordinator<R>) -> FlowSiteError {
        FlowSiteError(.routeNotOwned(route: route.path.description, coordinator: "\(type(of: coordinator))"))
    }

    /// A flow lint configuration that can't be used.
    static func lintConfiguration(file: String?, _ message: String) -> FlowSiteError {
        FlowSiteError(.flowLintConfiguration(file: file, message: message))
    }

    public var description: String {
        switch reason {
        case .invalidResourceName(let name, let route):
            """
            The page of \(route) publishes a file named '\(name)', which is not allowed: use letters, digits, '.', \
            '-' and '_' only, without a leading dot, and not index.html.
            """
        case .pathConflict(let path, let first, let second):
            """
            Routes \(first) and \(second) both want the page \(path): give one of them another path \
            (for duplicate names, use Slug.suffixed).
            """
        case .reservedPath(let path, let route):
            """
            Route \(route) wants the page \(path), which the site writer reserves for its own files: \
            choose another path.
            """
        case .screensFailed(let failures):
            Wording.english("errorScreensFailed", count: failures.count) + "\n"
                + failures.map { "  - \($0.route): \($0.error)" }.joined(separator: "\n")
                    + """
                    \nFix the data or service behind each route, or return an error screen from the coordinator's \
                    errorScreen(for:error:).
                    """
        case .navigationMismatch(let page, let label, let route, let shown):
            "The link '\(label)' on \(page) leads to \(route), but following it showed "
                + (shown.isEmpty ? "nothing" : shown.joined(separator: ", "))
                + ". A coordinator's navigate(_:from:in:) must show the action's own route, once"
                + (shown.isEmpty ? " (to go back to the page below, show it as .back)." : ".")
        case .brokenLinks(let links):
            Wording.english("errorBrokenLinks", count: links.count) + "\n"
                + links.map { "  - \($0.page): \($0.link)" }.joined(separator: "\n")
                + "\nEach link must point at a page or file of the site."
        case .stepFailed(let step, let error):
            "The build step '\(step)' failed: \(error). The previous site was left as it was."
        case .outputNotOwned(let path):
            """
            The output folder \(path) exists and was not made by a FlowSite build (it has no \(SiteLayout.marker) \
            marker and is not empty): choose another output folder, or set force to replace it.
            """
        case .outputForbidden(let path, let why):
            "Refusing to write the site to \(path): \(why). Choose another output folder."
        case .outputBusy(let path, let pid):
            """
            Another build of \(path) is running\(pid.map { " (pid \($0))" } ?? ""): wait for it to finish and \
            build again, or choose another output folder.
            """
        case .template(let name, let message):
            """
            Template \(name) failed: \(message). Fix the template, or remove it from the templates folder \
            to use the default.
            """
        case .templatesUnreadable(let path, let message):
            "Cannot read templates at \(path): \(message). Check the templates folder."
        case .wouldOverwrite(let path):
            "Refusing to overwrite \(path), which exists already: choose a new folder, or move the file away."
        case .fileSystem(let path, let message):
            "Cannot write \(path): \(message). Check the folder's permissions and free space."
        case .siteUnreadable(let path, let message):
            "Cannot read the site at \(path): \(message). Build it there first."
        case .commonMarkFailed:
            "cmark returned no HTML; the Markdown may be too large for memory."
        case .flowLintConfiguration(let file, let message):
            "The flow lint configuration\(file.map { " \($0)" } ?? "") can't be used: \(message)."
        case .flowLintFailed(let summary, let findings):
            "\(summary), and the build is strict about them; the previous site was left as it was:\n"
                + findings.prefix(20).map { "  - \($0)" }.joined(separator: "\n")
                + (findings.count > 20 ? "\n  … and \(findings.count - 20) more" : "")
                    + """
                    \nFix them, or turn a rule off or suppress a finding (with its reason) in the flow lint \
                    configuration.
                    """
        case .languages(let message):
            "The languages can't make one site: \(message). The previous site was left as it was."
        case .flowCoverage(let path, let message):
            """
            Cannot read the flow coverage at \(path): \(message). Give the folder the app's coverage tests write \
            (the `.flowCoverage()` trait's), or a file in it; run the tests to make it.
            """
        case .stringTable(let file, let message):
            "\(file): \(message). Fix the file and rebuild."
        case .pluralRules(let language, let message):
            """
            No plural rules for language '\(language)': \(message). Use a BCP 47 code ICU knows, \
            such as en, es or ar.
            """
        case .translations(let problems):
            TranslationCheck.report(problems)
        case .rootTaken(let route, let startRoute, let startPath):
            """
            Route \(route) has the front page's path /, but the start route is \(startRoute) (\(startPath)): the \
            front page is the start route's. Give \(route) a path of its own (such as ["setup"]); the front page then \
            leads to \(startPath).
            """
        case .routeNotOwned(let route, let coordinator):
            """
            \(coordinator) was asked for the screen of \(route), which it does not own: the coordinator above it \
            must hand each route to the child that owns it.
            """
        case .unsafeExternalLink(let page, let url, let why):
            """
            The page \(page) links to \(url), which \(why): an external link must be an absolute https, http or \
            mailto URL without control or bidirectional characters.
            """
        }
    }
}

/// A link on a written page that points at nothing.
struct BrokenLink: Sendable, Hashable, CustomStringConvertible {
    /// The page holding the link, relative to the site root.
    let page: String
    /// The link as written in the page.
    let link: String

    var description: String { "\(page): \(link)" }
}
