import CICU

/// A language's CLDR plural rules, from ICU: which form of a counted phrase a number takes ("1 film", "2 films").
///
/// ```swift
/// let rules = try PluralRules(language: "es")
/// rules.categories             // [.one, .many, .other]
/// rules.category(for: 1)       // .one
/// rules.category(for: 2)       // .other
/// ```
public final class PluralRules: Sendable {
    /// A CLDR plural category.
    public enum Category: String, CaseIterable, Sendable, Comparable {
        /// The form for zero, in languages that have one (Arabic, Latvian).
        case zero
        /// The form for one, and in some languages for other numbers too (21 in Russian).
        case one
        /// The form for two (Arabic, Welsh).
        case two
        /// The form for a few (2–4 in Czech, 3–10 in Arabic).
        case few
        /// The form for many (5 and up in Polish, a million in Spanish).
        case many
        /// The general form, which every language has.
        case other

        public static func < (a: Self, b: Self) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// The language the rules are for, as asked.
    public let language: String
    /// The categories the language uses, in CLDR's order (`zero` … `other`).
    public let categories: [Category]
    /// The category of each count below ``cached``, which saves an ICU call per count.
    private let small: [Category]
    private static let cached = 1_000

    /// The rules of `language`, a BCP 47 code such as `en`, `es` or `ar`.
    /// - Throws: ``FlowSiteError`` when ICU has no rules for the code.
    public init(language: String) throws(FlowSiteError) {
        self.language = language
        let icuLocale = language.replacingOccurrences(of: "-", with: "_")
        var error: Int32 = 0
        guard let rules = cicu_plural_rules_open(icuLocale, &error) else {
            throw FlowSiteError(
                .pluralRules(language: language, message: "ICU has no plural rules for it (error \(error))"))
        }
        defer { cicu_plural_rules_close(rules) }

        var buffer = [CChar](repeating: 0, count: 64)
        guard cicu_plural_rules_categories(rules, &buffer, Int32(buffer.count)) >= 0 else {
            throw FlowSiteError(.pluralRules(language: language, message: "ICU could not list its plural categories"))
        }
        let names = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let found = Set(names.split(separator: " ").compactMap { Category(rawValue: String($0)) })
        guard found.contains(.other) else {
            throw FlowSiteError(.pluralRules(language: language, message: "ICU lists no plural categories for it"))
        }
        categories = Category.allCases.filter(found.contains)

        var small: [Category] = []
        small.reserveCapacity(Self.cached)
        for count in 0..<Self.cached {
            small.append(try Self.select(Double(count), rules: rules, language: language))
        }
        self.small = small
        self.icuLocale = icuLocale
    }

    /// ICU's name of the language. Counts past the cache open the rules again: a shared ICU handle would need a lock.
    private let icuLocale: String

    /// The category a count takes.
    public func category(for count: Int) -> Category {
        if count >= 0 && count < Self.cached { return small[count] }
        var error: Int32 = 0
        guard let rules = cicu_plural_rules_open(icuLocale, &error) else { return .other }
        defer { cicu_plural_rules_close(rules) }
        return (try? Self.select(Double(count), rules: rules, language: language)) ?? .other
    }

    private static func select(
        _ number: Double, rules: UnsafeMutableRawPointer, language: String
    ) throws(FlowSiteError) -> Category {
        var keyword = [CChar](repeating: 0, count: 16)
        let length = cicu_plural_rules_select(rules, number, &keyword, Int32(keyword.count))
        guard length > 0 else {
            throw FlowSiteError(
                .pluralRules(language: language, message: "ICU could not choose a category for \(number)"))
        }
        let name = String(decoding: keyword.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return Category(rawValue: name) ?? .other
    }
}
