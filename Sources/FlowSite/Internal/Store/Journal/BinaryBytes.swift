import Foundation

/// The one binary format of the engine's stored state (the journal): little-endian integers,
/// 128-bit hashes, and strings as a 32-bit length and their UTF-8. ``ByteReader`` reads it back.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }
    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func hash(_ value: StableHash) {
        u64(value.a)
        u64(value.b)
    }
    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            u32(UInt32(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }
    mutating func optionalString(_ text: String?) {
        if let text {
            u8(1)
            string(text)
        } else {
            u8(0)
        }
    }
}

/// Reads what ``ByteWriter`` wrote; every read is bounds-checked, so a damaged file is refused,
/// never trusted.
struct ByteReader {
    struct Malformed: Error {}
    let bytes: UnsafeRawBufferPointer
    var offset: Int

    init(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        self.bytes = bytes
        self.offset = offset
    }

    private mutating func take(_ count: Int) throws(Malformed) -> Int {
        guard count >= 0, offset >= 0, offset <= bytes.count - count else { throw Malformed() }
        defer { offset += count }
        return offset
    }
    mutating func u8() throws(Malformed) -> UInt8 { bytes[try take(1)] }
    mutating func u32() throws(Malformed) -> UInt32 {
        UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(4), as: UInt32.self))
    }
    mutating func i32() throws(Malformed) -> Int32 { Int32(bitPattern: try u32()) }
    mutating func u64() throws(Malformed) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: try take(8), as: UInt64.self))
    }
    mutating func int() throws(Malformed) -> Int {
        let value = try u64()
        guard value <= UInt64(Int.max) else { throw Malformed() }
        return Int(value)
    }
    mutating func hash() throws(Malformed) -> StableHash { StableHash(a: try u64(), b: try u64()) }
    /// A string's bytes, without making a String.
    mutating func stringBytes() throws(Malformed) -> UnsafeRawBufferPointer {
        let count = Int(try u32())
        let start = try take(count)
        return UnsafeRawBufferPointer(rebasing: bytes[start..<start + count])
    }
    mutating func string() throws(Malformed) -> String { String(decoding: try stringBytes(), as: UTF8.self) }
    mutating func optionalString() throws(Malformed) -> String? { try u8() == 0 ? nil : try string() }
    mutating func skip(_ count: Int) throws(Malformed) { _ = try take(count) }
}
