/// Turns SWAPI's raw strings into readable text: units, digit grouping, "unknown" → "Unknown",
/// "n/a" → "Not applicable". Numbers that already have commas ("1,358") are kept as written.
public enum Format {
    /// A plain value: capitalised, with SWAPI's special words spelled out.
    public static func text(_ raw: String) -> String {
        if let special = special(raw) { return special }
        return capitalizedFirst(raw.trimmedSpaces)
    }

    /// A number with a unit: `172` → `172 cm`, `200000` → `200,000`; non-numbers as ``text(_:)``.
    public static func quantity(_ raw: String, unit: String? = nil) -> String {
        if let special = special(raw) { return special }
        let trimmed = raw.trimmedSpaces
        guard isNumber(trimmed) else { return text(trimmed) }
        let grouped = trimmed.contains(",") ? trimmed : groupDigits(trimmed)
        guard let unit else { return grouped }
        return unit == "%" ? grouped + "%" : grouped + " " + unit
    }

    /// A birth year: `19BBY` → `19 BBY`, `41.9BBY` → `41.9 BBY`.
    public static func birthYear(_ raw: String) -> String {
        if let special = special(raw) { return special }
        for era in ["BBY", "ABY"] where raw.hasSuffix(era) {
            return String(raw.dropLast(3)).trimmedSpaces + " " + era
        }
        return raw
    }

    /// An ISO date: `1977-05-25` → `25 May 1977`.
    public static func date(_ raw: String) -> String {
        if let special = special(raw) { return special }
        let parts = raw.split(separator: "-")
        let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]
        guard parts.count == 3, let month = Int(parts[1]), (1...12).contains(month), let day = Int(parts[2]) else { return raw }
        return "\(day) \(months[month - 1]) \(parts[0])"
    }

    /// An episode number in Roman numerals: 4 → `Episode IV`.
    public static func episode(_ number: Int?) -> String {
        guard let number, number > 0, number < 40 else { return "Episode unknown" }
        let numerals = [(10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
        var rest = number
        var roman = ""
        for (value, letters) in numerals {
            while rest >= value {
                roman += letters
                rest -= value
            }
        }
        return "Episode \(roman)"
    }

    /// SWAPI's words for "no value": `unknown`, `n/a`, `none`, `indefinite` and empty.
    static func special(_ raw: String) -> String? {
        switch raw.trimmedSpaces.lowercased() {
        case "", "unknown": "Unknown"
        case "n/a": "Not applicable"
        case "none": "None"
        case "indefinite": "Indefinite"
        default: nil
        }
    }

    static func isNumber(_ text: String) -> Bool {
        var digits = 0
        var dots = 0
        for (index, character) in text.enumerated() {
            if character.isASCII && character.isNumber { digits += 1 }
            else if character == "." { dots += 1 }
            else if character == "," { continue }
            else if character == "-" && index == 0 { continue }
            else { return false }
        }
        return digits > 0 && dots <= 1
    }

    /// `1234567.5` → `1,234,567.5`.
    static func groupDigits(_ number: String) -> String {
        let negative = number.hasPrefix("-")
        let unsigned = negative ? String(number.dropFirst()) : number
        let parts = unsigned.split(separator: ".", omittingEmptySubsequences: false)
        let whole = Array(parts[0])
        var grouped = ""
        for (index, digit) in whole.enumerated() {
            if index > 0 && (whole.count - index) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        if parts.count > 1 { grouped += "." + parts[1] }
        return (negative ? "-" : "") + grouped
    }

    static func capitalizedFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }
}

extension String {
    /// Without leading and trailing spaces and tabs.
    var trimmedSpaces: String {
        var scalars = Substring(self).unicodeScalars
        while let first = scalars.first, first == " " || first == "\t" { scalars.removeFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars.removeLast() }
        return String(scalars)
    }
}
