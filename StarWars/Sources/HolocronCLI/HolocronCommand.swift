import ArgumentParser
import FlowSiteCommandLine
import Foundation
import HolocronKit

/// `holocron`: the Star Wars app's site executable. Its `build`, `serve`, `lint` and `graph`
/// are FlowSiteCommandLine's, with the app's data and language options; `diff` also builds
/// both sides from data folders; `check`, `snapshot` and `templates` are the app's own.
extension StarWarsSite: SiteApp {
    public init(options: StarWarsOptions) {
        self.init(
            source: options.fetch.source(), language: options.language, languages: options.languageList,
            fallbackLanguage: options.fallbackLanguage, stringsFolder: options.strings.map(URL.init(fileURLWithPath:)))
        cacheBesideOutput = options.fetch.api != nil && options.fetch.cache == nil
    }

    public static var commandLine: SiteCommandLine {
        SiteCommandLine(
            name: "holocron",
            abstract: "Turn an MVVM-C app's navigation graph into a static site, one page per screen.",
            version: HolocronVersion.current,
            moreCommands: [DiffCommand.self, CheckCommand.self, SnapshotCommand.self, TemplatesCommand.self],
            defaultOutput: "site",
            buildsByDefault: true
        )
    }
}

/// The Star Wars app's own options: where its data comes from and the language of its words.
public struct StarWarsOptions: ParsableArguments {
    @OptionGroup(title: "Data")
    var fetch: FetchOptions

    @Option(
        help: ArgumentHelp(
            """
            The language of the site's words: \(StarWarsSite.languages.joined(separator: " or ")). Numbers, \
            dates and plurals follow it; the data's own values stay as they are.
            """,
            valueName: "code"))
    var language = "en"

    @Option(
        help: ArgumentHelp(
            """
            Build a multilingual site: one tree per language under its code (en/, es/), a switcher on every page, \
            and a root page listing the languages. Comma-separated codes, the first the default; \
            en-XA and ar-XB are pseudo-locales for testing.
            """,
            valueName: "codes"))
    var languages: String?

    @Option(
        help: ArgumentHelp(
            """
            Build even when a language's table lacks keys: their text is shown in this language (en), \
            marked on the page, and such pages get no hreflang alternate. \
            Without it a missing translation fails the build.
            """,
            valueName: "code"))
    var fallbackLanguage: String?

    @Option(
        help: ArgumentHelp(
            """
            A folder of string tables to try a translation without compiling the app: each <code>.json \
            there (a copy of Sources/StarWarsApp/Resources/Strings/en.json, translated) adds a language or \
            takes the place of the compiled-in table of its language.
            """,
            valueName: "folder"))
    var strings: String?

    public init() {}

    /// The codes `--languages` lists, in order.
    var languageList: [String] {
        (languages ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    public func validate() throws {
        let known: [String]
        if let strings {
            do {
                known = try StarWarsSite.languages(withStringsIn: URL(fileURLWithPath: strings))
            } catch {
                throw ValidationError("--strings: \(error)")
            }
        } else {
            known = StarWarsSite.languages
        }
        guard known.contains(language) else {
            throw ValidationError(
                "--language '\(language)' has no string table; choose one of \(known.joined(separator: ", ")).")
        }
        if languages != nil {
            guard language == "en" else { throw ValidationError("Give either --language or --languages, not both.") }
            guard !languageList.isEmpty else {
                throw ValidationError("--languages lists no language; write them like --languages en,es.")
            }
            for code in languageList where !known.contains(code) {
                throw ValidationError(
                    "--languages: '\(code)' has no string table; choose from \(known.joined(separator: ", ")).")
            }
            if let repeated = languageList.first(where: { code in languageList.filter { $0 == code }.count > 1 }) {
                throw ValidationError("--languages names '\(repeated)' twice.")
            }
        }
        if let fallbackLanguage, fallbackLanguage != StarWarsSite.referenceLanguage {
            throw ValidationError(
                """
                --fallback-language '\(fallbackLanguage)': only \(StarWarsSite.referenceLanguage), \
                the language every table is checked against, can stand in for a missing text.
                """
            )
        }
    }
}

/// A build of the Star Wars site: the library's build of ``StarWarsSite``.
public typealias BuildAction = SiteBuildAction<StarWarsSite>

extension SiteBuildAction where App == StarWarsSite {
    /// A build of the Star Wars site from `source` into `output`.
    public init(
        output: URL, source: DataSource = .embedded, templates: URL? = nil, baseURL: String? = nil,
        language: String = "en", languages: [String] = [], fallbackLanguage: String? = nil, force: Bool = false,
        quiet: Bool = false,
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) {
        let app = StarWarsSite(
            source: source, language: language, languages: languages, fallbackLanguage: fallbackLanguage, sleep: sleep)
        self.init(app: app, output: output, templates: templates, baseURL: baseURL, force: force, quiet: quiet)
    }
}

/// The version `holocron --version` prints and SARIF logs name.
enum HolocronVersion {
    static let current = "0.1.0"
}
