import Foundation

/// One language's UI strings as its file holds them: a flat JSON object of key → text, each key with its line.
/// Keys starting with `@` are settings: `"@locale"`, the locale for numbers and dates, and `"@plurals"`, the
/// language whose plural rules pick its forms when not its own. A counted text has one key per CLDR plural
/// category the language uses (`list.count.one`, `list.count.other`; see ``PluralRules``).
public struct StringTable: Sendable {
    /// The language's BCP 47 code, such as `en`, `es` or `ar`.
    public let language: String
    /// Where the table comes from, as problems name it (`Resources/Strings/es.json`).
    public let file: String
    /// Every text by key, settings left out.
    public let texts: [String: String]
    /// The table's settings, by key without the `@`.
    public let settings: [String: String]
    /// The line of each key in the file, from 1.
    public let lines: [String: Int]

    /// A table of `texts` for `language`, as read from `file`, with its settings and each key's line.
    public init(
        language: String, file: String, texts: [String: String], settings: [String: String] = [:],
        lines: [String: Int] = [:]
    ) {
        self.language = language
        self.file = file
        self.texts = texts
        self.settings = settings
        self.lines = lines
    }

    /// Reads a table from its JSON bytes.
    /// - Throws: ``FlowSiteError`` naming the file when it is not a flat object of strings.
    public init(language: String, file: String, json: [UInt8]) throws(FlowSiteError) {
        let object: [String: String]
        do {
            object = try JSONDecoder().decode([String: String].self, from: Data(json))
        } catch {
            throw FlowSiteError(
                .stringTable(file: file, message: "it is not a flat JSON object of key → text (\(error))"))
        }
        var texts: [String: String] = [:]
        var settings: [String: String] = [:]
        for (key, value) in object {
            if key.hasPrefix("@") { settings[String(key.dropFirst())] = value } else { texts[key] = value }
        }
        self.init(language: language, file: file, texts: texts, settings: settings, lines: Self.keyLines(json))
    }

    /// The line each key starts on: the first string of a line that a colon follows.
    static func keyLines(_ json: [UInt8]) -> [String: Int] {
        var lines: [String: Int] = [:]
        var line = 1
        for text in json.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            defer { line += 1 }
            guard let open = text.firstIndex(of: UInt8(ascii: "\"")) else { continue }
            var index = open + 1
            var key: [UInt8] = []
            while index < text.endIndex, text[index] != UInt8(ascii: "\"") {
                if text[index] == UInt8(ascii: "\\") { index += 1 }
                if index < text.endIndex { key.append(text[index]) }
                index += 1
            }
            let rest = text[min(index + 1, text.endIndex)...].drop { $0 == UInt8(ascii: " ") }
            if rest.first == UInt8(ascii: ":") { lines[String(decoding: key, as: UTF8.self)] = line }
        }
        return lines
    }

    /// `file:line` of `key`, or the file alone when the key isn't in it.
    public func location(of key: String) -> String {
        lines[key].map { "\(file):\($0)" } ?? file
    }

    /// The `{name}` placeholders of a text.
    public static func placeholders(in text: String) -> Set<String> {
        var names: Set<String> = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.insert(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}
