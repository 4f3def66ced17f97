/// The one escaper for every value the engine hands to a template. Works on Unicode scalars, never `Character`s:
/// a `<` in a grapheme cluster with a Prepend scalar (U+0600) or a combining mark (U+0301) is still a `<` to a
/// parser. Controls other than ASCII whitespace, and noncharacters, become U+FFFD.
package enum HTMLEscaping {
    /// Safe as element content and inside a quoted attribute value.
    package static func escape(_ text: String) -> String {
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

    /// ``escape(_:)`` into UTF-8 bytes in one pass: the renderer's hot path.
    package static func append(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            var run = 0 // start of the bytes not copied yet
            var index = 0
            let count = bytes.count
            func flush(replacing length: Int, with replacement: StaticString) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<index]))
                replacement.withUTF8Buffer { out.append(contentsOf: $0) }
                index += length
                run = index
            }
            while index < count {
                let byte = bytes[index]
                switch byte {
                case UInt8(ascii: "&"): flush(replacing: 1, with: "&amp;")
                case UInt8(ascii: "<"): flush(replacing: 1, with: "&lt;")
                case UInt8(ascii: ">"): flush(replacing: 1, with: "&gt;")
                case UInt8(ascii: "\""): flush(replacing: 1, with: "&quot;")
                case UInt8(ascii: "'"): flush(replacing: 1, with: "&#39;")
                case 0x09, 0x0A, 0x0C, 0x0D: index += 1
                case 0x00...0x1F, 0x7F: flush(replacing: 1, with: "\u{FFFD}")
                case 0xC2 where index + 1 < count && (0x80...0x9F).contains(bytes[index + 1]):
                    flush(replacing: 2, with: "\u{FFFD}") // C1 controls
                case 0xEF
                where index + 2 < count
                    && (bytes[index + 1] == 0xB7 && (0x90...0xAF).contains(bytes[index + 2])
                        || bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE):
                    flush(replacing: 3, with: "\u{FFFD}") // U+FDD0…U+FDEF, U+FFFE, U+FFFF
                case 0xF0...0xF4
                where index + 3 < count && bytes[index + 1] & 0x0F == 0x0F
                    && bytes[index + 2] == 0xBF && bytes[index + 3] >= 0xBE:
                    flush(replacing: 4, with: "\u{FFFD}") // U+1FFFE, U+1FFFF, … U+10FFFF
                default: index += 1
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[run..<count]))
        }
    }

    private static func needsWork(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "&", "<", ">", "\"", "'": true
        default: isForbidden(scalar)
        }
    }

    /// C0, DEL and C1 controls but ASCII whitespace, and noncharacters: HTML input-stream parse errors.
    package static func isForbidden(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0C, 0x0D: false
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0xFDD0...0xFDEF: true
        default: scalar.value & 0xFFFE == 0xFFFE
        }
    }
}
