import FlowSiteUtilities

/// Turns any text into Markdown that cmark renders as exactly that text.
///
/// Inline markers always get a backslash; `-`, `+`, `=` and `1.`/`1)` only at a line's start. Whitespace runs
/// become one space (inline text has no line structure). Control characters and noncharacters become U+FFFD
/// (HTML parse errors; cmark passes all but NUL through); U+FEFF becomes a character reference (cmark ignores
/// one at a document's start).
enum MarkdownEscaping {
    /// Safe anywhere inline text may stand.
    /// - Parameter atLineStart: whether `-`, `+`, `=` and `1.` would start a block here.
    static func escape(_ text: String, atLineStart: Bool = true) -> String {
        if isPlain(text) { return text }
        var out: [UInt8] = []
        append(text, atLineStart: atLineStart, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// ``escape(_:atLineStart:)`` into UTF-8 bytes: the Markdown writer's path for text that is not plain.
    static func append(_ text: String, atLineStart: Bool, to out: inout [UInt8]) {
        let start = out.count
        var pendingSpace = false
        var lineStart = atLineStart // still inside the leading run where block markers count
        var leadingDigits = 0
        for scalar in text.unicodeScalars {
            if isCollapsibleWhitespace(scalar) {
                pendingSpace = true
                if leadingDigits > 0 { lineStart = false }
                continue
            }
            if pendingSpace {
                out.append(UInt8(ascii: " "))
                pendingSpace = false
            }
            if scalar.isASCII {
                if HTMLEscaping.isForbidden(scalar) {
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD]) // U+FFFD
                    continue
                }
                let digit = ("0"..."9").contains(scalar)
                if alwaysEscaped(scalar)
                    || (lineStart && leadingDigits == 0 && (scalar == "-" || scalar == "+" || scalar == "="))
                    || (lineStart && leadingDigits > 0 && (scalar == "." || scalar == ")"))
                {
                    out.append(UInt8(ascii: "\\"))
                }
                out.append(UInt8(scalar.value))
                if lineStart && digit {
                    leadingDigits += 1
                } else {
                    lineStart = false
                }
            } else {
                if HTMLEscaping.isForbidden(scalar) {
                    out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                } else if scalar == "\u{FEFF}" {
                    out.append(contentsOf: "&#xFEFF;".utf8)
                } else {
                    UTF8.encode(scalar) { out.append($0) }
                    lineStart = false
                }
            }
        }
        if pendingSpace {
            out.append(UInt8(ascii: " "))
        } else if out.count > start, out[out.count - 1] == UInt8(ascii: "!") {
            // The next piece may be a link, and "![" starts an image.
            out.insert(UInt8(ascii: "\\"), at: out.count - 1)
        }
    }

    /// Needs no escaping: starts with a letter, holds only letters, digits, single spaces and meaningless
    /// punctuation, and doesn't end with `!` (a following link would become an image) or a space.
    static func isPlain(_ text: String) -> Bool {
        var previousSpace = false
        var first = true
        var last: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                previousSpace = false
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"),
                UInt8(ascii: "."),
                UInt8(ascii: "'"), UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "%"), UInt8(ascii: "("),
                UInt8(ascii: ")"),
                UInt8(ascii: "?"), UInt8(ascii: "-"), UInt8(ascii: "!"):
                if first { return false }
                previousSpace = false
            case UInt8(ascii: " "):
                if first || previousSpace { return false }
                previousSpace = true
            default:
                return false
            }
            first = false
            last = byte
        }
        return !first && last != UInt8(ascii: "!") && last != UInt8(ascii: " ")
    }

    static func alwaysEscaped(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "\\", "`", "*", "_", "[", "]", "<", ">", "&", "#", "~", "|": true
        default: false
        }
    }

    /// The text cmark will show for `text`: what ``escape(_:)`` keeps, before block trimming.
    static func normalize(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isCollapsibleWhitespace(scalar) {
                pendingSpace = true
                continue
            }
            if pendingSpace {
                out.append(" ")
                pendingSpace = false
            }
            out.append(HTMLEscaping.isForbidden(scalar) ? "\u{FFFD}" : scalar)
        }
        if pendingSpace { out.append(" ") }
        return String(out)
    }

    /// The whitespace CommonMark gives structure to.
    static func isCollapsibleWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", "\t", "\n", "\r", "\u{0B}", "\u{0C}": true
        default: false
        }
    }

    /// The characters CommonMark allows a backslash before.
    static func isASCIIPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E: true
        default: false
        }
    }

    /// Punctuation as CommonMark's emphasis rules see it: ASCII punctuation, Unicode punctuation and symbols.
    static func isPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        // Every ASCII symbol is in the ASCII set.
        if scalar.isASCII { return isASCIIPunctuation(scalar) }
        switch scalar.properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation,
            .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return true
        default:
            return false
        }
    }

    /// Whitespace as CommonMark's emphasis rules see it.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        // The only ASCII space separator, " ", is collapsible whitespace too.
        scalar.isASCII ? isCollapsibleWhitespace(scalar) : scalar.properties.generalCategory == .spaceSeparator
    }
}
