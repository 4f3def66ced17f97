import FlowSite
import Foundation
import SWAPI

/// Turns SWAPI's raw strings into readable text in the site's language: units, numbers and dates
/// as the language's locale writes them (Foundation's formatters: `200,000` in English,
/// `200.000` in Spanish), "unknown" → "Unknown", "n/a" → "Not applicable".
///
/// ```swift
/// let format = Format(.english)
/// format.quantity("172", unit: .centimetres)  // "172 cm"
/// ```
public struct Format: Sendable {
    /// The words and units.
    let strings: Strings

    public init(_ strings: Strings) {
        self.strings = strings
    }

    /// A unit a quantity is measured in; each language writes its own ("{value} cm").
    public enum Unit: Sendable, CaseIterable {
        case centimetres, metres, kilometres, kilograms, hours, days, years, percent, credits, kilometresPerHour,
            megalights

        var key: Strings.Key {
            switch self {
            case .centimetres: .unitCentimetres
            case .metres: .unitMetres
            case .kilometres: .unitKilometres
            case .kilograms: .unitKilograms
            case .hours: .unitHours
            case .days: .unitDays
            case .years: .unitYears
            case .percent: .unitPercent
            case .credits: .unitCredits
            case .kilometresPerHour: .unitKilometresPerHour
            case .megalights: .unitMegalights
            }
        }
    }

    /// A plain value: capitalised, with SWAPI's special words spelled out.
    public func text(_ raw: String) -> String {
        if let special = special(raw) { return special }
        return Self.capitalizedFirst(raw.trimmedSpaces)
    }

    /// A number with a unit: `172` → `172 cm`, `200000` → `200,000` (`200.000` in Spanish);
    /// non-numbers as ``text(_:)``. A number written with grouping commas ("1,358") is read
    /// without them; one whose commas aren't thousands groups is kept as written.
    public func quantity(_ raw: String, unit: Unit? = nil) -> String {
        if let special = special(raw) { return special }
        let trimmed = raw.trimmedSpaces
        guard Self.isNumber(trimmed) else { return text(trimmed) }
        let number = strings.formatted.number(trimmed)
        guard let unit else { return number }
        return strings.localizedString(unit.key, ["value": number])
    }

    /// A measurement that is never zero for a real thing (a height, a mass, a length, a
    /// diameter, a day, a year, a speed): SWAPI writes `0` there when it does not know, as for
    /// its placeholder planet "unknown", so zero reads "Unknown"; anything else as
    /// ``quantity(_:unit:)``.
    public func measurement(_ raw: String, unit: Unit) -> String {
        let trimmed = raw.trimmedSpaces
        if Self.isNumber(trimmed), Double(trimmed.filter { $0 != "," }) == 0 {
            return strings.localizedString(.formatUnknown)
        }
        return quantity(trimmed, unit: unit)
    }

    /// A length of time written as text (`2 months`, `1 day`): SWAPI's `0` means there is none.
    public func duration(_ raw: String) -> String {
        let trimmed = raw.trimmedSpaces
        if Self.isNumber(trimmed), Double(trimmed.filter { $0 != "," }) == 0 {
            return strings.localizedString(.formatNone)
        }
        return text(trimmed)
    }

    /// A resource's name as the site shows it: SWAPI's placeholder planet is named `unknown`,
    /// which reads "Unknown planet"; every other name as it is.
    public func name(_ raw: String, of kind: ResourceKind) -> String {
        kind == .planets && raw.trimmedSpaces.lowercased() == "unknown"
            ? strings.localizedString(.planetsUnknownName) : raw
    }

    /// A birth year: `19BBY` → `19 BBY`, `41.9BBY` → `41.9 BBY` (`41,9 ABY` in Spanish).
    public func birthYear(_ raw: String) -> String {
        if let special = special(raw) { return special }
        for (era, key) in [("BBY", Strings.Key.formatBeforeYavin), ("ABY", .formatAfterYavin)] where raw.hasSuffix(era)
        {
            let year = String(raw.dropLast(3)).trimmedSpaces
            return strings.localizedString(key, ["year": Self.isNumber(year) ? strings.formatted.number(year) : year])
        }
        return raw
    }

    /// An ISO date, as the locale writes a date in full: `1977-05-25` → `25 May 1977` (en-GB),
    /// `25 de mayo de 1977` (es).
    public func date(_ raw: String) -> String {
        if let special = special(raw) { return special }
        return strings.formatted.date(raw) ?? raw
    }

