/// A resource's `created` or `edited` field, kept as its exact text in little memory.
///
/// SWAPI writes these as ISO 8601 times, `2014-12-09T13:50:51.644000Z`: 27 bytes, which a
/// String keeps in a 64-byte allocation of its own. Every resource has two, and no page shows
/// them, yet a large archive keeps them for the whole build. A text of at most 32 characters
/// drawn from a time's 15 (`0`–`9`, `-`, `:`, `.`, `T`, `Z`) is kept here as 4-bit codes in
/// two words; any other text as a String. The text read back is always the one kept.
package struct TimestampText: Sendable, Hashable {
    private enum Storage: Sendable, Hashable {
        /// Codes from the low bits of `low` up, then `high`; the code 15 fills the rest.
        case packed(low: UInt64, high: UInt64)
        case text(String)
    }

    private let storage: Storage

    package init(_ text: String) {
        var text = text
        storage = text.withUTF8 { Self.packed($0) } ?? .text(text)
    }

    /// The text of `bytes`, packed when it can be, without a String between.
    package init(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        storage = Self.packed(bytes) ?? .text(String(decoding: bytes, as: UTF8.self))
    }

    /// The text kept.
    package var text: String {
        switch storage {
        case .text(let text):
            return text
        case .packed(let low, let high):
            var count = 0
            while count < 32, Self.code(at: count, low: low, high: high) != Self.fill { count += 1 }
            return String(unsafeUninitializedCapacity: count) { buffer in
                for position in 0..<count {
                    buffer[position] = Self.symbols[Int(Self.code(at: position, low: low, high: high))]
                }
                return count
            }
        }
    }

    /// The two words of a packed text, as ``init(packedLow:high:)`` takes them back; `nil` for
    /// a text kept as a String.
    package var packedWords: (low: UInt64, high: UInt64)? {
        if case .packed(let low, let high) = storage { return (low, high) }
        return nil
    }

    /// The text whose codes are `low` and `high`, as ``packedWords`` gave them; `nil` when they
    /// are not codes a text packs to (a code other than the fill after the first fill).
    package init?(packedLow low: UInt64, high: UInt64) {
        var ended = false
        for position in 0..<32 {
            let code = Self.code(at: position, low: low, high: high)
            if ended, code != Self.fill { return nil }
            if code == Self.fill { ended = true }
        }
        storage = .packed(low: low, high: high)
    }

    /// Whether the text is kept as codes rather than as a String.
    var isPacked: Bool {
        if case .packed = storage { return true }
        return false
    }

    private static let fill: UInt64 = 15
    private static let symbols: [UInt8] = Array("0123456789-:.TZ".utf8)
    /// Each byte's code, or `fill` for a byte that has none.
    private static let codes: [UInt8] = {
        var codes = [UInt8](repeating: UInt8(fill), count: 256)
        for (code, symbol) in symbols.enumerated() { codes[Int(symbol)] = UInt8(code) }
        return codes
    }()

    private static func code(at position: Int, low: UInt64, high: UInt64) -> UInt64 {
        ((position < 16 ? low : high) >> UInt64((position % 16) * 4)) & fill
    }

    private static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> Storage? {
        guard bytes.count <= 32 else { return nil }
        var words: (low: UInt64, high: UInt64) = (.max, .max)
        for (position, byte) in bytes.enumerated() {
            let code = UInt64(codes[Int(byte)])
            guard code != fill else { return nil }
            let shift = UInt64((position % 16) * 4)
            if position < 16 {
                words.low = words.low & ~(fill << shift) | code << shift
            } else {
                words.high = words.high & ~(fill << shift) | code << shift
            }
        }
        return .packed(low: words.low, high: words.high)
    }
}

/// A resource's `created` or `edited` field: a String to its users, kept as a ``TimestampText``.
/// It encodes as the String.
@propertyWrapper
public struct PackedTimestamp: Sendable, Hashable, Encodable {
    package var packed: TimestampText

    public var wrappedValue: String {
        get { packed.text }
        set { packed = TimestampText(newValue) }
    }

    public init(wrappedValue: String) { packed = TimestampText(wrappedValue) }

    package init(_ packed: TimestampText) { self.packed = packed }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}
