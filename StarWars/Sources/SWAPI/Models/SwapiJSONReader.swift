import Foundation

/// A resource that can be read from the fields ``SwapiJSONReader`` found, through the same
/// field list as its `Decodable` initialiser (both go through ``SwapiFields``).
package protocol SwapiJSONDecodable: SwapiResource {
    init(json fields: SwapiJSONReader.Fields) throws
    /// ``init(json:)``, recording each field's value as the resource reads it, for
    /// ``DecodedCache``.
    init(json fields: SwapiJSONReader.Fields, recordingInto recorder: DecodedCache.Recorder) throws
    /// The resource from the values ``init(json:recordingInto:)`` recorded, in that order.
    init(cached reader: DecodedCache.Reader) throws
}

/// The tolerant field readers a resource is decoded with: Foundation's keyed container
/// (see SwapiDecoding.swift) or ``SwapiJSONReader/Keyed``.
protocol SwapiFields {
    associatedtype Key: CodingKey
    func text(_ key: Key) throws -> String
    func required(_ key: Key) throws -> String
    func links(_ key: Key) throws -> [ResourceLink]
    func link(_ key: Key) throws -> ResourceLink?
    func integer(_ key: Key) throws -> Int?
    func ownURL(_ key: Key) throws -> ResourceLink
    /// A `created` or `edited` field: a text field, kept small.
    func timestamp(_ key: Key) throws -> TimestampText
}

extension SwapiFields {
    func timestamp(_ key: Key) throws -> TimestampText {
        try TimestampText(text(key))
    }
}

extension KeyedDecodingContainer: SwapiFields {}

