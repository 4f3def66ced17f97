import ArgumentParser
import Foundation
import HolocronKit

/// `holocron build`: parses the options into a ``BuildAction`` and runs it.
struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the site into a folder, replacing the previous site only when the build succeeds."
    )

    @Option(name: .shortAndLong, help: ArgumentHelp("The folder to write the site to.", valueName: "dir"))
    var output: String = "site"

    @OptionGroup var site: SiteOptions

    @Flag(help: "Replace the output folder even if holocron did not create it.")
    var force = false

    @Flag(name: .shortAndLong, help: "Print nothing but errors.")
    var quiet = false

    @Flag(help: "Also print where the build's time went, phase by phase.")
    var timings = false

    @Flag(help: "Fail the build (and keep the previous site) when flow lint finds anything at warning level.")
    var strict = false

    @Option(help: ArgumentHelp("A JSON file of flow lint settings (see `holocron lint --help`).", valueName: "file"))
    var lintConfig: String?

    func run() async throws {
        var action = site.action(output: output, force: force, quiet: quiet)
        action.strictFlowLint = strict
        action.endsProcess = true
        action.flowLint = try lintConfig.map { try LintSettings.load($0) }
        let report = try await action.run()
        if !quiet { print(report.sitemap || report.isUpToDate ? "\(report)" : "\(report) (pass --base-url to write one)") }
        if !quiet, let lint = report.flowLintSummary {
            print(lint.findings == 0 ? lint.line : "\(lint.line); run `holocron lint` for details")
        }
        if timings {
            print("Time by phase (seconds, summed over parallel tasks):")
            for (phase, seconds) in report.timings {
                print("  " + phase.padding(toLength: 26, withPad: " ", startingAt: 0) + String(format: "%7.3f", seconds))
            }
        }
    }
}

/// What decides a site's bytes: its data, templates and base URL. `build`, `check` and `serve`
/// share them, so a check or a preview makes exactly what a build makes.
struct SiteOptions: ParsableArguments {
    @OptionGroup(title: "Data")
    var fetch: FetchOptions

    @Option(help: ArgumentHelp("A folder of templates and assets that override the built-in ones, file by file.", valueName: "dir"))
    var templates: String?

    @Option(help: ArgumentHelp("The language of the site's words: \(BuildAction.languages.joined(separator: " or ")). Numbers, dates and plurals follow it; the data's own values stay as they are.", valueName: "code"))
    var language = "en"

    @Option(help: ArgumentHelp("Build a multilingual site: one tree per language under its code (en/, es/), a switcher on every page, and a root page listing the languages. Comma-separated codes, the first the default; en-XA and ar-XB are pseudo-locales for testing.", valueName: "codes"))
    var languages: String?

    @Option(help: ArgumentHelp("Build even when a language's table lacks keys: their text is shown in this language (en), marked on the page, and such pages get no hreflang alternate. Without it a missing translation fails the build.", valueName: "code"))
    var fallbackLanguage: String?

    /// The codes `--languages` lists, in order.
    var languageList: [String] {
        (languages ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    @Option(help: ArgumentHelp("The absolute URL the site will be served from: writes sitemap.xml, canonical and Open Graph links, and roots 404.html's links.", valueName: "url"))
    var baseURL: String?

    func validate() throws {
        if let baseURL {
            guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(),
                scheme == "http" || scheme == "https", url.host != nil
            else {
                throw ValidationError("--base-url '\(baseURL)' is not an absolute http(s) URL; write it like https://example.com/docs/.")
            }
        }
        guard BuildAction.languages.contains(language) else {
            throw ValidationError("--language '\(language)' has no string table; choose one of \(BuildAction.languages.joined(separator: ", ")).")
        }
        if languages != nil {
            guard language == "en" else { throw ValidationError("Give either --language or --languages, not both.") }
            guard !languageList.isEmpty else { throw ValidationError("--languages lists no language; write them like --languages en,es.") }
            for code in languageList where !BuildAction.languages.contains(code) {
                throw ValidationError("--languages: '\(code)' has no string table; choose from \(BuildAction.languages.joined(separator: ", ")).")
            }
            if let repeated = languageList.first(where: { code in languageList.filter { $0 == code }.count > 1 }) {
                throw ValidationError("--languages names '\(repeated)' twice.")
            }
        }
        if let fallbackLanguage, fallbackLanguage != BuildAction.referenceLanguage {
            throw ValidationError("--fallback-language '\(fallbackLanguage)': only \(BuildAction.referenceLanguage), the language every table is checked against, can stand in for a missing text.")
        }
        if let templates {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: templates, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--templates '\(templates)' is not a folder; give a folder holding layout.mustache and friends.")
            }
        }
    }

    /// The build these options describe, into `output`; `cacheBeside` places the default API
    /// cache (beside the real site, also when the build goes to a temporary folder).
    func action(output: String, cacheBeside: String? = nil, force: Bool, quiet: Bool) -> BuildAction {
        BuildAction(
            output: URL(fileURLWithPath: output),
            source: fetch.source(cacheBeside: URL(fileURLWithPath: cacheBeside ?? output)),
            templates: templates.map { URL(fileURLWithPath: $0) },
            baseURL: baseURL,
            language: language,
            languages: languageList,
            fallbackLanguage: fallbackLanguage,
            force: force,
            quiet: quiet
        )
    }
}

extension BuildCommand {
    /// The output folder of a command line that may be a `holocron build` with nothing to do,
    /// read before ArgumentParser parses it, so that the no-change check can look at the site's
    /// files meanwhile (``BuildAction/beginUnchangedSiteCheck(at:)``); `nil` for a command line
    /// that is not a build, or is one that never asks (`--force`, `--api`, help). A guess, never
    /// trusted: the build uses the check only when the folder it parsed is the same folder.
    static func outputToCheckEarly(in arguments: [String]) -> String? {
        guard arguments.first == "build" else { return nil }
        var output = "site"
        var index = 1
        while index < arguments.count {
            let argument = arguments[index]
            switch argument {
            case "--force", "--api", "--help", "-h", "--version", "--":
                return nil
            case "--output", "-o":
                guard index + 1 < arguments.count else { return nil }
                index += 1
                output = arguments[index]
            default:
                if argument.hasPrefix("--output=") { output = String(argument.dropFirst("--output=".count)) }
                if argument.hasPrefix("--api=") { return nil }
            }
            index += 1
        }
        return output
    }
}
