import Foundation

/// Decodes `Decodable` values from rows, by column name.
///
/// Properties of ``SQLiteValueConvertible`` types read their column with the explicit
/// mapping (no silent conversion); other properties read JSON text. One decoder serves all
/// the rows of a statement: it learns the order in which the type asks for its keys on the
/// first row and resolves each key's column position once, not once per row.
///
/// Errors are `DecodingError`s whose coding path names the column.
public final class RowDecoder {
  private let ignored: Set<String>
  @exclusivity(unchecked) private var row: Row
  /// The statement the rows are read from in place, when the decoder was made for one:
  /// integers are then read from it directly. A `let`, so reading it retains nothing.
  let liveStatement: Statement?
  /// Whether ``decode(_:from:)`` is running: a decoder kept for reuse is not handed out
  /// again then (a model's own `init(from:)` may look another model up).
  private(set) var isDecoding = false
  /// Whether the current row is `liveStatement`'s current row.
  @exclusivity(unchecked) private var readsLive = false
  @exclusivity(unchecked) private var layout: ColumnLayout
  // Key order learned from the first row: (key, column position).
  @exclusivity(unchecked) private var learned: [(key: String, index: Int?)] = []
  @exclusivity(unchecked) private var cursor = 0
  private lazy var json = JSONDecoder()
  /// How the keyed containers this decoder hands out refer to it (see ``Reference``).
  private let reference = Reference()
  /// The keyed container handed out last (a ``Kept``), for the key type `keptKeys`: handed
  /// out again for the next value, instead of a new one per row, which costs an allocation
  /// and two run-time lookups of generic metadata (about 900 instructions).
  @exclusivity(unchecked) private var kept: AnyObject?
  @exclusivity(unchecked) private var keptKeys: ObjectIdentifier?

  /// A decoder for rows of one result.
  /// - Parameter ignoredProperties: keys with no column, answered with a placeholder
  ///   (`nil`, 0, "", empty) instead of an error.
  public init(ignoredProperties: Set<String> = []) {
    self.ignored = ignoredProperties
    self.liveStatement = nil
    self.row = Row(columns: [], values: [])
    self.layout = row.layout
    reference.decoder = Unmanaged.passUnretained(self)
  }

  /// A decoder for the rows `statement` steps through, read in place.
  init(ignoredProperties: Set<String>, readingInPlace statement: Statement) {
    self.ignored = ignoredProperties
    self.liveStatement = statement
    self.row = statement.row
    self.layout = statement.layout
    reference.decoder = Unmanaged.passUnretained(self)
  }

  deinit { reference.decoder = nil }

  /// The decoder as its keyed containers see it: not retained, since the decoder keeps
  /// the last of them (``kept``), which would otherwise keep the decoder alive; `nil`
  /// once the decoder is gone, so that a container kept by a model beyond its decoding
  /// finds no decoder rather than a freed one.
  private final class Reference {
    var decoder: Unmanaged<RowDecoder>?

    /// Runs `body` with the decoder, borrowed: no retain and release around each read.
    /// A container used after its decoder went away gets a decoder of no columns, whose
    /// reads fail as for a missing column.
    @inline(__always) func withDecoder<T>(_ body: (RowDecoder) throws -> T) rethrows -> T {
      guard let decoder else { return try body(RowDecoder()) }
      return try decoder._withUnsafeGuaranteedRef(body)
    }
  }

  /// A keyed container, kept as an object.
  private final class Kept<Key: CodingKey> {
    let container: KeyedDecodingContainer<Key>
    init(_ container: KeyedDecodingContainer<Key>) { self.container = container }
  }

  /// The keyed container for `Key`: the kept one when it is for `Key`, else a new one,
  /// which is kept.
  private func keyedContainer<Key: CodingKey>(_ type: Key.Type) -> KeyedDecodingContainer<Key> {
    if let kept, keptKeys == ObjectIdentifier(Key.self) {
      return unsafeDowncast(kept, to: Kept<Key>.self).container
    }
    let container = KeyedDecodingContainer(Container<Key>(reference: reference))
    kept = Kept(container)
    keptKeys = ObjectIdentifier(Key.self)
    return container
  }

  /// Decodes one value from a row.
  /// - Throws: `DecodingError` naming the column: a missing column, a NULL for a
  ///   non-optional property, a storage class that does not map to the property's type,
  ///   or JSON that does not decode.
  public func decode<T: Decodable>(_ type: T.Type, from row: Row) throws -> T {
    let layout = row.layout
    if layout !== self.layout {
      self.layout = layout
      learned.removeAll(keepingCapacity: true)
    }
    self.row = row
    if case .statement(let statement, _) = row.storage {
      readsLive = statement === liveStatement
    } else {
      readsLive = false
    }
    cursor = 0
    isDecoding = true
    defer { isDecoding = false }
    return try T(from: Adapter(decoder: self))
  }

