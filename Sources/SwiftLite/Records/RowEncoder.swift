import Foundation

/// Encodes `Encodable` values into column values, in the order of a fixed list of columns.
///
/// Properties of ``SQLiteValueConvertible`` types become their `SQLiteValue`; other
/// properties become JSON text (keys sorted, so equal values give equal text). Columns the
/// value does not encode (a `nil` optional, an ignored property) stay NULL. One encoder
/// serves many values: it learns the order of the keys from the first and looks each key up
/// once.
///
/// Errors are `EncodingError`s whose coding path names the column.
final class RowEncoder {
  /// The columns, in the order of ``values``.
  let columns: [String]
  private let positions: [String: Int]
  /// The values of the last encoded model, one per column.
  @exclusivity(unchecked) public private(set) var values: ContiguousArray<SQLiteValue>
  @exclusivity(unchecked) private var learned: [(key: String, index: Int?)] = []
  @exclusivity(unchecked) private var cursor = 0
  /// The format of each column's `Date`, by column; empty when every date is written in
  /// the standard format.
  var dateFormats: [ColumnDateForm?] = []
  /// When set, ``encode(_:)`` binds each column straight to this statement's parameter
  /// (column `i` to parameter `i + 1`) instead of filling ``values``.
  private let target: Statement?
  /// For a `target`: the columns the value being encoded wrote, so that the others are
  /// bound NULL afterwards. Cheaper than clearing every parameter before each value
  /// (Core clearing all bindings costs about 160 instructions for ten parameters).
  private let marks: ParameterMarks?
  /// A problem found where the `Encoder` API cannot throw (a nested container asked for),
  /// thrown once the value has finished encoding.
  @exclusivity(unchecked) private var deferredError: EncodingError?
  private lazy var json: JSONEncoder = {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return encoder
  }()
  /// How the keyed containers this encoder hands out refer to it (see ``Reference``).
  private let reference = Reference()
  /// The keyed container handed out last (a ``Kept``), for the key type `keptKeys`: handed
  /// out again for the next value, instead of a new one per value, which costs an
  /// allocation and two run-time lookups of generic metadata (about 900 instructions).
  @exclusivity(unchecked) private var kept: AnyObject?
  @exclusivity(unchecked) private var keptKeys: ObjectIdentifier?

  /// An encoder for the given columns; keys that name no column are skipped.
  convenience init(columns: [String]) {
    self.init(columns: columns, target: nil)
  }

  /// An encoder that binds straight into `statement`'s parameters, column `i` to parameter
  /// `i + 1`; columns a value does not encode bind NULL, and ``values`` is not used.
  convenience init(columns: [String], bindingTo statement: Statement) {
    self.init(columns: columns, target: statement)
  }

  private init(columns: [String], target: Statement?) {
    self.target = target
    self.marks = target == nil ? nil : ParameterMarks(count: columns.count)
    self.columns = columns
    var positions: [String: Int] = [:]
    for (index, name) in columns.enumerated() where positions[name] == nil {
      positions[name] = index
    }
    self.positions = positions
    self.values = ContiguousArray(repeating: .null, count: columns.count)
    reference.encoder = Unmanaged.passUnretained(self)
  }

  deinit { reference.encoder = nil }

  /// The encoder as its keyed containers see it: not retained, since the encoder keeps
  /// the last of them (``kept``), which would otherwise keep the encoder alive; `nil`
  /// once the encoder is gone, so that a container kept by a model beyond its encoding
  /// finds no encoder rather than a freed one.
  private final class Reference {
    var encoder: Unmanaged<RowEncoder>?

    /// Runs `body` with the encoder, borrowed: no retain and release around each write.
    /// A container used after its encoder went away gets an encoder of no columns, which
    /// drops what it is given.
    @inline(__always) func withEncoder<T>(_ body: (RowEncoder) throws -> T) rethrows -> T {
      guard let encoder else { return try body(RowEncoder(columns: [])) }
      return try encoder._withUnsafeGuaranteedRef(body)
    }
  }

