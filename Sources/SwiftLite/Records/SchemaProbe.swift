import Foundation

/// Learns a `Decodable` type's stored properties without an instance: it decodes the type
/// from a decoder that records every key asked for, with its Swift type, and answers with
/// placeholder values.
///
/// A property whose type is ``SQLiteValueConvertible`` maps to its storage class; any other
/// `Decodable` property is stored as JSON text. A placeholder is needed to continue past each
/// property: a type that cannot make one (an enum whose cases the probe cannot guess) is
/// reported with ``ModelError/cannotInferType(model:property:type:hint:)``.
struct SchemaProbe {
  /// One stored property, in declaration (decoding) order.
  struct Property: Equatable {
    enum Kind: Equatable {
      case value(SQLiteValue.StorageClass)
      case json
    }
    let name: String
    let kind: Kind
    let isOptional: Bool
    let typeName: String
  }

  static func properties<T: Decodable>(of type: T.Type, ignoring ignored: Set<String> = [])
    throws -> [Property]
  {
    let recorder = Recorder(model: String(describing: T.self), ignored: ignored)
    do {
      _ = try T(from: TopDecoder(recorder: recorder))
    } catch let error as ModelError {
      throw error
    } catch {
      guard let last = recorder.properties.last?.name else {
        throw ModelError.cannotInferType(
          model: recorder.model, property: "?", type: "\(T.self)",
          hint: "the type must decode with a keyed container (synthesized Codable): \(error)")
      }
      // The keyed container was used: the type's own init(from:) refused a placeholder.
      throw ModelError.cannotInferType(
        model: recorder.model, property: last, type: "\(T.self)",
        hint: "its init(from:) threw on the placeholder values the columns are inferred with "
          + "(0, \"\", empty collections, the first case): \(error); it must accept them "
          + "(validate after decoding instead)")
    }
    return recorder.properties
  }

  static func kind(of type: Any.Type) -> Property.Kind {
    if let convertible = type as? any SQLiteValueConvertible.Type {
      return .value(convertible.storageClass)
    }
    return .json
  }

  /// A value of `type` to hand back while probing, or `nil` when none can be made.
  static func placeholder<T: Decodable>(_ type: T.Type) -> T? {
    if let convertible = type as? any SQLiteValueConvertible.Type {
      for candidate in placeholderCandidates {
        if let value = convertible.init(sqliteValue: candidate) as? T { return value }
      }
    }
    if let cases = type as? any CaseIterable.Type, let first = firstCase(of: cases) as? T {
      return first
    }
    if type is any SQLiteValueConvertible.Type { return nil }
    return try? T(from: PlaceholderDecoder())
  }

  private static func firstCase<C: CaseIterable>(of type: C.Type) -> Any? { C.allCases.first }

  private static let placeholderCandidates: [SQLiteValue] = [
    .integer(0), .real(0), .text(""), .blob(Data()), .integer(1), .text("0"),
    .text("00000000-0000-0000-0000-000000000000"), .text("1970-01-01T00:00:00.000Z"),
    .text("about:blank"),
  ]

  final class Recorder {
    let model: String
    var properties: [Property] = []
    private var seen: Set<String> = []
    /// Keys the type asked `decodeNil` about: a custom `init(from:)` decoding an optional.
    var askedNil: Set<String> = []
    /// Properties the model does not store: their type is not held against them.
    let ignored: Set<String>
    init(model: String, ignored: Set<String>) {
      self.model = model
      self.ignored = ignored
    }

    func record(_ name: String, _ type: Any.Type, optional: Bool) {
      guard seen.insert(name).inserted else { return }
      // `decode(T?.self, forKey:)` declares an optional as `decodeIfPresent` does.
      let wrapped = (type as? any OptionalValue.Type)?.wrappedType
      properties.append(
        Property(
          name: name, kind: SchemaProbe.kind(of: type),
          isOptional: optional || wrapped != nil || askedNil.contains(name),
          typeName: String(describing: wrapped ?? type)))
    }

    /// A type SwiftLite would store as JSON but that decodes from one plain value (an enum
    /// with a raw value that does not declare `SQLiteValueConvertible`, a wrapper around a
    /// string) would be stored as quoted JSON text (`'"sad"'`), which a `WHERE mood = ?`
    /// never matches and which stops decoding once the conformance is added. Refused.
    func refuseSingleValue<T: Decodable>(_ type: T.Type, for key: String) throws {
      guard !ignored.contains(key), case .json = SchemaProbe.kind(of: type),
        SchemaProbe.decodesFromOneValue(type)
      else { return }
      throw ModelError.cannotInferType(
        model: model, property: key, type: String(describing: type),
        hint: "it decodes from a single value, which would be stored as quoted JSON text; "
          + "declare SQLiteValueConvertible on \(type) (an enum with a raw value gets it for "
          + "free, with CaseIterable if no case has the raw value 0 or \"\")")
    }

    func placeholder<T: Decodable>(_ type: T.Type, for key: String) throws -> T {
      if let value = SchemaProbe.placeholder(type) { return value }
      throw ModelError.cannotInferType(
        model: model, property: key, type: String(describing: type),
        hint: "conform \(type) (or the enum inside it) to SQLiteValueConvertible and CaseIterable "
          + "(an enum with a raw value gets SQLiteValueConvertible for free); a property that is "
          + "not stored must be left out of the type's CodingKeys, with a default value "
          + "(ignoredProperties cannot make a value of this type)")
    }
  }

