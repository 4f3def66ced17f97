import Mustache

/// The one escaper for every value the engine hands to a template.
///
/// It works on Unicode scalars, never on `Character`s: a `<` that shares a grapheme cluster with
/// a Prepend scalar before it (U+0600) or a combining mark after it (U+0301) is still a `<` to an
/// HTML parser, and a `Character`-based lookup misses it. Control characters other than ASCII
/// whitespace, and noncharacters, are parse errors in HTML; they become U+FFFD, as a parser does
/// with NUL.
enum HTMLEscaping {
    /// `text` safe as element content and inside a quoted attribute value.
    static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsWork) else { return text }
        var out = String.UnicodeScalarView()
        out.reserveCapacity(text.unicodeScalars.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out.append(contentsOf: "&amp;".unicodeScalars)
            case "<": out.append(contentsOf: "&lt;".unicodeScalars)
            case ">": out.append(contentsOf: "&gt;".unicodeScalars)
            case "\"": out.append(contentsOf: "&quot;".unicodeScalars)
            case "'": out.append(contentsOf: "&#39;".unicodeScalars)
            default: out.append(isForbidden(scalar) ? "\u{FFFD}" : scalar)
            }
        }
        return String(out)
    }

    /// Appends the escaped form of `text` to `out` as UTF-8: the renderer's hot path.
    static func append(_ text: String, to out: inout [UInt8]) {
        var clean = true
        for byte in text.utf8 {
            switch byte {
            case 0x09, 0x0A, 0x0C, 0x0D: continue
            case 0x00...0x1F, UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0x7F:
                clean = false
            // Lead bytes of C1 controls (C2), U+FDD0…U+FFFF (EF) and the supplementary planes,
            // where the other noncharacters are: look closer.
            case 0xC2, 0xEF, 0xF0...0xF4:
                clean = false
            default: continue
            }
            if !clean { break }
        }
        if clean {
            out.append(contentsOf: text.utf8)
        } else {
            out.append(contentsOf: escape(text).utf8)
        }
    }

    private static func needsWork(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "&", "<", ">", "\"", "'": true
        default: isForbidden(scalar)
        }
    }

    /// Control characters that are not ASCII whitespace (C0, DEL, C1) and noncharacters: what the
    /// HTML standard calls parse errors in the input stream.
    static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0C, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0xFDD0...0xFDEF: true
        default: scalar.value & 0xFFFE == 0xFFFE
        }
    }
}

/// The content type every template is parsed with, so `{{value}}` is escaped by
/// ``HTMLEscaping`` and never by the template library's own escaper.
struct HTMLValueContentType: MustacheContentType {
    /// The name templates select it by; ``PageRenderer`` puts the pragma at the top of each.
    static let name = "HOLOCRON_HTML"
    /// Registers the content type with the template library once per process.
    static let registered: String = {
        MustacheContentTypes.register(HTMLValueContentType(), named: name)
        return "{{% CONTENT_TYPE: \(name) }}"
    }()

    func escapeText(_ text: String) -> String { HTMLEscaping.escape(text) }
}