  /// A keyed container, kept as an object.
  private final class Kept<Key: CodingKey> {
    let container: KeyedEncodingContainer<Key>
    init(_ container: KeyedEncodingContainer<Key>) { self.container = container }
  }

  /// The keyed container for `Key`: the kept one when it is for `Key`, else a new one,
  /// which is kept.
  private func keyedContainer<Key: CodingKey>(_ type: Key.Type) -> KeyedEncodingContainer<Key> {
    if let kept, keptKeys == ObjectIdentifier(Key.self) {
      return unsafeDowncast(kept, to: Kept<Key>.self).container
    }
    let container = KeyedEncodingContainer(Container<Key>(reference: reference))
    kept = Kept(container)
    keptKeys = ObjectIdentifier(Key.self)
    return container
  }

  /// Encodes one value; read the result from ``values`` (or, for an encoder made to bind
  /// into a statement, find it bound there).
  /// - Throws: `EncodingError.invalidValue` naming the column for a value SQLite cannot
  ///   store (NaN, a `UInt64` above `Int64.max`) or that JSON cannot encode; `SQLiteError`
  ///   when a bind fails.
  func encode<T: Encodable>(_ value: T) throws {
    if let target, let marks {
      // Nothing is bound outside the closures of the queue or pool that owns the
      // connection (binding parameter 1 checks that too, but a value may not write it).
      if let owner = target.owner { try owner.check(target.sql) }
      marks.next()
      cursor = 0
      try encodeDeferringErrors(value)
      // The columns the value did not encode (a nil optional, a key it skipped) bind NULL.
      try marks.bindNullToUnwritten(target)
      return
    }
    for index in values.indices { values[index] = .null }
    cursor = 0
    try encodeDeferringErrors(value)
  }

  private func encodeDeferringErrors<T: Encodable>(_ value: T) throws {
    // `deferredError` is nil between calls; it is only touched when set, off the hot path.
    do {
      try value.encode(to: Adapter(encoder: self))
    } catch {
      deferredError = nil
      throw error
    }
    if deferredError != nil, let error = deferredError {
      deferredError = nil
      throw error
    }
  }

  /// Records that a model asked for a container a row cannot hold (the `Encoder` methods
  /// that hand out containers cannot throw); ``encode(_:)`` throws it afterwards.
  fileprivate func refuse(_ value: Any, column: String?, _ reason: String) {
    guard deferredError == nil else { return }
    deferredError = EncodingError.invalidValue(
      value,
      .init(
        codingPath: column.map { [ColumnKey(stringValue: $0)] } ?? [],
        debugDescription: (column.map { "column '\($0)': " } ?? "") + reason))
  }

  private func index(of key: String) -> Int? {
    if cursor < learned.count {
      let entry = learned[cursor]
      cursor += 1
      if entry.key == key { return entry.index }
      return positions[key]
    }
    let index = positions[key]
    if cursor == learned.count { learned.append((key, index)) }
    cursor += 1
    return index
  }

  private func store(_ value: SQLiteValue, at index: Int) throws {
    if target != nil {
      marks?.mark(index)
      // Optional chaining borrows the statement; `if let` would retain it per column.
      try target?.bindValue(value, at: Int32(index + 1))
    } else {
      values[index] = value
    }
  }

  fileprivate func set(_ value: SQLiteValue, _ key: String) throws {
    if let index = index(of: key) { try store(value, at: index) }
  }

  fileprivate func set<T: SQLiteValueConvertible>(converting value: T, _ key: String) throws {
    guard let index = index(of: key) else { return }
    try store(convert(value, key), at: index)
  }

