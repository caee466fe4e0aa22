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
  /// The order of the keys, learned from the first value, and each one's column.
  @exclusivity(unchecked) private var order = KeyOrder()
  /// The format of each column's `Date`, by column; empty when every date is written in
  /// the standard format.
  var dateFormats: [ColumnDateForm?] = []
  /// When set, ``encode(_:)`` binds each column straight to this statement's parameter
  /// (column `i` to parameter `i + 1`) instead of filling ``values``.
  private let target: Statement?
  /// `target`'s handle: integers, doubles and text bind through it with no retain of the
  /// statement and no switch over an `SQLiteValue`.
  private let targetHandle: OpaquePointer?
  /// For a `target`: the columns the value being encoded wrote, so that the others are
  /// bound NULL afterwards. Cheaper than clearing every parameter before each value
  /// (Core clearing all bindings costs about 160 instructions for ten parameters).
  private let marks: ParameterMarks?
  /// A problem found where the `Encoder` API cannot throw (a nested container asked for),
  /// thrown once the value has finished encoding.
  @exclusivity(unchecked) private var deferredError: EncodingError?
  /// Whether `deferredError` is set: a `Bool` to test per value, where testing the optional
  /// itself copies and destroys an `EncodingError?` (about 170 instructions a value).
  @exclusivity(unchecked) private var hasDeferredError = false
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
    self.targetHandle = target?.handle
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
  /// finds no encoder rather than a freed one. (The standard library's box calls a keyed
  /// encoding container's mutating methods in place, copying nothing per key, so this
  /// reference costs no reference counting per key; see ``ContainerSlot`` for decoding.)
  final class Reference {
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
  func keyedContainer<Key: CodingKey>(_ type: Key.Type) -> KeyedEncodingContainer<Key> {
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
      order.cursor = 0
      try encodeDeferringErrors(value)
      // The columns the value did not encode (a nil optional, a key it skipped) bind NULL.
      try marks.bindNullToUnwritten(target)
      return
    }
    for index in values.indices { values[index] = .null }
    order.cursor = 0
    try encodeDeferringErrors(value)
  }

  private func encodeDeferringErrors<T: Encodable>(_ value: T) throws {
    // `deferredError` is nil between calls; it is only touched when set, off the hot path.
    do {
      try value.encode(to: Adapter(encoder: self))
    } catch {
      if hasDeferredError { clearDeferredError() }
      throw error
    }
    if hasDeferredError, let error = deferredError {
      clearDeferredError()
      throw error
    }
  }

  private func clearDeferredError() {
    deferredError = nil
    hasDeferredError = false
  }

  /// Records that a model asked for a container a row cannot hold (the `Encoder` methods
  /// that hand out containers cannot throw); ``encode(_:)`` throws it afterwards.
  func refuse(_ value: Any, column: String?, _ reason: String) {
    guard !hasDeferredError else { return }
    hasDeferredError = true
    deferredError = EncodingError.invalidValue(
      value,
      .init(
        codingPath: column.map { [ColumnKey(stringValue: $0)] } ?? [],
        debugDescription: (column.map { "column '\($0)': " } ?? "") + reason))
  }

  /// The column position of `key`, the next key the value encodes (see ``KeyOrder``), or
  /// `nil` for a key that names no column, which is skipped.
  @inline(__always) func index<Key: CodingKey>(of key: Key) -> Int? {
    order.index(of: key) { positions[$0] }
  }

  /// Writes an integer into the column at `index` (found by ``index(of:)``): bound
  /// straight to the target's parameter when there is one (the owner was checked once in
  /// ``encode(_:)``), else kept in ``values``.
  func setInteger(_ value: Int64, at index: Int) throws {
    if let targetHandle {
      marks?.mark(index)  // optional chaining borrows; `if let` would retain per column
      try Statement.bind(value, to: targetHandle, at: Int32(truncatingIfNeeded: index &+ 1))
    } else {
      values[index] = .integer(value)
    }
  }

  /// Writes text, as ``setInteger(_:at:)``.
  func setText(_ value: String, at index: Int) throws {
    if let targetHandle {
      marks?.mark(index)  // optional chaining borrows; `if let` would retain per column
      try Statement.bind(value, to: targetHandle, at: Int32(truncatingIfNeeded: index &+ 1))
    } else {
      values[index] = .text(value)
    }
  }

  /// Writes a double, as ``setInteger(_:at:)``; NaN, which SQLite cannot store, throws as
  /// the general path reports it.
  func setDouble(_ value: Double, at index: Int) throws {
    guard !value.isNaN else { return try set(converting: value, at: index) }
    if let targetHandle {
      marks?.mark(index)  // optional chaining borrows; `if let` would retain per column
      try Statement.bind(value, to: targetHandle, at: Int32(truncatingIfNeeded: index &+ 1))
    } else {
      values[index] = .real(value)
    }
  }

  /// Writes `value` into the column at `index`.
  func store(_ value: SQLiteValue, at index: Int) throws {
    if target != nil {
      marks?.mark(index)
      // Optional chaining borrows the statement; `if let` would retain it per column.
      try target?.bindValue(value, at: Int32(index + 1))
    } else {
      values[index] = value
    }
  }

  /// Writes the stored form of `value` into the column at `index`.
  func set<T: SQLiteValueConvertible>(converting value: T, at index: Int) throws {
    try store(convert(value, at: index), at: index)
  }

  /// The stored form of `value`, for the column at `index`, which an error names.
  private func convert(_ value: some SQLiteValueConvertible, at index: Int) throws
    -> SQLiteValue
  {
    do {
      return try value.sqliteValue()
    } catch let error as SQLiteError {
      throw EncodingError.invalidValue(
        value,
        .init(
          codingPath: [ColumnKey(stringValue: columns[index])],
          debugDescription: "column '\(columns[index])': \(error.message)"))
    }
  }

  /// Writes a value of any other type into the column at `index`: a date in the column's
  /// format, a ``SQLiteValueConvertible`` as its stored form, anything else as JSON text.
  func setAny<T: Encodable>(_ value: T, at index: Int) throws {
    if !dateFormats.isEmpty, let format = dateFormats[index], let date = value as? Date {
      let converted: SQLiteValue
      do {
        converted = try format.value(for: date)
      } catch let error as SQLiteError {
        throw EncodingError.invalidValue(
          date,
          .init(
            codingPath: [ColumnKey(stringValue: columns[index])],
            debugDescription: "column '\(columns[index])': \(error.message)"))
      }
      try store(converted, at: index)
      return
    }
    if let convertible = value as? any SQLiteValueConvertible {
      try store(convert(convertible, at: index), at: index)
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
          codingPath: [ColumnKey(stringValue: columns[index])],
          debugDescription: "column '\(columns[index])': not JSON-encodable", underlyingError: error
        ))
    }
    try store(.text(text), at: index)
  }
}
