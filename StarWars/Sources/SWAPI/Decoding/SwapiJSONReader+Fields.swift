import Foundation

extension SwapiJSONReader {
    /// One resource's fields as the reader found them, read as ``DecodingFields`` reads
    /// Foundation's: whatever that would not accept is ``Unusual``.
    struct Fields: SwapiFields {
        let bytes: UnsafeBufferPointer<UInt8>
        let fields: [Field]
        let items: [Value]

        /// The value of the field named `key`; `nil` when there is none.
        private func value(_ key: String) -> Value? {
            var name = key
            return name.withUTF8 { name -> Value? in
                for field in fields where field.keyEnd - field.keyStart == name.count {
                    if name.isEmpty || memcmp(bytes.baseAddress! + field.keyStart, name.baseAddress!, name.count) == 0 {
                        return field.value
                    }
                }
                return nil
            }
        }

        private func string(_ value: Value) throws(Unusual) -> String? {
            guard case .string(let start, let end, let plain) = value else { return nil }
            let text = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if plain { return String(decoding: text, as: UTF8.self) }
            return try SwapiJSONReader.unescaped(text)
        }

        /// A string, or an integer written as text.
        private func text(of value: Value) throws(Unusual) -> String {
            if case .integer(let integer) = value { return String(integer) }
            guard let string = try string(value) else { throw Unusual() }
            return string
        }

        func text(_ key: String, _ value: inout String) throws { value = try text(key) }

        private func text(_ key: String) throws(Unusual) -> String {
            switch value(key) {
            case nil, .null?: return "unknown"
            case let value?: return try text(of: value)
            }
        }

        func timestamp(_ key: String, _ value: inout PackedTimestamp) throws {
            // A plain string straight from its bytes (nearly every one).
            if case .string(let start, let end, true)? = self.value(key) {
                return value = PackedTimestamp(TimestampText(utf8: UnsafeBufferPointer(rebasing: bytes[start..<end])))
            }
            value = PackedTimestamp(TimestampText(try text(key)))
        }

        func required(_ key: String, _ value: inout String) throws { value = try required(key) }

        private func required(_ key: String) throws(Unusual) -> String {
            guard let value = value(key) else { throw Unusual() }
            if case .null = value { throw Unusual() }
            let text = try text(of: value)
            guard !text.isEmpty else { throw Unusual() }
            return text
        }

        func links(_ key: String, _ value: inout [ResourceLink]) throws { value = try links(key) }

        private func links(_ key: String) throws(Unusual) -> [ResourceLink] {
            switch value(key) {
            case nil, .null?: return []
            case .array(let start, let count)?:
                // Plain URLs straight from their bytes (nearly all of them).
                var plain: [UnsafeBufferPointer<UInt8>] = []
                plain.reserveCapacity(count)
                for item in items[start..<(start + count)] {
                    guard case .string(let from, let to, true) = item else { break }
                    plain.append(UnsafeBufferPointer(rebasing: bytes[from..<to]))
                }
                if plain.count == count {
                    guard let links = ResourceLink.links(plain: plain) else { throw Unusual() }
                    return links
                }
                var links: [ResourceLink] = []
                links.reserveCapacity(count)
                for item in items[start..<(start + count)] {
                    guard let url = try string(item), let link = ResourceLink(url: url) else { throw Unusual() }
                    links.append(link)
                }
                return links
            default: throw Unusual()
            }
        }

        func link(_ key: String, _ value: inout ResourceLink?) throws { value = try link(key) }

        private func link(_ key: String) throws(Unusual) -> ResourceLink? {
            switch value(key) {
            case nil, .null?: return nil
            case let value?:
                guard let url = try string(value) else { throw Unusual() }
                if url.isEmpty { return nil }
                guard let link = ResourceLink(url: url) else { throw Unusual() }
                return link
            }
        }

        func integer(_ key: String, _ value: inout Int?) throws { value = try integer(key) }

        private func integer(_ key: String) throws(Unusual) -> Int? {
            switch value(key) {
            case nil, .null?: return nil
            case .integer(let integer)?: return integer
            case let value?:
                guard let text = try string(value), let integer = Int(text) else { throw Unusual() }
                return integer
            }
        }

        func ownURL(_ key: String, _ value: inout ResourceLink) throws {
            guard let link = ResourceLink(url: try required(key)) else { throw Unusual() }
            value = link
        }
    }

    /// A string's text with its escapes undone; a lone surrogate is unusual.
    static func unescaped(_ text: UnsafeBufferPointer<UInt8>) throws(Unusual) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = 0
        func hex(at position: Int) -> UInt32 {
            (position..<(position + 4)).reduce(0) { $0 << 4 | JSONSyntax.hexValue(text[$1])! }
        }
        while index < text.count {
            let byte = text[index]
            guard byte == backslash else {
                out.append(byte)
                index += 1
                continue
            }
            let escape = text[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex(at: index)
                index += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    guard index + 6 <= text.count, text[index] == backslash, text[index + 1] == UInt8(ascii: "u") else {
                        throw Unusual()
                    }
                    let low = hex(at: index + 2)
                    guard (0xDC00...0xDFFF).contains(low) else { throw Unusual() }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                } else if (0xDC00...0xDFFF).contains(scalar) {
                    throw Unusual()
                }
                out.append(contentsOf: String(Unicode.Scalar(scalar)!).utf8)
            default: out.append(escape)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
