import Foundation

/// A made-up language for testing a translated site without translators, by Android's rules: another table's
/// texts transformed, so a hard-coded text stands out in English.
///
/// - ``accented`` (`en-XA`): letters accented, each text in brackets and padded to show truncation, and every
///   `{placeholder}` marked `«…»` and kept.
/// - ``bidi`` (`ar-XB`): every word in a right-to-left override, so English reads mirrored in a `dir="rtl"` page.
///
/// Only the texts change: a table keeps its source's settings, and `plurals` names the source's language.
public enum PseudoLocale: String, CaseIterable, Sendable {
    /// `en-XA`: accented, longer English, for text that is cut or not translated.
    case accented = "en-XA"
    /// `ar-XB`: mirrored English in a right-to-left layout.
    case bidi = "ar-XB"

    /// The pseudo-locale with BCP 47 code `code`, if it is one.
    public init?(code: String) {
        guard let locale = Self.allCases.first(where: { $0.rawValue.caseInsensitiveCompare(code) == .orderedSame })
        else { return nil }
        self = locale
    }

    /// The locale's code (`en-XA`, `ar-XB`).
    public var code: String { rawValue }

    /// `table` with every text transformed, under this locale's code.
    public func table(from table: StringTable) -> StringTable {
        var settings = table.settings
        settings["plurals"] = settings["plurals"] ?? table.language
        return StringTable(
            language: code, file: table.file, texts: table.texts.mapValues(transform), settings: settings,
            lines: table.lines)
    }

    /// One text transformed; `{placeholders}` are kept as they are.
    public func transform(_ text: String) -> String {
        let parts = Self.split(text)
        switch self {
        case .accented:
            var out = "["
            var length = 0
            for part in parts {
                switch part {
                case .text(let words):
                    length += words.count
                    out.unicodeScalars.append(contentsOf: words.unicodeScalars.map(Self.accented))
                case .placeholder(let name):
                    out += "«{\(name)}»"
                }
            }
            // Pad to half as long again (about 1.5–2× with the brackets and marks), as Android does.
            var padding = 0
            var word = 0
            while padding * 2 < max(length, 2) {
                let extra = Self.paddingWords[word % Self.paddingWords.count]
                out += " " + extra
                padding += extra.count + 1
                word += 1
            }
            return out + "]"
        case .bidi:
            var out = ""
            for part in parts {
                switch part {
                case .placeholder(let name):
                    out += "{\(name)}"
                case .text(let words):
                    // Each run of non-spaces wrapped; spaces and punctuation between runs kept.
                    var word = ""
                    func flush() {
                        guard !word.isEmpty else { return }
                        out += "\u{200F}\u{202E}" + word + "\u{202C}\u{200F}"
                        word = ""
                    }
                    for character in words {
                        if character.isWhitespace {
                            flush()
                            out.append(character)
                        } else {
                            word.append(character)
                        }
                    }
                    flush()
                }
            }
            return out
        }
    }

    private enum Part { case text(String), placeholder(String) }

    /// The text cut into runs of words and `{placeholders}`.
    private static func split(_ text: String) -> [Part] {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            if open > rest.startIndex { parts.append(.text(String(rest[..<open]))) }
            parts.append(.placeholder(String(rest[rest.index(after: open)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        return parts
    }

    private static let paddingWords = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// An ASCII letter's accented look-alike; anything else as it is.
    private static func accented(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        guard scalar.isASCII, let index = letters.firstIndex(of: Character(scalar)) else { return scalar }
        return accents.unicodeScalars[
            accents.unicodeScalars.index(
                accents.unicodeScalars.startIndex, offsetBy: letters.distance(from: letters.startIndex, to: index))]
    }

    private static let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    private static let accents = "åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýžÅßÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ"
}
