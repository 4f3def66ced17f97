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
    /// Each key's text in the order of `Key.allCases` (see ``Key/ordinal``), English's where
    /// the language's table lacks it, or the key itself.
    private let texts: [String]

    /// The strings of `language`, one of ``languages``.
    public init(language: String) throws {
        if language == Self.english.language {
            self = .english
            return
        }
        guard let json = Self.tables.first(where: { $0.language == language })?.json else {
            throw UnsupportedLanguage(language: language, available: Self.languages)
        }
        self.init(language: language, table: try Self.parse(json, language: language))
    }

    /// Strings from a table of key → text; keys the table lacks fall back to English.
    init(language: String, table: [String: String]) {
        self.language = language
        let english = language == "en" ? nil : Self.english
        texts = Key.allCases.map { key in table[key.rawValue] ?? english?.text(for: key) ?? key.rawValue }
    }

    /// English, the language the site is built in unless another is chosen.
    public static let english: Strings = {
        let language = "en"
        guard let json = tables.first(where: { $0.language == language })?.json else {
            fatalError("No English string table is registered in Strings.tables.")
        }
        do {
            return Strings(language: language, table: try parse(json, language: language))
        } catch {
            // The table is compiled in: only an edit of en.json gets here, and the tests catch it.
            fatalError("\(error)")
        }
    }()

    /// The codes of the languages the app has a table for.
    public static var languages: [String] { tables.map(\.language) }

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
    func localizedString(_ key: Key, about kind: ResourceKind, _ arguments: KeyValuePairs<String, String> = [:]) -> String {
        Self.fill(text(for: key)) { name in
            if let value = Self.value(named: name, in: arguments) { return value }
            switch name {
            case "Kind": return self.name(of: kind)
            case "Kinds": return self.name(of: kind, plural: true)
            case "kind": return self.name(of: kind, inText: true)
            case "kinds": return self.name(of: kind, plural: true, inText: true)
            default: return nil
            }
        }
    }

    /// The table's text for `key`, English's when the table lacks it, or the key itself.
    private func text(for key: Key) -> String { texts[key.ordinal] }

    private static func value(named name: Substring, in arguments: KeyValuePairs<String, String>) -> String? {
        for (key, value) in arguments where key.utf8.elementsEqual(name.utf8) { return value }
        return nil
    }

    /// What a kind of resource is called: one ("Character") or many ("Characters"), as a
    /// title or within a sentence ("character").
    func name(of kind: ResourceKind, plural: Bool = false, inText: Bool = false) -> String {
        localizedString(.kindName(kind, plural: plural, inText: inText))
    }

    /// The raw table of a registered language, as its JSON file has it.
    static func table(_ language: String) throws -> [String: String] {
        guard let json = tables.first(where: { $0.language == language })?.json else {
            throw UnsupportedLanguage(language: language, available: languages)
        }
        return try parse(json, language: language)
    }

    static func parse(_ json: [UInt8], language: String) throws -> [String: String] {
        do {
            return try JSONDecoder().decode([String: String].self, from: Data(json))
        } catch {
            throw MalformedTable(language: language, underlying: error)
        }
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
            let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
            guard var start = bytes.firstIndex(of: open) else { return String(decoding: bytes, as: UTF8.self) }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 32)
            var copied = 0  // bytes before this are in `out`
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
        "The app has no strings in '\(language)'. Choose one of \(available.joined(separator: ", ")), or add Sources/StarWarsApp/Resources/Strings/\(language).json and register it in Strings.tables."
    }
}

/// A compiled-in string table is not a flat JSON object of strings.
struct MalformedTable: Error, CustomStringConvertible {
    let language: String
    let underlying: any Error

    var description: String {
        "Resources/Strings/\(language).json is not a flat JSON object of key → text: \(underlying). Fix the file and rebuild."
    }
}
