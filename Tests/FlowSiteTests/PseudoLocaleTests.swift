import Foundation
import Testing

@testable import FlowSite

/// The pseudo-locales by Android's rules: every letter changed, placeholders kept, the text made
/// longer (en-XA) or mirrored (ar-XB), the same every time.
@Suite struct PseudoLocaleTests {
    @Test func accentedChangesEveryLetterKeepsPlaceholdersAndPadsToAtLeastHalfAsLongAgain() {
        let text = "Page {number} of {count}"
        let pseudo = PseudoLocale.accented.transform(text)
        #expect(pseudo.hasPrefix("[Þåĝé «{number}» öƒ «{count}»"), "\(pseudo)")
        #expect(pseudo.hasSuffix("]"))
        let words = pseudo.replacingOccurrences(of: "{number}", with: "").replacingOccurrences(of: "{count}", with: "")
            .split(separator: " ").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: "[]«»")) }
            .filter { !["one", "two", "three", "four", "five"].contains($0) }
        #expect(
            !words.joined().unicodeScalars.contains { $0.isASCII && CharacterSet.letters.contains($0) },
            "only the padding words stay plain: \(pseudo)")
        for sample in ["Films", "Search the archive", "The page you were looking for could not be found."] {
            let length = PseudoLocale.accented.transform(sample).count
            #expect(length * 2 >= sample.count * 3, "\(sample): \(length)")
            #expect(length <= sample.count * 2 + 12, "\(sample): \(length)")
        }
        #expect(PseudoLocale.accented.transform(text) == pseudo, "deterministic")
    }

    @Test func bidiWrapsEveryWordInARightToLeftOverrideAndLeavesPlaceholders() {
        let pseudo = PseudoLocale.bidi.transform("{count} films shown")
        #expect(pseudo == "{count} \u{200F}\u{202E}films\u{202C}\u{200F} \u{200F}\u{202E}shown\u{202C}\u{200F}")
        #expect(Locale.Language(identifier: PseudoLocale.bidi.code).characterDirection == .rightToLeft)
        #expect(Locale.Language(identifier: PseudoLocale.accented.code).characterDirection == .leftToRight)
    }

    @Test func aPseudoTableKeepsItsSourcesKeysLocaleAndPluralRules() throws {
        let source = StringTable(
            language: "en", file: "en.json", texts: ["a": "Close", "n.one": "{count} page", "n.other": "{count} pages"],
            settings: ["locale": "en-GB"])
        let table = PseudoLocale.bidi.table(from: source)
        #expect(table.language == "ar-XB")
        #expect(Set(table.texts.keys) == Set(source.texts.keys))
        #expect(table.settings == ["locale": "en-GB", "plurals": "en"])
        #expect(PseudoLocale(code: "EN-xa") == .accented)
        #expect(PseudoLocale(code: "en") == nil)
    }
}
