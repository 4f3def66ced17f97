import FlowSite
import Testing

/// ICU's CLDR plural rules, as the string tables use them.
@Suite struct PluralRulesTests {
    @Test func eachLanguageListsTheCategoriesCLDRGivesIt() throws {
        #expect(try PluralRules(language: "en").categories == [.one, .other])
        #expect(try PluralRules(language: "es").categories == [.one, .many, .other])
        #expect(try PluralRules(language: "ar").categories == [.zero, .one, .two, .few, .many, .other])
        #expect(try PluralRules(language: "ja").categories == [.other])
        // A pseudo-locale counts like the language it is made from.
        #expect(try PluralRules(language: "ar-XB").categories == [.zero, .one, .two, .few, .many, .other])
    }

    @Test func countsTakeTheirLanguagesForm() throws {
        let english = try PluralRules(language: "en")
        #expect([0, 1, 2, 21, 1_000].map(english.category) == [.other, .one, .other, .other, .other])
        let spanish = try PluralRules(language: "es")
        // "un millón de personajes": Spanish's many, past the cached small counts.
        #expect(
            [0, 1, 2, 1_000_000, 2_000_000, 1_000_001].map(spanish.category) == [
                .other, .one, .other, .many, .many, .other
            ])
        let arabic = try PluralRules(language: "ar")
        #expect(
            [0, 1, 2, 3, 10, 11, 99, 100, 102].map(arabic.category) == [
                .zero, .one, .two, .few, .few, .many, .many, .other, .other
            ])
    }
}