  private func convert(_ value: some SQLiteValueConvertible, _ key: String) throws
    -> SQLiteValue
  {
    do {
      return try value.sqliteValue()
    } catch let error as SQLiteError {
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: [ColumnKey(stringValue: key)],
          debugDescription: "column '\(key)': \(error.message)"))
    }
  }

  fileprivate func setAny<T: Encodable>(_ value: T, _ key: String) throws {
    guard let index = index(of: key) else { return }
    if !dateFormats.isEmpty, let format = dateFormats[index], let date = value as? Date {
      let converted: SQLiteValue
      do {
        converted = try format.value(for: date)
      } catch let error as SQLiteError {
        throw EncodingError.invalidValue(
          date,
          .init(
            codingPath: [ColumnKey(stringValue: key)],
            debugDescription: "column '\(key)': \(error.message)"))
      }
      try store(converted, at: index)
      return
    }
    if let convertible = value as? any SQLiteValueConvertible {
      try store(convert(convertible, key), at: index)
      return
    }
    if let optional = value as? any OptionalValue, optional.isNil {
      // `encode(T?.none, forKey:)`: NULL, not the JSON text 'null'.
      try store(.null, at: index)
      return
    }
    let text: String
    do {
      text = String(decoding: try json.encode(value), as: UTF8.self)
    } catch {
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: [ColumnKey(stringValue: key)],
          debugDescription: "column '\(key)': not JSON-encodable", underlyingError: error))
    }
    try store(.text(text), at: index)
  }

  private struct Adapter: Encoder {
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

  private struct Container<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let reference: Reference
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws {
      try reference.withEncoder { try $0.set(.null, key.stringValue) }
    }
    mutating func encode(_ value: Bool, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(.integer(value ? 1 : 0), key.stringValue) }
    }
    mutating func encode(_ value: String, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(.text(value), key.stringValue) }
    }
    mutating func encode(_ value: Double, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(converting: value, key.stringValue) }
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(converting: value, key.stringValue) }
    }
    mutating func encode(_ value: Int, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(.integer(Int64(value)), key.stringValue) }
    }
    mutating func encode(_ value: Int8, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(.integer(Int64(value)), key.stringValue) }
    }
    mutating func encode(_ value: Int16, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(.integer(Int64(value)), key.stringValue) }
    }
    mutating func encode(_ value: Int32, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(.integer(Int64(value)), key.stringValue) }
    }
    mutating func encode(_ value: Int64, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(.integer(value), key.stringValue) }
    }
    mutating func encode(_ value: UInt, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(converting: value, key.stringValue) }
    }
    mutating func encode(_ value: UInt8, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(.integer(Int64(value)), key.stringValue) }
    }
    mutating func encode(_ value: UInt16, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(.integer(Int64(value)), key.stringValue) }
    }
    mutating func encode(_ value: UInt32, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(.integer(Int64(value)), key.stringValue) }
    }
    mutating func encode(_ value: UInt64, forKey key: Key) throws {
      try reference.withEncoder { try $0.set(converting: value, key.stringValue) }
    }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      try reference.withEncoder { try $0.setAny(value, key.stringValue) }
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
    mutating func superEncoder() -> any Encoder {
      reference.withEncoder { Adapter(encoder: $0) }
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
      reference.withEncoder { Adapter(encoder: $0) }
    }
  }

  /// Containers handed out after ``refuse(_:column:_:)``: they accept and drop everything,
  /// so the model's `encode(to:)` runs to its end and the recorded error is thrown.
  private struct DiscardingKeyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
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

  private struct DiscardingUnkeyed: UnkeyedEncodingContainer {
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

  private struct DiscardingSingle: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws {}
  }

  private struct DiscardingEncoder: Encoder {
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }
    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
      KeyedEncodingContainer(DiscardingKeyed<Key>())
    }
    func unkeyedContainer() -> any UnkeyedEncodingContainer { DiscardingUnkeyed() }
    func singleValueContainer() -> any SingleValueEncodingContainer { DiscardingSingle() }
  }
}
