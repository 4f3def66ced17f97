/// HTML split into text and tags the way a browser's tokenizer splits it, over UTF-8 bytes (a `<`, `>`, quote or
/// space byte is never part of another character, so no combining mark can hide one). The one scanner of the link
/// checker, the page text `diff` compares, and FlowSiteTesting's tag comparisons.
package struct HTMLScanner {
    package enum Token: Equatable {
        /// Text between tags, entities not decoded.
        case text(ArraySlice<UInt8>)
        /// A start tag: its name lowercased, and its attributes in order, names lowercased, values as written.
        case start(String, [Attribute])
        /// An end tag's lowercased name.
        case end(String)
        /// A comment, a doctype or a processing instruction.
        case other
    }

    package struct Attribute: Equatable, Sendable {
        package var name: String
        package var value: String
    }

    private let bytes: [UInt8]
    private var position = 0
    /// After `<script>` or `<style>`, whose text is raw: the end tag that ends it.
    private var rawTextEnd: [UInt8]?

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package init(_ html: String) { self.init(Array(html.utf8)) }

    package mutating func next() -> Token? {
        guard position < bytes.count else { return nil }
        if let end = rawTextEnd {
            rawTextEnd = nil
            let start = position
            while position < bytes.count, !hasPrefix(end, at: position, caseInsensitive: true) { position += 1 }
            return .text(bytes[start..<position])
        }
        guard bytes[position] == UInt8(ascii: "<"), position + 1 < bytes.count else { return text() }
        let after = bytes[position + 1]
        if after == UInt8(ascii: "!") || after == UInt8(ascii: "?") {
            let comment = hasPrefix(Array("<!--".utf8), at: position, caseInsensitive: false)
            let close = Array((comment ? "-->" : ">").utf8)
            position += comment ? 4 : 2
            while position < bytes.count, !hasPrefix(close, at: position, caseInsensitive: false) { position += 1 }
            position = min(bytes.count, position + close.count)
            return .other
        }
        let isEnd = after == UInt8(ascii: "/")
        let nameStart = position + (isEnd ? 2 : 1)
        guard nameStart < bytes.count, Self.isLetter(bytes[nameStart]) else { return text() }
        position = nameStart
        let name = lowercased(until: { Self.isSpace($0) || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: ">") })
        var attributes: [Attribute] = []
        while position < bytes.count, bytes[position] != UInt8(ascii: ">") {
            if Self.isSpace(bytes[position]) || bytes[position] == UInt8(ascii: "/") {
                position += 1
                continue
            }
            // A name may start with `=`; any later `=` ends it.
            let nameStart = position
            position += 1
            while position < bytes.count, !Self.isSpace(bytes[position]), bytes[position] != UInt8(ascii: "/"),
                bytes[position] != UInt8(ascii: ">"), bytes[position] != UInt8(ascii: "=")
            {
                position += 1
            }
            let attribute = String(decoding: bytes[nameStart..<position], as: UTF8.self).lowercased()
            skipSpaces()
            var value = ""
            if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
                position += 1
                skipSpaces()
                if position < bytes.count, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'")
                {
                    let quote = bytes[position]
                    let start = position + 1
                    position = start
                    while position < bytes.count, bytes[position] != quote { position += 1 }
                    value = String(decoding: bytes[start..<position], as: UTF8.self)
                    position = min(bytes.count, position + 1)
                } else {
                    let start = position
                    while position < bytes.count, !Self.isSpace(bytes[position]), bytes[position] != UInt8(ascii: ">") {
                        position += 1
                    }
                    value = String(decoding: bytes[start..<position], as: UTF8.self)
                }
            }
            attributes.append(Attribute(name: attribute, value: value))
        }
        position = min(bytes.count, position + 1)
        if isEnd { return .end(name) }
        if name == "script" || name == "style" { rawTextEnd = Array("</\(name)".utf8) }
        return .start(name, attributes)
    }

    /// Text up to the next `<` after this one (a `<` that starts no tag is text).
    private mutating func text() -> Token {
        let start = position
        position += 1
        while position < bytes.count, bytes[position] != UInt8(ascii: "<") { position += 1 }
        return .text(bytes[start..<position])
    }

    /// The bytes up to the first that `isEnd` accepts, lowercased.
    private mutating func lowercased(until isEnd: (UInt8) -> Bool) -> String {
        let start = position
        while position < bytes.count, !isEnd(bytes[position]) { position += 1 }
        return String(decoding: bytes[start..<position], as: UTF8.self).lowercased()
    }

    private mutating func skipSpaces() {
        while position < bytes.count, Self.isSpace(bytes[position]) { position += 1 }
    }

    private static let named: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"
    ]

    /// `text` with its character references decoded: the named ones HTML writers use, and numeric ones. By Unicode
    /// scalars, not characters: a combining mark after a `;` or a mark that joins the `&` to the character before it
    /// hides neither.
    package static func decodeEntities(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "&")) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            if scalars[index] == "&",
                let semicolon = scalars[(index + 1)..<min(scalars.count, index + 13)].firstIndex(of: ";"),
                let replacement = reference(String(String.UnicodeScalarView(scalars[(index + 1)..<semicolon])))
            {
                out.append(replacement)
                index = semicolon + 1
            } else {
                out.append(scalars[index])
                index += 1
            }
        }
        return String(out)
    }

    /// The character a reference's name (between `&` and `;`) stands for.
    private static func reference(_ name: String) -> Unicode.Scalar? {
        if name.hasPrefix("#x") || name.hasPrefix("#X") {
            return UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
        }
        if name.hasPrefix("#") { return UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init) }
        return named[name]?.unicodeScalars.first
    }

    private func hasPrefix(_ prefix: [UInt8], at index: Int, caseInsensitive: Bool) -> Bool {
        guard bytes.count - index >= prefix.count else { return false }
        for offset in 0..<prefix.count {
            var byte = bytes[index + offset]
            if caseInsensitive, byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte += 32 }
            if byte != prefix[offset] { return false }
        }
        return true
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }

    /// HTML's white space: space, tab, line feed, form feed, carriage return.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
}