    /// An episode number in Roman numerals: 4 → `Episode IV`.
    public func episode(_ number: Int?) -> String {
        guard let number, number > 0, number < 40 else { return strings.localizedString(.formatEpisodeUnknown) }
        let numerals = [(10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
        var rest = number
        var roman = ""
        for (value, letters) in numerals {
            while rest >= value {
                roman += letters
                rest -= value
            }
        }
        return strings.localizedString(.formatEpisode, ["number": roman])
    }

    /// SWAPI's words for "no value": `unknown`, `n/a`, `none`, `indefinite` and empty.
    func special(_ raw: String) -> String? {
        // The longest word is ten letters; longer values (most of them) need no lowercasing.
        let trimmed = raw.trimmedSpaces
        guard trimmed.utf8.count <= 10 else { return nil }
        switch trimmed.lowercased() {
        case "", "unknown": return strings.localizedString(.formatUnknown)
        case "n/a": return strings.localizedString(.formatNotApplicable)
        case "none": return strings.localizedString(.formatNone)
        case "indefinite": return strings.localizedString(.formatIndefinite)
        default: return nil
        }
    }

    /// Digits with at most one `.`, any `,` and a leading `-`.
    static func isNumber(_ text: String) -> Bool {
        var digits = 0
        var dots = 0
        for (index, byte) in text.utf8.enumerated() {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
            case UInt8(ascii: "."): dots += 1
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "-") where index == 0: continue
            default: return false
            }
        }
        return digits > 0 && dots <= 1
    }

    static func capitalizedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmedSpaces: String {
        let utf8 = self.utf8
        guard let first = utf8.first, let last = utf8.last else { return self }
        let blank: (UInt8) -> Bool = { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
        if !blank(first) && !blank(last) { return self }
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}

/// A locale's numbers and dates, as Foundation's formatters write them.
///
/// Numbers are the hot part (a large archive has a distinct height, mass or population on
/// nearly every page, and a call to Foundation's formatters is costly): the locale's minus sign,
/// grouping and decimal separators and the digits it starts grouping at are read once from
/// Foundation's own output (``NumberSymbols``), and a number SWAPI wrote in plain digits is then
/// written with them; a test holds the two to the same output over random numbers. A locale
/// whose numbers don't have that shape (other digits, groups of two) and anything unusual go
/// through Foundation, each distinct value once.
final class FormattedValues: Sendable {
    let locale: Locale
    private let integers: IntegerFormatStyle<Int64>
    private let symbols: NumberSymbols?
    private let cache = Locked<[String: String]>([:])
    private let dates = Locked<[String: String?]>([:])

    init(locale: Locale) {
        self.locale = locale
        integers = IntegerFormatStyle<Int64>.number.locale(locale)
        symbols = NumberSymbols(integers: integers, locale: locale)
    }

    /// A count as the locale writes it.
    func integer(_ value: Int) -> String {
        number(String(value))
    }

    /// A number SWAPI wrote (digits, one `.`, grouping `,`, a leading `-`), as the locale
    /// writes it with as many decimals as SWAPI gave.
    func number(_ raw: String) -> String {
        if let symbols, let plain = Self.withoutGrouping(raw), let written = symbols.write(plain) { return written }
        return foundationNumber(raw)
    }

    /// `raw` as Foundation's formatters write it, each distinct value once.
    func foundationNumber(_ raw: String) -> String {
        if let known = cache.withLock({ $0[raw] }) { return known }
        let made = Self.format(raw, integers: integers, locale: locale)
        cache.withLock { $0[raw] = made }
        return made
    }

    private static func format(_ raw: String, integers: IntegerFormatStyle<Int64>, locale: Locale) -> String {
        guard let plain = withoutGrouping(raw) else { return raw }
        let parts = plain.split(separator: ".", omittingEmptySubsequences: false)
        if parts.count == 1 {
            guard let value = Int64(plain) else { return raw }
            return integers.format(value)
        }
        guard let value = Double(plain), parts[1].count <= 15 else { return raw }
        return value.formatted(.number.locale(locale).precision(.fractionLength(parts[1].count)).grouping(.automatic))
    }

    /// `raw` without its grouping commas, or `nil` when they aren't groups of three digits
    /// before the point.
    static func withoutGrouping(_ raw: String) -> String? {
        guard raw.utf8.contains(UInt8(ascii: ",")) else { return raw }
        let whole = raw.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)[0].drop { $0 == "-" }
        let groups = whole.split(separator: ",", omittingEmptySubsequences: false)
        guard let first = groups.first, (1...3).contains(first.count), groups.dropFirst().allSatisfy({ $0.count == 3 })
        else { return nil }
        return raw.replacingOccurrences(of: ",", with: "")
    }

    /// An ISO date (`1977-05-25`) in full, or `nil` when it isn't one.
    func date(_ raw: String) -> String? {
        if let known = dates.withLock({ $0[raw] }) { return known }
        let made = Self.formatDate(raw, locale: locale)
        dates.withLock { $0[raw] = made }
        return made
    }

    private static func formatDate(_ raw: String, locale: Locale) -> String? {
        let parts = raw.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(identifier: "UTC") else { return nil }
        calendar.timeZone = utc
        let components = DateComponents(year: year, month: month, day: day)
        guard components.isValidDate(in: calendar), let date = calendar.date(from: components) else { return nil }
        return date.formatted(
            Date.FormatStyle(date: .long, time: .omitted, locale: locale, calendar: calendar, timeZone: utc))
    }
}

/// What a locale's numbers are made of, read from Foundation's output for a few probes: the
/// minus sign, the grouping separator (every three digits), the decimal separator and the number
/// of digits from which grouping starts (`2000` in Spanish, `2,000` in English). `nil` when the
/// probes don't have that shape, so Foundation writes every number.
struct NumberSymbols: Sendable {
    let minus: [UInt8]
    let group: [UInt8]
    let decimal: [UInt8]
    /// The fewest digits before the point that get grouped: 4 (English) or 5 (Spanish).
    let groupingFrom: Int

