import FlowSiteUtilities
import Foundation

/// The one hash for everything FlowSite and its apps store or name: the same on every machine and run (unlike
/// `Hasher`); 128 bits, fast, not cryptographic. ``InputFingerprints/fingerprint(of:userInfo:)`` is this hash of a
/// value's encoding.
public struct StableHash: Sendable, Hashable, CustomStringConvertible {
    private(set) var a: UInt64 = 0x9E37_79B9_7F4A_7C15
    private(set) var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F

    /// The hash of nothing: combine inputs into it.
    public init() {}

    /// The hash in 64 bits, for tables that keep 64 bits a key.
    public var low: UInt64 { a ^ (b &* 0x9E37_79B9_7F4A_7C15) }

    init(a: UInt64, b: UInt64) {
        self.a = a
        self.b = b
    }

    /// 32 hex digits.
    public var description: String { Self.hex(a) + Self.hex(b) }

    /// Parses ``description``.
    init?(_ text: Substring) {
        guard text.utf8.count == 32, let a = UInt64(text.prefix(16), radix: 16),
            let b = UInt64(text.suffix(16), radix: 16)
        else { return nil }
        self.a = a
        self.b = b
    }

    /// Appends ``description`` as UTF-8.
    func appendHex(to out: inout [UInt8]) {
        let digits = Array("0123456789abcdef".utf8)
        for value in [a, b] {
            for shift in stride(from: 60, through: 0, by: -4) { out.append(digits[Int(value >> UInt64(shift) & 0xF)]) }
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    fileprivate mutating func mix(_ word: UInt64) {
        a = (a ^ word) &* 0xFF51_AFD7_ED55_8CCD
        a ^= a >> 33
        b = (b ^ (word &+ 0x1656_67B1_9E37_79F9)) &* 0xC4CE_B9FE_1A85_EC53
        b ^= b >> 29
    }

    /// Mixes in `bytes` and their count, so adjacent inputs can't run together.
    public mutating func combine(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        let count = bytes.count
        while index + 8 <= count {
            mix(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < count {
            tail |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        mix(tail ^ (UInt64(count) << 56))
    }

    /// Mixes in `bytes` and their count.
    public mutating func combine(_ bytes: [UInt8]) { bytes.withUnsafeBytes { combine($0) } }

    /// Mixes in `text` as UTF-8 and its length.
    public mutating func combine(_ text: String) {
        var text = text
        text.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    /// Mixes in `value` as 64 bits.
    public mutating func combine(_ value: Int) { mix(UInt64(bitPattern: Int64(value))) }

    /// Mixes in another hash, such as a part's fingerprint into its whole's.
    public mutating func combine(_ hash: StableHash) {
        mix(hash.a)
        mix(hash.b)
    }

    /// The fingerprint of the identity of the file at `path` (through links): its device, inode, size, and
    /// modification and status change times. It stays the same while the file is the very one, and changes when
    /// the file is written, replaced or touched, so a cache can tell whether a file is still the one it read
    /// without reading it. `nil` when there is no such file.
    public init?(identityOfFileAt path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init()
        let identity = FileIdentity(status)
        for word in identity.words { mix(word) }
        combine(identity.changed.seconds)
        combine(identity.changed.nanoseconds)
    }
}

extension StableHash {
    /// The same hash as combining all the bytes at once, without holding them all.
    struct Pieces {
        private var hash: StableHash
        private var pending: UInt64 = 0
        private var pendingCount = 0
        private(set) var count = 0

        init(_ hash: StableHash = StableHash()) { self.hash = hash }

        mutating func add(_ bytes: UnsafeRawBufferPointer) {
            count += bytes.count
            var index = 0
            while pendingCount > 0, pendingCount < 8, index < bytes.count {
                pending |= UInt64(bytes[index]) << UInt64(8 * pendingCount)
                pendingCount += 1
                index += 1
            }
            if pendingCount == 8 {
                hash.mix(pending)
                (pending, pendingCount) = (0, 0)
            }
            while index + 8 <= bytes.count {
                hash.mix(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                index += 8
            }
            while index < bytes.count {
                pending |= UInt64(bytes[index]) << UInt64(8 * pendingCount)
                pendingCount += 1
                index += 1
            }
        }

        func finish() -> StableHash {
            var hash = hash
            hash.mix(pending ^ (UInt64(count) << 56))
            return hash
        }
    }
}
