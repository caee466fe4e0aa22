import Foundation

// The Decoder a model's init(from:) is given, and the keyed container it hands out: every
// read turns the key into its name once, then goes to the decoder.
extension RowDecoder {
  struct Adapter: Decoder {
    let decoder: RowDecoder
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
      decoder.keyedContainer(type)
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
      let name = key.stringValue
      return try reference.withDecoder { try $0.isNull(name) }
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
      let name = key.stringValue
      return try reference.withDecoder { try $0.value(type, name) }
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      let name = key.stringValue
      return try reference.withDecoder { try $0.decodeAny(type, name) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.decodeIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
      let name = key.stringValue
      return try reference.withDecoder { try $0.valueIfPresent(type, name) }
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
    func superDecoder() throws -> any Decoder {
      reference.withDecoder { Adapter(decoder: $0) }
    }
    func superDecoder(forKey key: Key) throws -> any Decoder {
      reference.withDecoder { Adapter(decoder: $0) }
    }
  }
}
