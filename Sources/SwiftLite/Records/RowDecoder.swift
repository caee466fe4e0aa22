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
  @exclusivity(unchecked) private(set) var layout: ColumnLayout
  /// The order of the keys, learned from the first row, and each one's column.
  @exclusivity(unchecked) private var order = KeyOrder()
  private lazy var json = JSONDecoder()
  /// How the keyed containers this decoder hands out find it (see ``Reference``).
  private let slot = ContainerSlot.take()
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
    slot.attach(self)
  }

  /// A decoder for the rows `statement` steps through, read in place.
  init(ignoredProperties: Set<String>, readingInPlace statement: Statement) {
    self.ignored = ignoredProperties
    self.liveStatement = statement
    self.row = statement.row
    self.layout = statement.layout
    slot.attach(self)
  }

  deinit { slot.giveBack() }

  /// The decoder as its keyed containers see it: a ``ContainerSlot/Token``, plain bits, so
  /// that the standard library's box copies a container per key with no reference
  /// counting; and not a reference to the decoder, which keeps the last of them (``kept``).
  struct Reference {
    let token: ContainerSlot.Token

    /// Runs `body` with the decoder, borrowed. A container used after its decoder went
    /// away gets a decoder of no columns, whose reads fail as for a missing column.
    @inline(__always) func withDecoder<T>(_ body: (RowDecoder) throws -> T) rethrows -> T {
      try token.withOwner(RowDecoder.self, orphan: { RowDecoder() }, body)
    }
  }

  /// A keyed container, kept as an object.
  private final class Kept<Key: CodingKey> {
    let container: KeyedDecodingContainer<Key>
    init(_ container: KeyedDecodingContainer<Key>) { self.container = container }
  }

  /// The keyed container for `Key`: the kept one when it is for `Key`, else a new one,
  /// which is kept.
  func keyedContainer<Key: CodingKey>(_ type: Key.Type) -> KeyedDecodingContainer<Key> {
    if let kept, keptKeys == ObjectIdentifier(Key.self) {
      return unsafeDowncast(kept, to: Kept<Key>.self).container
    }
    let container = KeyedDecodingContainer(Container<Key>(reference: Reference(token: slot.token)))
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
      order.forget()
    }
    self.row = row
    if case .statement(let statement) = row.storage {
      readsLive = statement === liveStatement
    } else {
      readsLive = false
    }
    return try decodeRow(T.self)
  }

  /// Decodes the row of ``liveStatement`` that keeps `number` (from
  /// ``Statement/stepToRow()``): ``decode(_:from:)`` without making a ``Row`` for it, which
  /// costs a retain and a release of the statement; the row kept for the general path is
  /// moved to it in place.
  private func decodeLiveRow<T: Decodable>(_ type: T.Type, _ statement: Statement, number: UInt64)
    throws -> T
  {
    if !statement.hasLayout(layout) {
      layout = statement.layout
      order.forget()
    }
    if readsLive {
      row.move(to: number)
    } else {
      row = Row(statement: statement, number: number)
      readsLive = true
    }
    return try decodeRow(T.self)
  }

  /// Decodes `row`, set up by the caller.
  @inline(__always) private func decodeRow<T: Decodable>(_ type: T.Type) throws -> T {
    order.cursor = 0
    isDecoding = true
    defer { isDecoding = false }
    return try T(from: Adapter(reference: Reference(token: slot.token)))
  }

  /// Every remaining row of the statement this decoder reads in place, as values.
  /// - Throws: what ``decode(_:from:)`` or the statement's step throws.
  func decodeRemainingRows<T: Decodable>(_ type: T.Type) throws -> [T] {
    guard let statement = liveStatement else { return [] }
    let rows = RemainingRows<T>(decoder: self, statement: statement, failure: Failure())
    // Built by the standard library's array-from-sequence loop: appending in a loop here,
    // compiled for no particular `T`, looked the metadata of `[T]` up at run time on every
    // append (about 330 instructions a row).
    let values = Array(rows)
    if let error = rows.failure.error { throw error }
    return values
  }

  /// What a ``RemainingRows`` sequence stopped on.
  private final class Failure {
    var error: (any Error)?
  }

  /// The rows left in a statement, decoded one per step; a failure ends the sequence and
  /// is kept in `failure`. A row per step: a row made at an earlier step can no longer read.
  private struct RemainingRows<T: Decodable>: Sequence, IteratorProtocol {
    let decoder: RowDecoder
    let statement: Statement
    let failure: Failure

    mutating func next() -> T? {
      do {
        guard let number = try statement.stepToRow() else { return nil }
        return try decoder.decodeLiveRow(T.self, statement, number: number)
      } catch {
        failure.error = error
        return nil
      }
    }
  }

  /// The column position of `key`, the next key the value asks for (see ``KeyOrder``).
  @inline(__always) func index<Key: CodingKey>(of key: Key) -> Int? {
    order.index(of: key) { layout.index(of: $0) }
  }

  func missing<T: Decodable>(_ type: T.Type, _ key: String) throws -> T {
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

  /// The value of the column at `index`, found by ``index(of:)``. Inlined into each typed
  /// read of the container, with the integer read in place; the rest is out of line.
  @inline(__always)
  func value<T: SQLiteValueConvertible & Decodable>(_ type: T.Type, at index: Int) throws -> T {
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
    return try storedValue(T.self, at: index)
  }

  @inline(never) private func storedValue<T: SQLiteValueConvertible & Decodable>(
    _ type: T.Type, at index: Int
  ) throws -> T {
    try row.get(T.self, at: index)
  }

  /// The value of the column at `index`, found by ``index(of:)``, or `nil` for NULL.
  func valueIfPresent<T: SQLiteValueConvertible & Decodable>(_ type: T.Type, at index: Int)
    throws -> T?
  {
    try row.get(T?.self, at: index)
  }

  func decodeAny<T: Decodable, Key: CodingKey>(_ type: T.Type, _ key: Key) throws -> T {
    guard let index = index(of: key) else { return try missing(T.self, key.stringValue) }
    return try decodeAny(type, at: index)
  }

  func decodeIfPresent<T: Decodable, Key: CodingKey>(_ type: T.Type, _ key: Key) throws -> T? {
    guard let index = index(of: key), try !row.isNullValue(at: index) else { return nil }
    return try decodeAny(type, at: index)
  }

  /// The value of the column at `index` (whose name an error gives), by its explicit
  /// mapping or as JSON text.
  private func decodeAny<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
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
          codingPath: [ColumnKey(stringValue: layout.names[index])],
          debugDescription:
            "column '\(layout.names[index])': the JSON text does not decode as \(T.self)",
          underlyingError: error))
    }
  }

  func isNull<Key: CodingKey>(_ key: Key) throws -> Bool {
    guard let index = index(of: key) else { return true }
    // A custom init(from:) asks decodeNil then decodes the same key: give the key back.
    order.cursor -= 1
    return try row.isNullValue(at: index)
  }
}
