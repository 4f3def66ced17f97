import FlowSite
import Foundation
import SWAPI

/// The app's words in one language: every label, heading and message a reader sees, looked up
/// by key in that language's string table, with `{name}` placeholders filled from arguments.
///
/// The tables are `Resources/Strings/<language>.json`, flat JSON objects of key → text,
/// compiled into the binary so the site builds from any folder. View models and screens get
/// their `Strings` through their dependencies (``HasStrings``), so a new language is a new table
/// and no view model changes:
///
/// ```swift
/// let strings = try Strings(language: "en")
/// strings.localizedString(.pagerPosition, ["page": "2", "count": "9"])  // "Page 2 of 9"
/// ```
///
/// A key that a table lacks falls back to English, so a text never vanishes; the app's tests
/// check that every table holds exactly the English keys.
public struct Strings: Sendable {
    /// The language's code, such as `en`; the site's pages declare it as their `lang`.
    public let language: String
    /// The locale numbers and dates are formatted for: the table's `@locale`, or the language.
    public let locale: Locale
    /// The language's CLDR plural rules, which pick a counted text's form.
    public let pluralRules: PluralRules
    /// Each key's text in the order of `Key.allCases` (see ``Key/ordinal``), English's where
    /// the language's table lacks it, or the key itself. A plural key's texts are in
    /// ``pluralTexts``, and here its `other` form.
    private let texts: [String]
    /// Each plural key's text per category (in `PluralRules.Category.allCases` order), by the
    /// key's ordinal; a category the table lacks has its `other` text.
    private let pluralTexts: [Int: [String]]
    /// The layout's words (FlowSite's labels: the skip link, pagination, the flow map…): the
    /// table's `layout.*` texts by label name, English's where the table lacks one.
    public let layoutLabels: [String: String]
    /// The language whose text stands in for a key the table lacks, when the build falls back
    /// instead of failing: such texts are reported as they are handed out
    /// (``StringTable/shownInFallbackLanguage(_:)``).
    public let fallbackLanguage: String?
    /// Which keys (by ordinal) show the fallback language's text.
    private let fellBack: [Bool]
    /// The fingerprint of a table read at run time (``StringTables/init(folder:)``), which the program does not
    /// carry: the site's ``SiteInfo/revision``. `nil` for a compiled-in table.
    public let revision: String?
    /// Numbers and dates formatted once per distinct value: each call to Foundation's
    /// formatters is costly, and a large archive repeats the same values on many pages.
    let formatted: FormattedValues

    /// The strings of `language` from the compiled-in tables, one of ``StringTables/languages``.
    public init(language: String, marksFallback: Bool = false) throws {
        self = try StringTables.compiledIn.strings(in: language, marksFallback: marksFallback)
    }

    /// Strings from a table of key → text; keys the table lacks fall back to English.
    init(language: String, table: [String: String]) {
        self.init(StringTable(language: language, file: "\(language).json", texts: table))
    }

    /// Strings from a table; keys the table lacks fall back to English. With `marksFallback`,
    /// the texts that do are reported to the page showing them (``StringTable/shownInFallbackLanguage(_:)``).
    init(_ table: StringTable, marksFallback: Bool = false, revision: String? = nil) {
        language = table.language
        self.revision = revision
        locale = Locale(identifier: table.settings["locale"] ?? table.language)
        // Every language code the app accepts has rules: ICU falls back to the root rules.
        pluralRules =
            (try? PluralRules(language: table.settings["plurals"] ?? table.language)) ?? Self.english.pluralRules
        let english = table.language == "en" ? nil : Self.english
        let categories = PluralRules.Category.allCases
        // A plural key's text without a count is its `other` form.
        texts = Key.allCases.map { key in
            table.texts[key.isPlural ? "\(key.rawValue).other" : key.rawValue] ?? english?.text(for: key)
                ?? key.rawValue
        }
        let missing = Key.allCases.map { key in
            table.texts[key.isPlural ? "\(key.rawValue).other" : key.rawValue] == nil
        }
        fellBack = marksFallback ? missing : missing.map { _ in false }
        fallbackLanguage = marksFallback && missing.contains(true) ? english?.language : nil
        var labels = english?.layoutLabels ?? [:]
        for (key, text) in table.texts where key.hasPrefix("layout.") {
            labels[String(key.dropFirst("layout.".count))] = text
        }
        layoutLabels = labels
        var plurals: [Int: [String]] = [:]
        for key in Key.allCases where key.isPlural {
            let other = texts[key.ordinal]
            plurals[key.ordinal] = categories.map { table.texts["\(key.rawValue).\($0.rawValue)"] ?? other }
        }
        pluralTexts = plurals
        formatted = FormattedValues(locale: locale)
    }

