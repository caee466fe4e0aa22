import Foundation

// The Encoder a model's encode(to:) is given, and the containers it hands out: every write
// finds the key's column (by its bits, see KeyBits, or its name), then goes to the encoder.
extension RowEncoder {
  struct Adapter: Encoder {
    let encoder: RowEncoder
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
      encoder.keyedContainer(type)
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer {
      encoder.refuse(
        [Any](), column: nil, "a model encodes as a keyed type (synthesized Codable), not a list")
      return DiscardingUnkeyed()
    }
    func singleValueContainer() -> any SingleValueEncodingContainer {
      encoder.refuse(
        (), column: nil,
        "a model encodes as a keyed type (synthesized Codable), not a single value")
      return DiscardingSingle()
    }
  }

  struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let reference: Reference
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws {
      try write(key) { try $0.store(.null, at: $1) }
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
      try write(key) { try $0.setInteger(value ? 1 : 0, at: $1) }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
      try write(key) { try $0.setText(value, at: $1) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
      try write(key) { try $0.setDouble(value, at: $1) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
      try write(key) { try $0.set(converting: value, at: $1) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
      try write(key) { try $0.setInteger(Int64(value), at: $1) }
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
      try write(key) { try $0.setInteger(Int64(value), at: $1) }
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
      try write(key) { try $0.setInteger(Int64(value), at: $1) }
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
      try write(key) { try $0.setInteger(Int64(value), at: $1) }
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
      try write(key) { try $0.setInteger(value, at: $1) }
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
      try write(key) { try $0.set(converting: value, at: $1) }
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
      try write(key) { try $0.setInteger(Int64(value), at: $1) }
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
      try write(key) { try $0.setInteger(Int64(value), at: $1) }
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
      try write(key) { try $0.setInteger(Int64(value), at: $1) }
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
      try write(key) { try $0.set(converting: value, at: $1) }
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      try write(key) { try $0.setAny(value, at: $1) }
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    )
      -> KeyedEncodingContainer<NestedKey>
    {
      reference.withEncoder { $0 }.refuse(
        [String: Any](), column: key.stringValue,
        "encode a Codable value (stored as JSON), not a nested container")
      return KeyedEncodingContainer(DiscardingKeyed<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      reference.withEncoder { $0 }.refuse(
        [Any](), column: key.stringValue,
        "encode a Codable value (stored as JSON), not a nested container")
      return DiscardingUnkeyed()
    }
    /// Finds the key's column, where the key's type is known, then hands it to `body` with
    /// the encoder; a key that names no column writes nothing.
    @inline(__always) private func write(
      _ key: Key, _ body: (RowEncoder, Int) throws -> Void
    ) rethrows {
      try reference.withEncoder { encoder in
        guard let index = encoder.index(of: key) else { return }
        try body(encoder, index)
      }
    }

    mutating func superEncoder() -> any Encoder {
      reference.withEncoder { Adapter(encoder: $0) }
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
      reference.withEncoder { Adapter(encoder: $0) }
    }
  }

  /// Containers handed out after ``refuse(_:column:_:)``: they accept and drop everything,
  /// so the model's `encode(to:)` runs to its end and the recorded error is thrown.
  struct DiscardingKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      KeyedEncodingContainer(DiscardingKeyed<NestedKey>())
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      DiscardingUnkeyed()
    }
    mutating func superEncoder() -> any Encoder { DiscardingEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { DiscardingEncoder() }
  }

  struct DiscardingUnkeyed: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
      -> KeyedEncodingContainer<NestedKey>
    { KeyedEncodingContainer(DiscardingKeyed<NestedKey>()) }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingUnkeyed() }
    mutating func superEncoder() -> any Encoder { DiscardingEncoder() }
  }

  struct DiscardingSingle: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
  }

  struct DiscardingEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
      KeyedEncodingContainer(DiscardingKeyed<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingUnkeyed() }
    func singleValueContainer() -> any SingleValueEncodingContainer { DiscardingSingle() }
  }
}
