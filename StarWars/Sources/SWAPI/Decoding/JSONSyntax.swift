import Foundation

/// Finds the first thing wrong in JSON bytes and where it is, which Foundation's parsers don't
/// say: invalid UTF-8, a syntax error, or data that ends too soon (a body cut short).
///
/// It checks RFC 8259 strictly, without building values, so it is cheap to run before decoding.
/// Arrays and objects may sit at most ``maximumDepth`` inside one another: Foundation's limit
/// (RFC 8259 §9 lets a parser set one), so a file nested deeper gets a position, not Foundation's
/// "The given data was not valid JSON".
package enum JSONSyntax {
    /// How many arrays and objects may sit inside one another: Foundation's `JSONSerialization`
    /// and `JSONDecoder` reject the 513th.
    package static let maximumDepth = 512

    /// What is wrong and where.
    package struct Problem: Error, Sendable, Equatable {
        package enum Reason: Sendable, Equatable {
            /// The bytes at the position are not UTF-8.
            case invalidUTF8
            /// Something else was expected at the position; `found` is `nil` at the end of the data.
            case unexpected(expected: String, found: String?)
        }

        package let reason: Reason
        package let position: TextPosition

        /// Whether the data is fine as far as it goes but stops too soon, as a body cut short does.
        package var isTruncation: Bool {
            if case .unexpected(_, found: nil) = reason { return true }
            return false
        }

        /// "expected a value, found '}'", for a message.
        package var detail: String {
            switch reason {
            case .invalidUTF8: "not valid UTF-8"
            case .unexpected(let expected, let found): "expected \(expected), found \(found ?? "the end of the data")"
            }
        }
    }

    /// The first problem in `data`, or `nil` when it is one valid JSON value.
    package static func firstProblem(in data: Data) -> Problem? {
        data.withUnsafeBytes { bytes -> Problem? in
            var scanner = Scanner(bytes: bytes)
            do throws(Problem) {
                try scanner.document()
                return nil
            } catch {
                return error
            }
        }
    }

    package enum UTF8Sequence { case valid(Int), truncated, invalid }

    /// Checks one multi-byte UTF-8 sequence (RFC 3629: no overlong forms, no surrogates,
    /// nothing above U+10FFFF).
    package static func utf8Length(_ bytes: UnsafeRawBufferPointer, at index: Int) -> UTF8Sequence {
        let lead = bytes[index]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0:
            length = 3
            second = 0xA0...0xBF
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED:
            length = 3
            second = 0x80...0x9F
        case 0xF0:
            length = 4
            second = 0x90...0xBF
        case 0xF1...0xF3: length = 4
        case 0xF4:
            length = 4
            second = 0x80...0x8F
        default: return .invalid
        }
        for offset in 1..<length {
            guard index + offset < bytes.count else { return .truncated }
            let range = offset == 1 ? second : 0x80...0xBF
            guard range.contains(bytes[index + offset]) else { return .invalid }
        }
        return .valid(length)
    }

    /// What is wrong in a string's text, as ``scanString(_:at:)`` finds it.
    enum StringFault: Error {
        /// Something else was expected at the position.
        case expected(StaticString)
        case invalidUTF8
        /// A character cut short by the end of the data.
        case truncatedCharacter
    }

    /// Moves `index` past a string's text and its closing quote (the opening one is behind);
    /// says whether the text held no escape. On a fault, `index` is where it lies. Both this
    /// check and ``SwapiJSONReader`` read strings with it.
    static func scanString(_ bytes: UnsafeRawBufferPointer, at index: inout Int) throws(StringFault) -> Bool {
        var plain = true
        while true {
            // Eight bytes at a time while none is a quote, a backslash, a control character or
            // part of a multi-byte character: most of a SWAPI file's strings are names and URLs.
            while index + 8 <= bytes.count, !needsLook(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
            }
            guard index < bytes.count else { throw .expected("the closing '\"' of the text") }
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return plain
            case UInt8(ascii: "\\"):
                plain = false
                index += 1
                guard index < bytes.count else { throw .expected("an escape such as \\n or \\u00e9") }
                switch bytes[index] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 1
                case UInt8(ascii: "u"):
                    index += 1
                    for _ in 0..<4 {
                        guard index < bytes.count, hexValue(bytes[index]) != nil else {
                            throw .expected("four hexadecimal digits after \\u")
                        }
                        index += 1
                    }
                default:
                    throw .expected("an escape such as \\n or \\u00e9")
                }
            case 0..<0x20:
                throw .expected("text without control characters (write a line break as \\n)")
            case 0x20..<0x80:
                index += 1
            default:
                switch utf8Length(bytes, at: index) {
                case .valid(let length): index += length
                case .truncated: throw .truncatedCharacter
                case .invalid: throw .invalidUTF8
                }
            }
        }
    }

    /// Whether any byte of `word` is a quote, a backslash, below 0x20 or above 0x7F.
    @inline(__always)
    private static func needsLook(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let control = (word &- ones &* 0x20) & ~word & highs
        return (word & highs) | control | hasZero(word ^ (ones &* 0x22)) | hasZero(word ^ (ones &* 0x5C)) != 0
    }

    /// The value of a hexadecimal digit; `nil` for any other byte.
    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private struct Scanner {
        let bytes: UnsafeRawBufferPointer
        var index = 0

        init(bytes: UnsafeRawBufferPointer) {
            self.bytes = bytes
            // A UTF-8 byte order mark is allowed before the value.
            if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        }

        private enum Container { case array, object }

        /// One value and nothing after it but whitespace. Containers are tracked on a stack, not
        /// by recursion, so deep nesting cannot overflow the call stack.
        mutating func document() throws(Problem) {
            var stack: [Container] = []
            var expectingValue = true
            while true {
                skipWhitespace()
                if expectingValue {
                    guard index < bytes.count else { throw problem(expected: "a value") }
                    switch bytes[index] {
                    case UInt8(ascii: "{"):
                        try checkDepth(stack.count)
                        index += 1
                        skipWhitespace()
                        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                            index += 1
                            expectingValue = false
                        } else {
                            stack.append(.object)
                            try fieldName()
                        }
                    case UInt8(ascii: "["):
                        try checkDepth(stack.count)
                        index += 1
                        skipWhitespace()
                        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                            index += 1
                            expectingValue = false
                        } else {
                            stack.append(.array)
                        }
                    case UInt8(ascii: "\""):
                        try string()
                        expectingValue = false
                    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                        try number()
                        expectingValue = false
                    case UInt8(ascii: "t"):
                        try literal("true")
                        expectingValue = false
                    case UInt8(ascii: "f"):
                        try literal("false")
                        expectingValue = false
                    case UInt8(ascii: "n"):
                        try literal("null")
                        expectingValue = false
                    default:
                        throw problem(expected: "a value")
                    }
                } else {
                    guard let container = stack.last else {
                        guard index == bytes.count else { throw problem(expected: "the end of the data") }
                        return
                    }
                    let close = container == .array ? UInt8(ascii: "]") : UInt8(ascii: "}")
                    let expected = container == .array ? "',' or ']'" : "',' or '}'"
                    guard index < bytes.count else { throw problem(expected: expected) }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        if container == .object {
                            skipWhitespace()
                            try fieldName()
                        }
                        expectingValue = true
                    } else if bytes[index] == close {
                        index += 1
                        stack.removeLast()
                    } else {
                        throw problem(expected: expected)
                    }
                }
            }
        }

        /// An array or object opens at `index` inside `depth` others (empty ones count too, as
        /// they do for Foundation).
        private func checkDepth(_ depth: Int) throws(Problem) {
            guard depth < JSONSyntax.maximumDepth else {
                throw problem(expected: "at most \(JSONSyntax.maximumDepth) arrays and objects inside one another")
            }
        }

        /// `"name"` and the colon after it.
        private mutating func fieldName() throws(Problem) {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw problem(expected: "a field name in double quotes")
            }
            try string()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw problem(expected: "':'") }
            index += 1
        }

        private mutating func string() throws(Problem) {
            index += 1 // the opening quote
            do {
                _ = try JSONSyntax.scanString(bytes, at: &index)
            } catch {
                switch error {
                case .expected(let what): throw problem(expected: "\(what)")
                case .invalidUTF8: throw Problem(reason: .invalidUTF8, position: position)
                case .truncatedCharacter:
                    throw Problem(
                        reason: .unexpected(expected: "the rest of a character", found: nil), position: position)
                }
            }
        }

        private mutating func number() throws(Problem) {
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw problem(expected: "a digit") }
            if bytes[index] == UInt8(ascii: "0") {
                index += 1
            } else {
                skipDigits()
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard index < bytes.count, Self.isDigit(bytes[index]) else {
                    throw problem(expected: "a digit after the decimal point")
                }
                skipDigits()
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                    index += 1
                }
                guard index < bytes.count, Self.isDigit(bytes[index]) else {
                    throw problem(expected: "a digit in the exponent")
                }
                skipDigits()
            }
        }

        private mutating func literal(_ word: StaticString) throws(Problem) {
            let start = index
            for offset in 0..<word.utf8CodeUnitCount {
                guard start + offset < bytes.count else {
                    index = start + offset
                    throw problem(expected: "'\(word)'")
                }
                guard bytes[start + offset] == word.utf8Start[offset] else {
                    index = start
                    throw problem(expected: "a value")
                }
            }
            index = start + word.utf8CodeUnitCount
        }

        private mutating func skipWhitespace() {
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
                default: return
                }
            }
        }

        private mutating func skipDigits() {
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }

        private var position: TextPosition { TextPosition(offset: index, in: bytes) }

        /// `expected` is missing at `index`: at the end of the data, or instead of what is there.
        private func problem(expected: String) -> Problem {
            guard index < bytes.count else {
                return Problem(reason: .unexpected(expected: expected, found: nil), position: position)
            }
            let byte = bytes[index]
            let found: String
            switch byte {
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): found = "a line break"
            case 0..<0x20, 0x7F: found = "a control character (byte 0x\(String(byte, radix: 16, uppercase: true)))"
            case 0x20..<0x7F: found = "'\(Character(Unicode.Scalar(byte)))'"
            default:
                switch JSONSyntax.utf8Length(bytes, at: index) {
                case .valid(let length):
                    found =
                        """
                        '\(String(
                            decoding: UnsafeRawBufferPointer(rebasing: bytes[index..<(index + length)]),
                            as: UTF8.self))'
                        """
                case .truncated:
                    return Problem(reason: .unexpected(expected: expected, found: nil), position: position)
                case .invalid:
                    return Problem(reason: .invalidUTF8, position: position)
                }
            }
            return Problem(reason: .unexpected(expected: expected, found: found), position: position)
        }

        private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
    }
}