/// Reads a SWAPI JSON array straight from its bytes, for the ordinary file: a strict RFC 8259
/// parser that keeps each resource's fields as positions in the bytes and makes only the values
/// a resource keeps.
///
/// It says `nil` (and ``SnapshotDecoder`` decodes with Foundation, whose errors it explains)
/// whenever the data is anything but plain: a syntax error, invalid UTF-8, a byte order mark,
/// a duplicate or escaped field name, a number that is not a plain integer where text is
/// expected, a missing required field, a bad URL. So it accepts only what Foundation's path
/// accepts, and makes the same values from it (a property test holds the two together).
package struct SwapiJSONReader {
    /// Anything the reader leaves to Foundation.
    struct Unusual: Error {}

    enum Value {
        case null
        case boolean
        /// The bytes between the quotes; `plain` when they hold no escape.
        case string(start: Int, end: Int, plain: Bool)
        /// A number written as an integer that fits an `Int`.
        case integer(Int)
        /// Any other number.
        case number
        /// A list: its items are `items[start..<start + count]`.
        case array(start: Int, count: Int)
        case object
    }

    struct Field {
        var keyStart: Int
        var keyEnd: Int
        var value: Value
    }

    /// One resource's fields, for ``SwapiJSONDecodable/init(json:)``.
    package struct Fields {
        fileprivate let bytes: UnsafeBufferPointer<UInt8>
        fileprivate let fields: [Field]
        fileprivate let items: [Value]

        /// The fields looked up by `K`'s names.
        func keyed<K: CodingKey>(by: K.Type) -> Keyed<K> { Keyed(base: self) }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var fields: [Field] = []
    private var items: [Value] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The resources in `data`, or `nil` when Foundation should decode it (see the type's
    /// description).
    package static func resources<R: SwapiJSONDecodable>(_ type: R.Type, in data: some ContiguousBytes) -> [R]? {
        fingerprintedResources(type, in: data, fingerprinting: false)?.resources
    }

    /// ``resources(_:in:)``, with (when `fingerprinting`) a fingerprint of each resource's
    /// bytes in the file, in the same order: two resources whose text is the same decode alike.
    package static func fingerprintedResources<R: SwapiJSONDecodable>(
        _ type: R.Type, in data: some ContiguousBytes, fingerprinting: Bool, recordingInto recorder: DecodedCache.Recorder? = nil
    ) -> (resources: [R], fingerprints: [UInt64])? {
        read(R.self, in: data, fingerprinting: fingerprinting, recordingInto: recorder, reusing: nil)
    }

    /// ``fingerprintedResources(_:in:fingerprinting:recordingInto:)`` for a file of which an
    /// earlier version was decoded into the cache file `earlier`: a resource whose bytes have
    /// the fingerprint of an earlier one is that resource again, not decoded anew (the
    /// fingerprint is what pages already trust to say two resources' texts are the same), and
    /// its record is copied into `recorder`.
    static func resources<R: SwapiJSONDecodable>(
        _ type: R.Type, in data: some ContiguousBytes, reusing earlier: DecodedCache.Earlier<R>, recordingInto recorder: DecodedCache.Recorder?
    ) -> (resources: [R], fingerprints: [UInt64])? {
        read(R.self, in: data, fingerprinting: true, recordingInto: recorder, reusing: Reuse(earlier))
    }

    private static func read<R: SwapiJSONDecodable>(
        _ type: R.Type, in data: some ContiguousBytes, fingerprinting: Bool, recordingInto recorder: DecodedCache.Recorder?, reusing: Reuse<R>?
    ) -> (resources: [R], fingerprints: [UInt64])? {
        data.withUnsafeBytes { raw -> ([R], [UInt64])? in
            var reader = SwapiJSONReader(bytes: raw.bindMemory(to: UInt8.self))
            reader.fingerprinting = fingerprinting
            reader.recorder = recorder
            var reuse = reusing
            guard let resources = try? reader.array(of: R.self, reusing: &reuse) else { return nil }
            return (resources, reader.fingerprints)
        }
    }

    /// The resources of an earlier version of a file, found by their bytes' fingerprints.
    struct Reuse<R: SwapiJSONDecodable> {
        let earlier: DecodedCache.Earlier<R>
        /// Where each fingerprint is, made when a resource is not where it was.
        private var positions: [UInt64: Int]?

        init(_ earlier: DecodedCache.Earlier<R>) { self.earlier = earlier }

        /// Where the earlier resource whose fingerprint is `fingerprint` is, looked for first
        /// at `position` (an edit leaves the others where they were).
        mutating func position(of fingerprint: UInt64, near position: Int) -> Int? {
            let fingerprints = earlier.fingerprints
            if position < fingerprints.count, fingerprints[position] == fingerprint { return position }
            if positions == nil {
                var table: [UInt64: Int] = [:]
                table.reserveCapacity(fingerprints.count)
                for (index, fingerprint) in fingerprints.enumerated() { table[fingerprint] = index }
                positions = table
            }
            return positions?[fingerprint]
        }
    }

    /// Whether ``array(of:reusing:)`` fingerprints each resource's bytes into ``fingerprints``.
    private var fingerprinting = false
    /// Where ``array(of:reusing:)`` records each resource's values, when it does.
    private var recorder: DecodedCache.Recorder?
    private var fingerprints: [UInt64] = []

    /// A 64-bit fingerprint of `bytes`, the same in every process: four words of eight bytes
    /// at a time, each multiplied and folded into a lane of its own (four independent chains
    /// keep the multiplier busy, where a single chain waits on each multiply), then the lanes
    /// and the tail folded together.
    static func fingerprint(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let seed: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(bytes.count)
        var lanes: (UInt64, UInt64, UInt64, UInt64) = (seed, seed &+ 0x1656_67B1_9E37_79F9, seed ^ 0xC2B2_AE3D_27D4_EB4F, seed &* 3)
        var offset = 0
        @inline(__always) func fold(_ lane: inout UInt64, _ word: UInt64) {
            lane = (lane ^ word) &* 0xFF51_AFD7_ED55_8CCD
            lane ^= lane >> 32
        }
        while offset + 32 <= bytes.count {
            fold(&lanes.0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            fold(&lanes.1, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            fold(&lanes.2, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            fold(&lanes.3, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        var hash = lanes.0
        fold(&hash, lanes.1)
        fold(&hash, lanes.2)
        fold(&hash, lanes.3)
        while offset + 8 <= bytes.count {
            fold(&hash, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            offset += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail |= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        return hash ^ hash >> 29
    }

    private static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    private mutating func array<R: SwapiJSONDecodable>(of type: R.Type, reusing reuse: inout Reuse<R>?) throws(Unusual) -> [R] {
        skipWhitespace()
        try expect(UInt8(ascii: "["))
        var resources: [R] = []
        if try !opensEmpty(UInt8(ascii: "]")) {
            while true {
                skipWhitespace()
                let start = index
                try expect(UInt8(ascii: "{"))
                try objectFields()
                if fingerprinting {
                    let fingerprint = Self.fingerprint(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<index]))
                    fingerprints.append(fingerprint)
                    if let earlier = reuse?.earlier, let position = reuse?.position(of: fingerprint, near: resources.count) {
                        resources.append(earlier.resources[position])
                        if let recorder { earlier.copyRecord(position, into: recorder) }
                        if try closes(UInt8(ascii: "]")) { break }
                        continue
                    }
                }
                do {
                    let fields = Fields(bytes: bytes, fields: fields, items: items)
                    if let recorder {
                        resources.append(try R(json: fields, recordingInto: recorder))
                    } else {
                        resources.append(try R(json: fields))
                    }
                } catch {
                    throw Unusual()
                }
                if try closes(UInt8(ascii: "]")) { break }
            }
        }
        skipWhitespace()
        guard index == bytes.count else { throw Unusual() }
        return resources
    }

    /// A resource's fields, after its `{`, up to and including its `}`.
    private mutating func objectFields() throws(Unusual) {
        fields.removeAll(keepingCapacity: true)
        items.removeAll(keepingCapacity: true)
        if try opensEmpty(UInt8(ascii: "}")) {
            return
        }
        while true {
            skipWhitespace()
            try expect(Self.quote)
            let keyStart = index
            guard try scanString() else { throw Unusual() }
            let keyEnd = index - 1
            // A resource has a few dozen fields at most: comparing names pairwise is quickest.
            // An object with more is checked by sorting its names once, at its end, since
            // comparing all pairs would take minutes for a hundred thousand.
            if fields.count < Self.namesComparedPairwise {
                for field in fields where field.keyEnd - field.keyStart == keyEnd - keyStart {
                    if memcmp(bytes.baseAddress! + field.keyStart, bytes.baseAddress! + keyStart, keyEnd - keyStart) == 0 { throw Unusual() }
                }
            }
            skipWhitespace()
            try expect(UInt8(ascii: ":"))
            skipWhitespace()
            let value = try value(depth: 1, recordItems: true)
            fields.append(Field(keyStart: keyStart, keyEnd: keyEnd, value: value))
            if try closes(UInt8(ascii: "}")) {
                if fields.count > Self.namesComparedPairwise { try requireUniqueNames() }
                return
            }
        }
    }

    /// How many of an object's field names are compared with each other as they are read.
    private static let namesComparedPairwise = 32

    /// Sorts the fields' names and fails on two that are the same.
    private func requireUniqueNames() throws(Unusual) {
        let base = bytes.baseAddress!
        func order(_ a: Field, _ b: Field) -> Int32 {
            let length = a.keyEnd - a.keyStart
            guard length == b.keyEnd - b.keyStart else { return length < b.keyEnd - b.keyStart ? -1 : 1 }
            return memcmp(base + a.keyStart, base + b.keyStart, length)
        }
        let sorted = fields.sorted { order($0, $1) < 0 }
        for (a, b) in zip(sorted, sorted.dropFirst()) where order(a, b) == 0 { throw Unusual() }
    }

    /// One value; a field's list keeps its items in `items`, deeper values are only checked.
    private mutating func value(depth: Int, recordItems: Bool) throws(Unusual) -> Value {
        guard depth < 64 else { throw Unusual() }
        let byte = try peek()
        switch byte {
        case Self.quote:
            index += 1
            let start = index
            let plain = try scanString()
            return .string(start: start, end: index - 1, plain: plain)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try number()
        case UInt8(ascii: "t"):
            try literal("true")
            return .boolean
        case UInt8(ascii: "f"):
            try literal("false")
            return .boolean
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "["):
            index += 1
            // Only a field's own list keeps its items; lists inside it append nothing.
            let start = items.count
            if try !opensEmpty(UInt8(ascii: "]")) {
                while true {
                    skipWhitespace()
                    let item = try value(depth: depth + 1, recordItems: false)
                    if recordItems { items.append(item) }
                    if try closes(UInt8(ascii: "]")) { break }
                }
            }
            return .array(start: start, count: items.count - start)
        case UInt8(ascii: "{"):
            index += 1
            if try opensEmpty(UInt8(ascii: "}")) {
                return .object
            }
            while true {
                skipWhitespace()
                try expect(Self.quote)
                _ = try scanString()
                skipWhitespace()
                try expect(UInt8(ascii: ":"))
                skipWhitespace()
                _ = try value(depth: depth + 1, recordItems: false)
                if try closes(UInt8(ascii: "}")) { return .object }
            }
        default:
            throw Unusual()
        }
    }

    /// Moves past a string's text and its closing quote (the opening one is behind); says
    /// whether it held no escape. Control characters, bad escapes and invalid UTF-8 are unusual.
    private mutating func scanString() throws(Unusual) -> Bool {
        var plain = true
        while index < bytes.count {
            // Eight bytes at a time while none is a quote, a backslash, a control character or
            // part of a multi-byte character: most of a SWAPI file's strings are names and URLs.
            while index + 8 <= bytes.count {
                let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                if Self.needsLook(word) { break }
                index += 8
            }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == Self.quote {
                index += 1
                return plain
            } else if byte == Self.backslash {
                plain = false
                guard index + 1 < bytes.count else { throw Unusual() }
                switch bytes[index + 1] {
                case Self.quote, Self.backslash, UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                    UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    index += 2
                case UInt8(ascii: "u"):
                    guard index + 6 <= bytes.count, (2..<6).allSatisfy({ Self.hexValue(bytes[index + $0]) != nil }) else { throw Unusual() }
                    index += 6
                default:
                    throw Unusual()
                }
            } else if byte < 0x20 {
                throw Unusual()
            } else if byte < 0x80 {
                index += 1
            } else {
                guard case .valid(let length) = JSONSyntax.utf8Length(UnsafeRawBufferPointer(bytes), at: index) else { throw Unusual() }
                index += length
            }
        }
        throw Unusual()
    }

    /// Whether any byte of `word` is a quote, a backslash, below 0x20 or above 0x7F.
    @inline(__always)
    private static func needsLook(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let control = (word &- ones &* 0x20) & ~word & highs
        return (word & highs) | control | hasZero(word ^ (ones &* 0x22)) | hasZero(word ^ (ones &* 0x5C)) != 0
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// A number by JSON's grammar: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
    private mutating func number() throws(Unusual) -> Value {
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        let digitsStart = index
        guard index < bytes.count, Self.isDigit(bytes[index]) else { throw Unusual() }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        let digits = index - digitsStart
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw Unusual() }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw Unusual() }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        guard integral, digits <= 18 else { return .number }
        var value = 0
        for position in digitsStart..<(digitsStart + digits) { value = value * 10 + Int(bytes[position] - UInt8(ascii: "0")) }
        return .integer(negative ? -value : value)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private mutating func literal(_ word: StaticString) throws(Unusual) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count, memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0 else { throw Unusual() }
        index += count
    }

    /// After a container's opening: whether `close` follows at once (and is passed).
    private mutating func opensEmpty(_ close: UInt8) throws(Unusual) -> Bool {
        skipWhitespace()
        guard try peek() == close else { return false }
        index += 1
        return true
    }

    /// After a container's item: whether `close` ends the container, or a comma another item follows.
    private mutating func closes(_ close: UInt8) throws(Unusual) -> Bool {
        skipWhitespace()
        let next = try peek()
        index += 1
        if next == close { return true }
        guard next == UInt8(ascii: ",") else { throw Unusual() }
        return false
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): index += 1
            default: return
            }
        }
    }

    private func peek() throws(Unusual) -> UInt8 {
        guard index < bytes.count else { throw Unusual() }
        return bytes[index]
    }

    private mutating func expect(_ byte: UInt8) throws(Unusual) {
        guard index < bytes.count, bytes[index] == byte else { throw Unusual() }
        index += 1
    }
}

extension SwapiJSONReader {
    /// A resource's fields by the names of `K`, read as the keyed container's readers in
    /// SwapiDecoding.swift read them; whatever those would not accept is ``Unusual``.
    struct Keyed<K: CodingKey>: SwapiFields {
        let base: Fields

        private func value(_ key: K) -> Value? {
            var name = key.stringValue
            return name.withUTF8 { name -> Value? in
                for field in base.fields where field.keyEnd - field.keyStart == name.count {
                    if name.isEmpty || memcmp(base.bytes.baseAddress! + field.keyStart, name.baseAddress!, name.count) == 0 { return field.value }
                }
                return nil
            }
        }

        private func string(_ value: Value) throws(Unusual) -> String? {
            guard case .string(let start, let end, let plain) = value else { return nil }
            let text = UnsafeBufferPointer(rebasing: base.bytes[start..<end])
            if plain { return String(decoding: text, as: UTF8.self) }
            return try SwapiJSONReader.unescaped(text)
        }

        /// A string, or an integer written as text.
        private func text(of value: Value) throws(Unusual) -> String {
            if case .integer(let integer) = value { return String(integer) }
            guard let string = try string(value) else { throw Unusual() }
            return string
        }

        func text(_ key: K) throws -> String {
            switch value(key) {
            case nil, .null?: return "unknown"
            case let value?: return try text(of: value)
            }
        }

        func timestamp(_ key: K) throws -> TimestampText {
            // A plain string straight from its bytes (nearly every one).
            if case .string(let start, let end, true)? = value(key) {
                return TimestampText(utf8: UnsafeBufferPointer(rebasing: base.bytes[start..<end]))
            }
            return try TimestampText(text(key))
        }

        func required(_ key: K) throws -> String {
            guard let value = value(key) else { throw Unusual() }
            if case .null = value { throw Unusual() }
            let text = try text(of: value)
            guard !text.isEmpty else { throw Unusual() }
            return text
        }

        func links(_ key: K) throws -> [ResourceLink] {
            switch value(key) {
            case nil, .null?: return []
            case .array(let start, let count)?:
                // Plain URLs straight from their bytes (nearly all of them).
                var plain: [UnsafeBufferPointer<UInt8>] = []
                plain.reserveCapacity(count)
                for item in base.items[start..<(start + count)] {
                    guard case .string(let from, let to, true) = item else { break }
                    plain.append(UnsafeBufferPointer(rebasing: base.bytes[from..<to]))
                }
                if plain.count == count {
                    guard let links = ResourceLink.links(plain: plain) else { throw Unusual() }
                    return links
                }
                var links: [ResourceLink] = []
                links.reserveCapacity(count)
                for item in base.items[start..<(start + count)] {
                    guard let url = try string(item), let link = ResourceLink(url: url) else { throw Unusual() }
                    links.append(link)
                }
                return links
            default: throw Unusual()
            }
        }

        func link(_ key: K) throws -> ResourceLink? {
            switch value(key) {
            case nil, .null?: return nil
            case let value?:
                guard let url = try string(value) else { throw Unusual() }
                if url.isEmpty { return nil }
                guard let link = ResourceLink(url: url) else { throw Unusual() }
                return link
            }
        }

        func integer(_ key: K) throws -> Int? {
            switch value(key) {
            case nil, .null?: return nil
            case .integer(let integer)?: return integer
            case let value?:
                guard let text = try string(value), let integer = Int(text) else { throw Unusual() }
                return integer
            }
        }

        func ownURL(_ key: K) throws -> ResourceLink {
            guard let link = ResourceLink(url: try required(key)) else { throw Unusual() }
            return link
        }
    }

    /// A string's text with its escapes undone; a lone surrogate is unusual.
    static func unescaped(_ text: UnsafeBufferPointer<UInt8>) throws(Unusual) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.count)
        var index = 0
        func hex(at position: Int) -> UInt32 {
            (position..<(position + 4)).reduce(0) { $0 << 4 | hexValue(text[$1])! }
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
                    guard index + 6 <= text.count, text[index] == backslash, text[index + 1] == UInt8(ascii: "u") else { throw Unusual() }
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
