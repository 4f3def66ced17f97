/// Compares a language's string table with the reference language's, key by key: what a build in that language
/// would show wrong, one problem per language and key.
///
/// ```swift
/// let problems = TranslationCheck(reference: english).problems(of: spanish, rules: try PluralRules(language: "es"))
/// if !problems.isEmpty { throw FlowSiteError(.translations(problems)) }
/// ```
public struct TranslationCheck: Sendable {
    /// The table every other is held to (the language the app is written in).
    public let reference: StringTable
    /// Placeholders that may stand for one another, such as `{kind}` for `{Kinds}` where grammar wants another form.
    public let interchangeable: [Set<String>]

    /// A check against `reference`, letting each set of `interchangeable` placeholders stand for one another.
    public init(reference: StringTable, interchangeable: [Set<String>] = []) {
        self.reference = reference
        self.interchangeable = interchangeable
    }

    /// The reference's plural keys: `base` for every `base.other` with another category beside it.
    public var pluralKeys: Set<String> {
        var keys: Set<String> = []
        for key in reference.texts.keys where key.hasSuffix(".other") {
            let base = String(key.dropLast(".other".count))
            if PluralRules.Category.allCases.contains(where: {
                $0 != .other && reference.texts["\(base).\($0.rawValue)"] != nil
            }) {
                keys.insert(base)
            }
        }
        return keys
    }

    /// Every problem of `table`, a translation whose language has plural `rules`, sorted by kind and key.
    public func problems(of table: StringTable, rules: PluralRules) -> [Problem] {
        let plurals = pluralKeys
        var problems: Set<Problem> = []
        func problem(_ kind: Problem.Kind, _ key: String, at location: String, _ detail: String) {
            problems.insert(Problem(kind: kind, language: table.language, key: key, location: location, detail: detail))
        }
        var expected: Set<String> = []
        for (key, text) in reference.texts {
            let base = plurals.first {
                key.hasPrefix($0 + ".") && PluralRules.Category(rawValue: String(key.dropFirst($0.count + 1))) != nil
            }
            if base != nil { continue }
            expected.insert(key)
            guard let translated = table.texts[key] else {
                problem(.missing, key, at: reference.location(of: key), "not in \(table.file); add its text")
                continue
            }
            if let mismatch = placeholderMismatch(translated, reference: text) {
                problem(.placeholderMismatch, key, at: table.location(of: key), mismatch)
            }
        }
        for base in plurals {
            let other = reference.texts["\(base).other"] ?? ""
            for category in rules.categories {
                let key = "\(base).\(category.rawValue)"
                expected.insert(key)
                guard let translated = table.texts[key] else {
                    let uses = rules.categories.map(\.rawValue).joined(separator: ", ")
                    problem(
                        .missingPluralCategory, key,
                        at: table.lines[base + ".other"].map { "\(table.file):\($0)" }
                            ?? reference.location(of: "\(base).other"),
                        "\(table.language) counts with \(uses) (CLDR); add \(key)")
                    continue
                }
                // A form for one thing may say "one" in words instead of filling {count}.
                if let mismatch = placeholderMismatch(translated, reference: other, mayOmit: ["count"]) {
                    problem(.placeholderMismatch, key, at: table.location(of: key), mismatch)
                }
            }
        }
        for key in table.texts.keys where !expected.contains(key) {
            let base = plurals.first { key.hasPrefix($0 + ".") }
            let detail =
                base == nil
                ? "\(reference.file) has no such key; remove it or add it there"
                : """
                \(table.language) has no plural category '\(key.split(separator: ".").last ?? "")' (it uses \
                \(rules.categories.map(\.rawValue).joined(separator: ", "))); remove it
                """
            problem(.unusedKey, key, at: table.location(of: key), detail)
        }
        return problems.sorted()
    }

    /// What differs between the placeholders of a translation and of its reference, or `nil`.
    func placeholderMismatch(_ text: String, reference: String, mayOmit: Set<String> = []) -> String? {
        let found = StringTable.placeholders(in: text)
        let wanted = StringTable.placeholders(in: reference)
        func family(_ name: String) -> Set<String> { interchangeable.first { $0.contains(name) } ?? [name] }
        let extra = found.filter { family($0).isDisjoint(with: wanted) }.sorted()
        let lacking = wanted.filter { !mayOmit.contains($0) && family($0).isDisjoint(with: found) }.sorted()
        if extra.isEmpty && lacking.isEmpty { return nil }
        var parts: [String] = []
        if !extra.isEmpty {
            parts.append(
                "has \(extra.map { "{\($0)}" }.joined(separator: ", ")), which \(self.reference.language) does not fill"
            )
        }
        if !lacking.isEmpty { parts.append("lacks \(lacking.map { "{\($0)}" }.joined(separator: ", "))") }
        return parts.joined(separator: " and ")
    }
}

extension TranslationCheck {
    /// One thing wrong with one key of one language's strings.
    public struct Problem: Hashable, Comparable, Sendable, CustomStringConvertible {
        /// What is wrong, in the order a report lists them.
        public enum Kind: String, CaseIterable, Sendable, Comparable {
            /// The reference has the key and this language lacks it.
            case missing = "missing"
            /// The text fills other placeholders than the reference's.
            case placeholderMismatch = "placeholder mismatch"
            /// A counted text lacks a plural form the language uses.
            case missingPluralCategory = "missing plural category"
            /// The language has a key the reference doesn't: nothing shows it.
            case unusedKey = "unused key"

            public static func < (a: Self, b: Self) -> Bool {
                allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
            }
        }

        /// What is wrong.
        public let kind: Kind
        /// The language of the table that has the problem.
        public let language: String
        /// The key with the problem.
        public let key: String
        /// `file:line` of the key (for a missing key, where the reference defines it).
        public let location: String
        /// The problem in a sentence, such as which placeholders differ.
        public let detail: String

        public var description: String { "\(language) \(key) (\(location)): \(detail)" }

        /// Whether a build that falls back to the reference language can go on despite it: yes for a missing text
        /// or plural form; a wrong placeholder or an unused key still fails it.
        public var fallsBack: Bool { kind == .missing || kind == .missingPluralCategory }

        public static func < (a: Self, b: Self) -> Bool {
            (a.kind, a.language, a.key, a.location) < (b.kind, b.language, b.key, b.location)
        }
    }
}

extension TranslationCheck {
    /// One heading per kind of problem with its count, then one line per language and key.
    static func report(_ problems: [Problem]) -> String {
        let problems = Array(Set(problems)).sorted()
        let languages = Set(problems.map(\.language)).sorted()
        var lines = [
            Wording.english("countTranslationProblems", count: problems.count)
                + " in \(languages.joined(separator: ", ")):"
        ]
        for kind in Problem.Kind.allCases {
            let ofKind = problems.filter { $0.kind == kind }
            guard !ofKind.isEmpty else { continue }
            lines.append("  \(kind.rawValue) (\(ofKind.count)):")
            lines += ofKind.map { "    \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}