  struct TopDecoder: Decoder {
    let recorder: Recorder
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
      KeyedDecodingContainer(TopContainer<Key>(recorder: recorder))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
      throw DecodingError.typeMismatch(
        [Any].self, .init(codingPath: [], debugDescription: "a model must be a keyed type"))
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
      throw DecodingError.typeMismatch(
        Any.self, .init(codingPath: [], debugDescription: "a model must be a keyed type"))
    }
  }

  struct TopContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let recorder: Recorder
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { true }
    func decodeNil(forKey key: Key) throws -> Bool {
      // `if try decodeNil(forKey:) { nil } else { decode(...) }` decodes an optional.
      recorder.askedNil.insert(key.stringValue)
      return false
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try recorder.refuseSingleValue(type, for: key.stringValue)
      recorder.record(key.stringValue, type, optional: false)
      return try recorder.placeholder(type, for: key.stringValue)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
      try recorder.refuseSingleValue(type, for: key.stringValue)
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
      recorder.record(key.stringValue, type, optional: true)
      return nil
    }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
      throws -> KeyedDecodingContainer<NestedKey>
    {
      recorder.record(key.stringValue, [String: String].self, optional: false)
      return KeyedDecodingContainer(PlaceholderKeyed<NestedKey>())
    }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      recorder.record(key.stringValue, [String].self, optional: false)
      return PlaceholderUnkeyed()
    }
    func superDecoder() throws -> any Decoder { PlaceholderDecoder() }
    func superDecoder(forKey key: Key) throws -> any Decoder { PlaceholderDecoder() }
  }

  /// Answers every question with an empty or zero value, to build placeholders of nested types.
  struct PlaceholderDecoder: Decoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
      KeyedDecodingContainer(PlaceholderKeyed<Key>())
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { PlaceholderUnkeyed() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { PlaceholderSingle() }
  }

  struct PlaceholderKeyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { [] }
    func contains(_ key: Key) -> Bool { false }
    func decodeNil(forKey key: Key) throws -> Bool { true }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try PlaceholderSingle().decode(type)
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? { nil }
    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key)
      throws -> KeyedDecodingContainer<NestedKey>
    { KeyedDecodingContainer(PlaceholderKeyed<NestedKey>()) }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      PlaceholderUnkeyed()
    }
    func superDecoder() throws -> any Decoder { PlaceholderDecoder() }
    func superDecoder(forKey key: Key) throws -> any Decoder { PlaceholderDecoder() }
  }

  struct PlaceholderUnkeyed: UnkeyedDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int? { 0 }
    var isAtEnd: Bool { true }
    var currentIndex: Int { 0 }
    mutating func decodeNil() throws -> Bool { true }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      try PlaceholderSingle().decode(type)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
      -> KeyedDecodingContainer<NestedKey>
    { KeyedDecodingContainer(PlaceholderKeyed<NestedKey>()) }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      PlaceholderUnkeyed()
    }
    mutating func superDecoder() throws -> any Decoder { PlaceholderDecoder() }
  }

  struct PlaceholderSingle: SingleValueDecodingContainer {
    var codingPath: [any CodingKey] { [] }
    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
      guard let value = SchemaProbe.placeholder(type) else {
        throw DecodingError.dataCorrupted(
          .init(codingPath: [], debugDescription: "no placeholder for \(type)"))
      }
      return value
    }
  }

  /// Whether `type` decodes from one plain value (a single-value container holding a
  /// string, number or Boolean) rather than from a keyed or unkeyed container. Optionals
  /// are looked through. Needs no valid value: decoding stops at the first question.
  static func decodesFromOneValue<T: Decodable>(_ type: T.Type) -> Bool {
    let shape = ShapeDecoder()
    _ = try? T(from: shape)
    return shape.state.isSingleValue
  }

  private final class ShapeState {
    var isSingleValue = false
  }

  private struct StopProbing: Error {}

  private struct ShapeDecoder: Decoder {
    let state = ShapeState()
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
      throw StopProbing()
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw StopProbing() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer {
      ShapeSingle(decoder: self)
    }
  }

  private struct ShapeSingle: SingleValueDecodingContainer {
    let decoder: ShapeDecoder
    var codingPath: [any CodingKey] { [] }
    func decodeNil() -> Bool { false }
    func decode<T: Decodable>(_ type: T.Type) throws -> T {
      if type is any SQLiteValueConvertible.Type {
        decoder.state.isSingleValue = true
        throw StopProbing()
      }
      // A wrapper (Optional, a single-value struct) around another Decodable: look inside.
      return try T(from: decoder)
    }
  }

}

/// `Optional`, seen through a type-erased `Any.Type` or value.
protocol OptionalValue {
  /// The wrapped type.
  static var wrappedType: Any.Type { get }
  /// `nil` of this optional type.
  static var nilValue: Self { get }
  /// Whether the value is `nil`.
  var isNil: Bool { get }
}

extension Optional: OptionalValue {
  static var wrappedType: Any.Type { Wrapped.self }
  static var nilValue: Self { nil }
  var isNil: Bool { self == nil }

}