    init?(integers: IntegerFormatStyle<Int64>, locale: Locale) {
        func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
        let million = bytes(integers.format(1_234_567))
        guard million.first == UInt8(ascii: "1"), million.suffix(3) == [0x35, 0x36, 0x37] else { return nil }
        // "1" group "234" group "567"
        let middle = million.dropFirst().dropLast(3)
        guard let start = middle.firstRange(of: [0x32, 0x33, 0x34]) else { return nil }
        let group = Array(middle[middle.startIndex..<start.lowerBound])
        guard !group.isEmpty, Array(middle[start.upperBound...]) == group else { return nil }
        let four = bytes(integers.format(1_234))
        let five = bytes(integers.format(12_345))
        let groupingFrom: Int
        if four == bytes("1") + group + bytes("234") {
            groupingFrom = 4
        } else if four == bytes("1234"), five == bytes("12") + group + bytes("345") {
            groupingFrom = 5
        } else {
            return nil
        }
        let negative = bytes(integers.format(-5))
        guard negative.last == UInt8(ascii: "5") else { return nil }
        let half = bytes(1.5.formatted(.number.locale(locale).precision(.fractionLength(1)).grouping(.automatic)))
        guard half.first == UInt8(ascii: "1"), half.last == UInt8(ascii: "5"), half.count > 2 else { return nil }
        minus = Array(negative.dropLast())
        self.group = group
        decimal = Array(half.dropFirst().dropLast())
        self.groupingFrom = groupingFrom
    }

    /// `plain` (ASCII digits, at most one `.`, a leading `-`, no grouping) with the locale's
    /// symbols, or `nil` for anything else (a bare point, no digits, leading zeros).
    func write(_ plain: String) -> String? {
        var text = plain
        return text.withUTF8 { bytes -> String? in
            var rest = bytes[...]
            let negative = rest.first == UInt8(ascii: "-")
            if negative { rest = rest.dropFirst() }
            let point = rest.firstIndex(of: UInt8(ascii: ".")) ?? rest.endIndex
            let whole = rest[rest.startIndex..<point]
            let fraction = point < rest.endIndex ? rest[(point + 1)...] : rest[rest.endIndex...]
            let isDigit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard !whole.isEmpty, whole.allSatisfy(isDigit), fraction.allSatisfy(isDigit),
                point == rest.endIndex || !fraction.isEmpty, fraction.count <= 15,
                whole.count == 1 || whole.first != UInt8(ascii: "0"), whole.count <= 18
            else { return nil }
            // Foundation writes -0 as 0.
            if negative && whole.allSatisfy({ $0 == UInt8(ascii: "0") })
                && fraction.allSatisfy({ $0 == UInt8(ascii: "0") })
            {
                return nil
            }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + whole.count / 3 * group.count + minus.count + decimal.count)
            if negative { out += minus }
            let grouped = whole.count >= groupingFrom
            for (index, digit) in whole.enumerated() {
                if grouped && index > 0 && (whole.count - index) % 3 == 0 { out += group }
                out.append(digit)
            }
            if !fraction.isEmpty {
                out += decimal
                out += fraction
            }
            return String(decoding: out, as: UTF8.self)
        }
    }
}
