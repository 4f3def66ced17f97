import FlowSite
import Foundation

/// Reads a SWAPI JSON array straight from its bytes, for the ordinary file: a strict RFC 8259
/// parser that keeps each resource's fields as positions in the bytes and makes only the values
/// a resource keeps (see SwapiJSONReader+Fields.swift).
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

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var fields: [Field] = []
    private var items: [Value] = []

    private init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    /// The resources in `data`, or `nil` when Foundation should decode it (see the type's
    /// description).
    package static func resources<R: SwapiRecord>(_ type: R.Type, in data: some ContiguousBytes) -> [R]? {
        read(R.self, in: data, fingerprinting: false)?.resources
    }

    /// The resources in `data` (or `nil`, as ``resources(_:in:)`` says), with (when
    /// `fingerprinting`) a fingerprint of each resource's bytes in the file, in the same order:
    /// two resources whose text is the same decode alike. With a `recorder`, each resource's
    /// values are recorded into it (``DecodedCache``).
    ///
    /// With `earlier`, the cache of an earlier version of the file (which needs `fingerprinting`),
    /// a resource whose bytes have the fingerprint of an earlier one is that resource again, not
    /// decoded anew (the fingerprint is what pages already trust to say two resources' texts are
    /// the same), and its record is copied into `recorder`.
    package static func read<R: SwapiRecord>(
        _ type: R.Type, in data: some ContiguousBytes, fingerprinting: Bool,
        reusing earlier: DecodedCache.Earlier<R>? = nil, recordingInto recorder: DecodedCache.Recorder? = nil
    ) -> (resources: [R], fingerprints: [UInt64])? {
        data.withUnsafeBytes { raw -> ([R], [UInt64])? in
            var reader = SwapiJSONReader(bytes: raw.bindMemory(to: UInt8.self))
            reader.fingerprinting = fingerprinting || earlier != nil
            reader.recorder = recorder
            var reuse = earlier.map(Reuse.init)
            guard let resources = try? reader.array(of: R.self, reusing: &reuse) else { return nil }
            return (resources, reader.fingerprints)
        }
    }

    /// The resources of an earlier version of a file, found by their bytes' fingerprints.
    struct Reuse<R: SwapiRecord> {
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

    static let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")

    private mutating func array<R: SwapiRecord>(of type: R.Type, reusing reuse: inout Reuse<R>?) throws(Unusual) -> [R]
    {
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
                    var hash = StableHash()
                    hash.combine(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(bytes)[start..<index]))
                    let fingerprint = hash.low
                    fingerprints.append(fingerprint)
                    if let earlier = reuse?.earlier,
                        let position = reuse?.position(of: fingerprint, near: resources.count)
                    {
                        resources.append(earlier.resources[position])
                        if let recorder { earlier.copyRecord(position, into: recorder) }
                        if try closes(UInt8(ascii: "]")) { break }
                        continue
                    }
                }
                do {
                    var fields = Fields(bytes: bytes, fields: fields, items: items)
                    if let recorder {
                        var recording = RecordingFields(base: fields, recorder: recorder)
                        resources.append(try R(reading: &recording))
                    } else {
                        resources.append(try R(reading: &fields))
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
                    if memcmp(bytes.baseAddress! + field.keyStart, bytes.baseAddress! + keyStart, keyEnd - keyStart)
                        == 0
                    {
                        throw Unusual()
                    }
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
        do {
            return try JSONSyntax.scanString(UnsafeRawBufferPointer(bytes), at: &index)
        } catch {
            throw Unusual()
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
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, Self.isDigit(bytes[index]) else { throw Unusual() }
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
        }
        guard integral, digits <= 18 else { return .number }
        var value = 0
        for position in digitsStart..<(digitsStart + digits) {
            value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
        }
        return .integer(negative ? -value : value)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte &- UInt8(ascii: "0") < 10 }

    private mutating func literal(_ word: StaticString) throws(Unusual) {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count, memcmp(bytes.baseAddress! + index, word.utf8Start, count) == 0 else {
            throw Unusual()
        }
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
