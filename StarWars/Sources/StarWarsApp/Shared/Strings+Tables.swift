import FlowSite
import Foundation

/// The string tables the app can speak: those compiled into the binary (each
/// `Resources/Strings/<code>.json`, embedded by FlowSite's EmbedFiles plugin), and a folder's given
/// at run time (`holocron build --strings <folder>`), each of which adds a language or takes the
/// place of the compiled-in table of its language, so a translation can be tried without
/// compiling the app.
///
/// To add a language for good: copy `Resources/Strings/en.json` to `<code>.json` and translate
/// every value (keep the keys and the `{placeholders}`). No other file changes.
public struct StringTables: Sendable {
    /// Each language's table as its file's bytes, sorted by code, and whether it was read at run time.
    private let files: [Table]

    private struct Table: Sendable {
        var language: String
        var file: String
        var json: [UInt8]
        var readAtRunTime = false
    }

    /// The tables compiled into the binary.
    public static let compiledIn = StringTables(
        files: EmbeddedFiles.files.compactMap { path, text in
            guard path.hasPrefix("Strings/"), path.hasSuffix(".json") else { return nil }
            let language = String(path.dropFirst("Strings/".count).dropLast(".json".count))
            return Table(language: language, file: "Sources/StarWarsApp/Resources/\(path)", json: Array(text.utf8))
        }.sorted { $0.language < $1.language })

    private init(files: [Table]) {
        self.files = files
    }

    /// The compiled-in tables, with each `<code>.json` file in `folder` in place of the compiled-in
    /// table of its language or as a language of its own. Other files are left alone.
    ///
    /// - Throws: ``FlowSiteError`` naming the folder when it can't be read, or the file that is not
    ///   named by a language code, is English's (the table every other is checked against), or is a
    ///   pseudo-locale's (made from English). A table's own content is checked when it is used.
    public init(folder: URL) throws {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        } catch {
            throw FlowSiteError(
                .stringTable(
                    file: folder.path,
                    message: "the folder of string tables can't be read (\(error.localizedDescription))"))
        }
        var byLanguage = Dictionary(uniqueKeysWithValues: Self.compiledIn.files.map { ($0.language, $0) })
        for name in names where name.hasSuffix(".json") && !name.hasPrefix(".") {
            let language = String(name.dropLast(".json".count))
            let path = folder.appendingPathComponent(name).path
            func refuse(_ message: String) -> FlowSiteError {
                FlowSiteError(.stringTable(file: path, message: message))
            }
            guard language.wholeMatch(of: /[a-z]{2,3}(-[A-Za-z0-9]{2,8})*/) != nil else {
                throw refuse("its name is not a language code: name a table like fr.json or pt-BR.json")
            }
            guard language != Strings.english.language else {
                throw refuse(
                    """
                    English is the table every other is checked against, so it can't be replaced at run time: \
                    change Sources/StarWarsApp/Resources/Strings/en.json instead
                    """)
            }
            guard PseudoLocale(code: language) == nil else {
                throw refuse("\(language) is a pseudo-locale, made from English; it has no table of its own")
            }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw refuse("it can't be read")
            }
            byLanguage[language] = Table(language: language, file: path, json: Array(data), readAtRunTime: true)
        }
        files = byLanguage.values.sorted { $0.language < $1.language }
    }

    /// The codes of the languages there is a table for, then the pseudo-locales made from English
    /// (``PseudoLocale``).
    public var languages: [String] { files.map(\.language) + PseudoLocale.allCases.map(\.code) }

    /// The table of `language` as its file has it, or a pseudo-locale's, made from English's.
    public func table(_ language: String) throws -> StringTable {
        if let pseudo = PseudoLocale(code: language) {
            return pseudo.table(from: try table(Strings.english.language))
        }
        guard let table = files.first(where: { $0.language == language }) else {
            throw UnsupportedLanguage(language: language, available: languages)
        }
        return try StringTable(language: language, file: table.file, json: table.json)
    }

    /// The app's words in `language`. With `marksFallback`, the texts that fall back to English
    /// are reported to the page showing them (``StringTable/shownInFallbackLanguage(_:)``).
    public func strings(in language: String, marksFallback: Bool = false) throws -> Strings {
        if language == Strings.english.language { return .english }
        var revision: String?
        if let file = files.first(where: { $0.language == language && $0.readAtRunTime }) {
            var hash = StableHash()
            hash.combine(file.json)
            revision = "strings \(language) \(hash)"
        }
        return Strings(try table(language), marksFallback: marksFallback, revision: revision)
    }

    /// What is wrong with `language`'s table against English's: missing keys, placeholders that
    /// differ, plural categories the language needs (by CLDR) and keys nothing uses.
    public func problems(of language: String) throws -> [TranslationCheck.Problem] {
        // A pseudo-locale is English transformed: nothing can be missing.
        if PseudoLocale(code: language) != nil { return [] }
        // English is the table every other is held to; a kind's name may take any of its forms.
        let check = TranslationCheck(
            reference: try table(Strings.english.language), interchangeable: [["Kind", "Kinds", "kind", "kinds"]])
        return check.problems(of: try table(language), rules: try PluralRules(language: language))
    }
}
