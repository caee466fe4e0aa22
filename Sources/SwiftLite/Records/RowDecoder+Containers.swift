import Foundation

// The Decoder a model's init(from:) is given, and the keyed container it hands out: every
// read hands the key to the decoder, which turns it into its name only when its bits do not
// find its column (see KeyBits).
extension RowDecoder {
  /// Holds its decoder as a ``Reference``, as the containers do: handing it to
  /// `init(from:)` retains nothing, and one kept past its decoder finds none.
  struct Adapter: Decoder {
    let reference: Reference
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
      reference.withDecoder { $0.keyedContainer(type) }
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
      throw DecodingError.typeMismatch(
        [Any].self, .init(codingPath: [], debugDescription: "a row decodes as a keyed type"))
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
      throw DecodingError.typeMismatch(
        Any.self, .init(codingPath: [], debugDescription: "a row decodes as a keyed type"))
    }
  }

  struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reference: Reference
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] {
      reference.withDecoder { $0.layout.names.compactMap { Key(stringValue: $0) } }
    }
    func contains(_ key: Key) -> Bool {
      let name = key.stringValue
      return reference.withDecoder { $0.layout.index(of: name) != nil }
    }
    func decodeNil(forKey key: Key) throws -> Bool {
      try reference.withDecoder { try $0.isNull(key) }
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
      try read(type, key)
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      try read(type, key)
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      try read(type, key)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
      try read(type, key)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
      try read(type, key)
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
      try read(type, key)
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
      try read(type, key)
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
      try read(type, key)
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
      try read(type, key)
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
      try read(type, key)
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
      try read(type, key)
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
      try read(type, key)
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
      try read(type, key)
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
      try read(type, key)
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try reference.withDecoder { try $0.decodeAny(type, key) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
      try reference.withDecoder { try $0.decodeIfPresent(type, key) }
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
      try readIfPresent(type, key)
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
      try readIfPresent(type, key)
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
      throws -> KeyedDecodingContainer<NestedKey>
    {
      throw DecodingError.typeMismatch(
        type,
        .init(
          codingPath: [key],
          debugDescription: "column '\(key.stringValue)': nested containers are stored as JSON; "
            + "decode a Codable value instead"))
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      throw DecodingError.typeMismatch(
        [Any].self,
        .init(
          codingPath: [key],
          debugDescription: "column '\(key.stringValue)': nested containers are stored as JSON; "
            + "decode a Codable value instead"))
    }
    /// A value of a type with an explicit mapping: the key's column found here, where the
    /// key's type is known, then read by a decoder method compiled for `T` alone.
    @inline(__always) private func read<T: SQLiteValueConvertible & Decodable>(
      _ type: T.Type, _ key: Key
    ) throws -> T {
      try reference.withDecoder { decoder in
        guard let index = decoder.index(of: key) else {
          return try decoder.missing(type, key.stringValue)
        }
        return try decoder.value(type, at: index)
      }
    }

    @inline(__always) private func readIfPresent<T: SQLiteValueConvertible & Decodable>(
      _ type: T.Type, _ key: Key
    ) throws -> T? {
      try reference.withDecoder { decoder in
        guard let index = decoder.index(of: key) else { return nil }
        return try decoder.valueIfPresent(type, at: index)
      }
    }

    func superDecoder() throws -> any Decoder { Adapter(reference: reference) }
    func superDecoder(forKey key: Key) throws -> any Decoder { Adapter(reference: reference) }
  }
}