    /// English, the language the site is built in unless another is chosen.
    public static let english: Strings = {
        do {
            return Strings(try StringTables.compiledIn.table("en"))
        } catch {
            // The table is compiled in: only an edit of en.json gets here, and the tests catch it.
            fatalError("\(error)")
        }
    }()

    /// The text for `key`, with each `{name}` placeholder replaced by `arguments[name]`.
    ///
    /// A placeholder without an argument stays as written, so a forgotten value shows.
    func localizedString(_ key: Key, _ arguments: KeyValuePairs<String, String> = [:]) -> String {
        let template = text(for: key)
        if arguments.isEmpty { return template }
        return Self.fill(template) { name in Self.value(named: name, in: arguments) }
    }

    /// The text for `key`, a message about `kind`: besides `arguments`, the placeholders
    /// `{Kind}` and `{Kinds}` are the kind's name as a title ("Character", "Characters") and
    /// `{kind}` and `{kinds}` as it reads within a sentence ("character", "characters").
    func localizedString(
        _ key: Key, about kind: ResourceKind, _ arguments: KeyValuePairs<String, String> = [:]
    ) -> String {
        Self.fill(text(for: key)) { name in Self.value(named: name, in: arguments) ?? self.kindName(name, of: kind) }
    }

    /// The kind's name for a `{Kind}`, `{Kinds}`, `{kind}` or `{kinds}` placeholder.
    private func kindName(_ placeholder: Substring, of kind: ResourceKind) -> String? {
        switch placeholder {
        case "Kind": name(of: kind)
        case "Kinds": name(of: kind, plural: true)
        case "kind": name(of: kind, inText: true)
        case "kinds": name(of: kind, plural: true, inText: true)
        default: nil
        }
    }

    /// The text for a plural `key` in the form `count` takes, about `kind`, with `{count}` filled
    /// with the count as the language writes numbers.
    func localizedString(
        _ key: Key, count: Int, about kind: ResourceKind, _ arguments: KeyValuePairs<String, String> = [:]
    ) -> String {
        let category = pluralRules.category(for: count)
        let form = pluralTexts[key.ordinal]?[PluralRules.Category.allCases.firstIndex(of: category)!] ?? key.rawValue
        let number = formatted.integer(count)
        return Self.fill(form) { name in
            name == "count" ? number : Self.value(named: name, in: arguments) ?? self.kindName(name, of: kind)
        }
    }

    /// The table's text for `key`, English's when the table lacks it, or the key itself.
    private func text(for key: Key) -> String {
        let text = texts[key.ordinal]
        if fellBack[key.ordinal] { StringTable.shownInFallbackLanguage(text) }
        return text
    }

    private static func value(named name: Substring, in arguments: KeyValuePairs<String, String>) -> String? {
        for (key, value) in arguments where key.utf8.elementsEqual(name.utf8) { return value }
        return nil
    }

    /// What a kind of resource is called: one ("Character") or many ("Characters"), as a
    /// title or within a sentence ("character").
    func name(of kind: ResourceKind, plural: Bool = false, inText: Bool = false) -> String {
        localizedString(.kindName(kind, plural: plural, inText: inText))
    }

    /// `template` with every `{name}` that `arguments` has a value for replaced by it. Values
    /// are inserted as they are: a value holding `{…}` is not filled again.
    static func fill(_ template: String, with arguments: [String: String]) -> String {
        arguments.isEmpty ? template : fill(template) { arguments[String($0)] }
    }

    /// `template` with every `{name}` that `value` knows replaced by its value, in one pass.
    static func fill(_ template: String, value: (Substring) -> String?) -> String {
        var template = template
        return template.withUTF8 { bytes -> String in
            let open = UInt8(ascii: "{")
            let close = UInt8(ascii: "}")
            guard var start = bytes.firstIndex(of: open) else { return String(decoding: bytes, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 32)
            var copied = 0 // bytes before this are in `out`
            while true {
                let nameStart = start + 1
                guard let end = bytes[nameStart...].firstIndex(of: close) else { break }
                let name = Substring(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<end]), as: UTF8.self)
                var next = nameStart
                if var text = value(name) {
                    out.append(contentsOf: bytes[copied..<start])
                    text.withUTF8 { out.append(contentsOf: $0) }
                    copied = end + 1
                    next = end + 1
                }
                guard let found = bytes[next...].firstIndex(of: open) else { break }
                start = found
            }
            out.append(contentsOf: bytes[copied...])
            return String(decoding: out, as: UTF8.self)
        }
    }
}

/// A language was asked for that the app has no string table for.
public struct UnsupportedLanguage: Error, CustomStringConvertible {
    /// The code asked for.
    public let language: String
    /// The codes the app has tables for.
    public let available: [String]

    public var description: String {
        """
        The app has no strings in '\(language)'. Choose one of \(available.joined(separator: ", ")), \
        or add Sources/StarWarsApp/Resources/Strings/\(language).json (or try it first as \(language).json in a \
        folder given to --strings).
        """
    }
}
