/// A ``StableHash`` of everything an `Encodable` value encodes, nils and container boundaries marked: a field
/// the type adds is in the fingerprint without anyone listing it.
package enum Fingerprint {
    /// The 64-bit fingerprint of `value`; `userInfo` is what its `encode(to:)` finds in the encoder's.
    package static func of(_ value: some Encodable, userInfo: [CodingUserInfoKey: any Sendable] = [:]) -> UInt64 {
        let encoder = FingerprintEncoder(userInfo: userInfo)
        try? value.encode(to: encoder)
        return encoder.hash.low
    }
}

private final class FingerprintEncoder: Encoder {
    var hash = StableHash()
    var codingPath: [any CodingKey] { [] }
    let userInfo: [CodingUserInfoKey: Any]

    init(userInfo: [CodingUserInfoKey: any Sendable]) { self.userInfo = userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        hash.combine(-1)
        return KeyedEncodingContainer(Keyed<Key>(encoder: self))
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        hash.combine(-2)
        return Unkeyed(encoder: self)
    }
    func singleValueContainer() -> any SingleValueEncodingContainer { Single(encoder: self) }

    func text(_ value: String) { hash.combine(value) }
    func number(_ value: Int) { hash.combine(value) }
    func nothing() { hash.combine(-3) }
    func nested(_ value: some Encodable) {
        try? value.encode(to: self)
        hash.combine(-4)
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let encoder: FingerprintEncoder
        var codingPath: [any CodingKey] { [] }
        // Keys mark skipped optional fields, so `nil, "a"` and `"a", nil` differ.
        private func key(_ key: Key) { encoder.text(key.stringValue) }
        mutating func encodeNil(forKey key: Key) {
            self.key(key)
            encoder.nothing()
        }
        mutating func encode(_ value: Bool, forKey key: Key) {
            self.key(key)
            encoder.number(value ? 1 : 0)
        }
        mutating func encode(_ value: String, forKey key: Key) {
            self.key(key)
            encoder.text(value)
        }
        mutating func encode(_ value: Double, forKey key: Key) {
            self.key(key)
            encoder.number(Int(bitPattern: UInt(value.bitPattern)))
        }
        mutating func encode(_ value: Float, forKey key: Key) {
            self.key(key)
            encoder.number(Int(value.bitPattern))
        }
        mutating func encode(_ value: Int, forKey key: Key) {
            self.key(key)
            encoder.number(value)
        }
        mutating func encode(_ value: Int8, forKey key: Key) {
            self.key(key)
            encoder.number(Int(value))
        }
        mutating func encode(_ value: Int16, forKey key: Key) {
            self.key(key)
            encoder.number(Int(value))
        }
        mutating func encode(_ value: Int32, forKey key: Key) {
            self.key(key)
            encoder.number(Int(value))
        }
        mutating func encode(_ value: Int64, forKey key: Key) {
            self.key(key)
            encoder.number(Int(value))
        }
        mutating func encode(_ value: UInt, forKey key: Key) {
            self.key(key)
            encoder.number(Int(bitPattern: value))
        }
        mutating func encode(_ value: UInt8, forKey key: Key) {
            self.key(key)
            encoder.number(Int(value))
        }
        mutating func encode(_ value: UInt16, forKey key: Key) {
            self.key(key)
            encoder.number(Int(value))
        }
        mutating func encode(_ value: UInt32, forKey key: Key) {
            self.key(key)
            encoder.number(Int(value))
        }
        mutating func encode(_ value: UInt64, forKey key: Key) {
            self.key(key)
            encoder.number(Int(bitPattern: UInt(value)))
        }
        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) {
            self.key(key)
            encoder.nested(value)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            self.key(key)
            return encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            self.key(key)
            return encoder.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { encoder }
        mutating func superEncoder(forKey key: Key) -> any Encoder {
            self.key(key)
            return encoder
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let encoder: FingerprintEncoder
        var codingPath: [any CodingKey] { [] }
        private(set) var count = 0
        mutating func encodeNil() {
            count += 1
            encoder.nothing()
        }
        mutating func encode(_ value: Bool) {
            count += 1
            encoder.number(value ? 1 : 0)
        }
        mutating func encode(_ value: String) {
            count += 1
            encoder.text(value)
        }
        mutating func encode(_ value: Double) {
            count += 1
            encoder.number(Int(bitPattern: UInt(value.bitPattern)))
        }
        mutating func encode(_ value: Float) {
            count += 1
            encoder.number(Int(value.bitPattern))
        }
        mutating func encode(_ value: Int) {
            count += 1
            encoder.number(value)
        }
        mutating func encode(_ value: Int8) {
            count += 1
            encoder.number(Int(value))
        }
        mutating func encode(_ value: Int16) {
            count += 1
            encoder.number(Int(value))
        }
        mutating func encode(_ value: Int32) {
            count += 1
            encoder.number(Int(value))
        }
        mutating func encode(_ value: Int64) {
            count += 1
            encoder.number(Int(value))
        }
        mutating func encode(_ value: UInt) {
            count += 1
            encoder.number(Int(bitPattern: value))
        }
        mutating func encode(_ value: UInt8) {
            count += 1
            encoder.number(Int(value))
        }
        mutating func encode(_ value: UInt16) {
            count += 1
            encoder.number(Int(value))
        }
        mutating func encode(_ value: UInt32) {
            count += 1
            encoder.number(Int(value))
        }
        mutating func encode(_ value: UInt64) {
            count += 1
            encoder.number(Int(bitPattern: UInt(value)))
        }
        mutating func encode<T: Encodable>(_ value: T) {
            count += 1
            encoder.nested(value)
        }
        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type
        ) -> KeyedEncodingContainer<NestedKey> {
            count += 1
            return encoder.container(keyedBy: keyType)
        }
        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            count += 1
            return encoder.unkeyedContainer()
        }
        mutating func superEncoder() -> any Encoder { encoder }
    }

    struct Single: SingleValueEncodingContainer {
        let encoder: FingerprintEncoder
        var codingPath: [any CodingKey] { [] }
        mutating func encodeNil() { encoder.nothing() }
        mutating func encode(_ value: Bool) { encoder.number(value ? 1 : 0) }
        mutating func encode(_ value: String) { encoder.text(value) }
        mutating func encode(_ value: Double) { encoder.number(Int(bitPattern: UInt(value.bitPattern))) }
        mutating func encode(_ value: Float) { encoder.number(Int(value.bitPattern)) }
        mutating func encode(_ value: Int) { encoder.number(value) }
        mutating func encode(_ value: Int8) { encoder.number(Int(value)) }
        mutating func encode(_ value: Int16) { encoder.number(Int(value)) }
        mutating func encode(_ value: Int32) { encoder.number(Int(value)) }
        mutating func encode(_ value: Int64) { encoder.number(Int(value)) }
        mutating func encode(_ value: UInt) { encoder.number(Int(bitPattern: value)) }
        mutating func encode(_ value: UInt8) { encoder.number(Int(value)) }
        mutating func encode(_ value: UInt16) { encoder.number(Int(value)) }
        mutating func encode(_ value: UInt32) { encoder.number(Int(value)) }
        mutating func encode(_ value: UInt64) { encoder.number(Int(bitPattern: UInt(value))) }
        mutating func encode<T: Encodable>(_ value: T) { encoder.nested(value) }
    }
}