  fileprivate func index(of key: String) -> Int? {
    if cursor < learned.count {
      let entry = learned[cursor]
      cursor += 1
      if entry.key == key { return entry.index }
      return layout.index(of: key)
    }
    let index = layout.index(of: key)
    if cursor == learned.count {
      learned.append((key, index))
    }
    cursor += 1
    return index
  }

  fileprivate func missing<T: Decodable>(_ type: T.Type, _ key: String) throws -> T {
    if ignored.contains(key), let placeholder = SchemaProbe.placeholder(type) {
      return placeholder
    }
    throw DecodingError.keyNotFound(
      ColumnKey(stringValue: key),
      .init(
        codingPath: [ColumnKey(stringValue: key)],
        debugDescription:
          "no column named '\(key)' (columns: \(layout.names.joined(separator: ", ")))")
    )
  }

  fileprivate func value<T: SQLiteValueConvertible & Decodable>(
    _ type: T.Type, _ key: String
  ) throws
    -> T
  {
    guard let index = index(of: key) else { return try missing(T.self, key) }
    // Integers read in place skip copying the row and building an SQLiteValue (optional
    // chaining borrows the statement); NULL, another class or an out-of-range value takes
    // the general path, which reports it.
    if readsLive, T.self == Int64.self, let number = liveStatement?.integerColumn(at: index) {
      return unsafeBitCast(number, to: T.self)
    }
    if readsLive, T.self == Int.self, let number = liveStatement?.integerColumn(at: index),
      let exact = Int(exactly: number)
    {
      return unsafeBitCast(exact, to: T.self)
    }
    return try row.get(T.self, at: index)
  }

  fileprivate func valueIfPresent<T: SQLiteValueConvertible & Decodable>(
    _ type: T.Type, _ key: String
  ) throws -> T? {
    guard let index = index(of: key) else { return nil }
    return try row.get(T?.self, at: index)
  }

  fileprivate func decodeAny<T: Decodable>(_ type: T.Type, _ key: String) throws -> T {
    guard let index = index(of: key) else { return try missing(T.self, key) }
    return try decodeAny(type, key, at: index)
  }

  fileprivate func decodeIfPresent<T: Decodable>(_ type: T.Type, _ key: String) throws
    -> T?
  {
    guard let index = index(of: key), try !row.isNullValue(at: index) else { return nil }
    return try decodeAny(type, key, at: index)
  }

  private func decodeAny<T: Decodable>(_ type: T.Type, _ key: String, at index: Int)
    throws -> T
  {
    if let convertible = T.self as? any SQLiteValueConvertible.Type {
      // Row.get reports NULL, a mismatch and TEXT that is not valid UTF-8, naming the column.
      if let value = try row.get(convertible, at: index) as? T { return value }
    }
    let stored = try row.value(at: index)
    if case .null = stored, let optional = T.self as? any OptionalValue.Type,
      let none = optional.nilValue as? T
    {
      return none  // `decode(T?.self, forKey:)` of a NULL
    }
    guard case .text(let text) = stored else {
      throw row.mismatch(T.self, stored, at: index)
    }
    do {
      return try json.decode(T.self, from: Data(text.utf8))
    } catch {
      throw DecodingError.dataCorrupted(
        .init(
          codingPath: [ColumnKey(stringValue: key)],
          debugDescription:
            "column '\(key)': the JSON text does not decode as \(T.self)",
          underlyingError: error))
    }
  }

  fileprivate func isNull(_ key: String) throws -> Bool {
    guard let index = index(of: key) else { return true }
    // A custom init(from:) asks decodeNil then decodes the same key: give the key back.
    cursor -= 1
    return try row.isNullValue(at: index)
  }

  private struct Adapter: Decoder {
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

  private struct Container<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reference: Reference
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] {
      reference.withDecoder { $0.layout.names.compactMap { Key(stringValue: $0) } }
    }
    func contains(_ key: Key) -> Bool {
      reference.withDecoder { $0.layout.index(of: key.stringValue) != nil }
    }
    func decodeNil(forKey key: Key) throws -> Bool {
      try reference.withDecoder { try $0.isNull(key.stringValue) }
    }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
      try reference.withDecoder { try $0.value(type, key.stringValue) }
    }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try reference.withDecoder { try $0.decodeAny(type, key.stringValue) }
    }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
      try reference.withDecoder { try $0.decodeIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
    }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
      try reference.withDecoder { try $0.valueIfPresent(type, key.stringValue) }
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
