import Foundation

/// One result row.
///
/// A row handed to a streaming loop (``Connection/forEachRow(_:_:_:)``,
/// ``Statement/forEachRow(_:)``) reads its columns in place from the statement: nothing is
/// copied until you ask for a value, and it is valid only during that iteration. Rows
/// returned by ``Connection/query(_:_:)`` hold their values.
///
/// Read raw values, or typed ones with the explicit mapping of ``SQLiteValueConvertible``:
///
/// ```swift
/// let db = try Connection.inMemory()
/// try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER)")
/// try db.run("INSERT INTO user(name, age) VALUES ('Ann', NULL)")
///
/// for row in try db.query("SELECT id, name, age FROM user") {
///   let id: Int64 = try row.get(at: 0)
///   let name: String = try row.get("name")
///   let age: Int? = try row.get("age")     // NULL reads as nil, never 0
/// }
/// ```
///
/// Reading never converts between storage classes (except INTEGER to a floating-point type
/// when exact, and TEXT to `Data` or `[UInt8]` as its bytes): a mismatch throws a
/// `DecodingError` whose message names the column, the expected Swift type and the stored
/// class.
///
/// Text is never changed: TEXT that is not valid UTF-8 cannot be read as a `String` (or a
/// raw ``SQLiteValue``, whose `.text` holds a `String`) without repairing it, so such a read
/// throws a `DecodingError` naming the column; read it as `Data` or `[UInt8]` to get its
/// exact bytes. Rows returned by ``Connection/query(_:_:)`` keep such bytes too.
///
/// A row read in place reads only while its statement stands on it, and, when a
/// ``DatabaseQueue`` or ``DatabasePool`` owns the connection, inside the closure that lent
/// it: a read after the statement's next step or reset, after the iteration that handed
/// the row out, outside that closure or on another thread throws `SQLiteError` `.misuse`
/// instead of returning what the statement holds by then.
///
/// Not `Sendable`: copy values out to share them.
public struct Row {
  @usableFromInline enum Storage {
    /// A row read in place: the statement, the row's number in ``Row/position``.
    case statement(Statement)
    /// A materialized row: its buffer, the index of its first value in ``Row/position``.
    case buffer(RowBuffer)
  }

  @usableFromInline let storage: Storage
  /// For a row read in place, the number of the row its statement stood on when this row
  /// was made (see `Statement.numberForNewRow`); for a materialized row, the index of its
  /// first value in its buffer. Apart from ``storage``, so that a loop that hands one row
  /// per step to a closure moves one value to the next row by storing its number, with no
  /// retain of the statement per row (see `Statement.forEachRemainingRow`).
  @usableFromInline var position: UInt64

  /// The current row of `statement`; one that can never read when it stands on none.
  init(statement: Statement) {
    storage = .statement(statement)
    position = statement.numberForNewRow
  }

  /// The row of `statement` that keeps `number`, from ``Statement/stepToRow()``.
  @inlinable init(statement: Statement, number: UInt64) {
    storage = .statement(statement)
    position = number
  }

  /// Makes this row read in place the row of its statement that keeps `number`: a new row
  /// in the same value, for a loop that hands one to a closure per step.
  @inlinable mutating func move(to number: UInt64) { position = number }

  init(buffer: RowBuffer, base: Int) {
    storage = .buffer(buffer)
    position = UInt64(truncatingIfNeeded: base)
  }

  /// The index of a materialized row's first value in its buffer.
  @inlinable var base: Int { Int(truncatingIfNeeded: position) }

  /// The statement's handle and column count for a row read in place that may read now
  /// with no other check: its statement still stands on it, and its connection has no
  /// owner. `nil` otherwise (``Row/checkedCursor()`` then decides). The statement is only
  /// touched inside this getter, so a caller that goes on to call SQLite with the handle
  /// does not retain the statement around those calls (the row keeps it alive).
  @inlinable @inline(__always) var cursor: (handle: OpaquePointer, columnCount: Int)? {
    guard case .statement(let statement) = storage, position == statement.rowNumber
    else { return nil }
    return (statement.handle, statement.columnCount)
  }

  /// The cursor of a row read in place that ``cursor`` leaves to a full check: a
  /// row of a statement whose connection has an owner (read on the thread that holds it),
  /// or one that can no longer read (`nil`). Out of line, on the row: the fast paths below
  /// call it last, so they keep nothing across the call and retain nothing.
  @inline(never) func checkedCursor() -> (handle: OpaquePointer, columnCount: Int)? {
    guard case .statement(let statement) = storage, statement.canRead(row: position)
    else { return nil }
    return (statement.handle, statement.columnCount)
  }

  /// Builds a detached row from names and values.
  init(columns: [String], values: [SQLiteValue]) {
    precondition(columns.count == values.count, "one value per column")
    self.init(
      buffer: RowBuffer.make(layout: ColumnLayout(names: columns), values: values), base: 0)
  }

  @usableFromInline var layout: ColumnLayout {
    switch storage {
    case .statement(let statement): return statement.layout
    case .buffer(let buffer): return buffer.layout
    }
  }

  /// The number of columns.
  public var count: Int {
    switch storage {
    case .statement(let statement): return statement.columnCount
    case .buffer(let buffer): return buffer.columnCount
    }
  }

  /// The column names, in order.
  public var columnNames: [String] { layout.names }

  /// The raw value at a position. The position must be in `0..<count` (a programming
  /// error otherwise, like an array index); use ``get(_:at:)`` to get a thrown error instead.
  /// - Throws: `DecodingError.dataCorrupted` naming the column when it holds TEXT that is
  ///   not valid UTF-8 (read it with ``get(_:at:)`` as `Data` instead).
  @inlinable public subscript(index: Int) -> SQLiteValue {
    get throws {
      precondition(
        index >= 0 && index < count, "column index \(index) out of range 0..<\(count)")
      return try value(at: index)
    }
  }

  /// The raw value of the first column with this name, or `nil` when there is no such column.
  /// - Throws: `DecodingError.dataCorrupted` naming the column when it holds TEXT that is
  ///   not valid UTF-8, as the positional subscript does.
  public subscript(name: String) -> SQLiteValue? {
    get throws {
      guard let index = layout.index(of: name) else { return nil }
      return try value(at: index)
    }
  }

  /// All values, in column order.
  /// - Throws: `DecodingError.dataCorrupted` naming the first column that holds TEXT that
  ///   is not valid UTF-8.
  public var values: [SQLiteValue] {
    get throws { try (0..<count).map { try value(at: $0) } }
  }

  /// Whether the column holds NULL.
  /// - Throws: `DecodingError.keyNotFound` for an unknown column; `SQLiteError` `.misuse`
  ///   for a row read in place that can no longer be read.
  public func isNull(_ name: String) throws -> Bool {
    try isNullValue(at: try index(of: name))
  }

  /// Throws `SQLiteError` `.misuse` when this row is read in place and its statement moved
  /// on, or its connection's owner did not lend it to the calling thread.
  @usableFromInline func checkReadable() throws(SQLiteError) {
    guard case .statement(let statement) = storage, position != statement.rowNumber,
      !statement.canRead(row: position)
    else { return }
    throw statement.unreadableRow(position)
  }

  /// Whether the value at a position is NULL, without reading it.
  /// - Throws: `SQLiteError` `.misuse` for a row that can no longer be read.
  @usableFromInline func isNullValue(at index: Int) throws -> Bool {
    try checkReadable()
    switch storage {
    case .statement(let statement): return statement.columnIsNull(at: index)
    case .buffer(let buffer): return buffer.tag(at: base + index) == RowBuffer.null
    }
  }

  /// The stored value, or `nil` for TEXT that is not valid UTF-8 (see ``textBytes(at:)``).
  /// Call ``checkReadable()`` first.
  @usableFromInline func storedValue(at index: Int) -> SQLiteValue? {
    switch storage {
    case .statement(let statement):
      return statement.columnValue(at: index)
    case .buffer(let buffer):
      return buffer.value(at: base + index)
    }
  }

  /// The stored value.
  /// - Throws: `DecodingError.dataCorrupted` naming the column for TEXT that is not valid
  ///   UTF-8, which no `SQLiteValue.text` holds unchanged; `SQLiteError` `.misuse` for a
  ///   row that can no longer be read.
  @usableFromInline func value(at index: Int) throws -> SQLiteValue {
    try checkReadable()
    guard let value = storedValue(at: index) else {
      throw invalidText(SQLiteValue.self, at: index)
    }
    return value
  }

  /// The exact bytes of a TEXT or BLOB value. Call ``checkReadable()`` first.
  func textBytes(at index: Int) -> Data {
    switch storage {
    case .statement(let statement):
      return statement.withUnsafeColumnBytes(at: index) { Data($0) } ?? Data()
    case .buffer(let buffer):
      return buffer.bytes(at: base + index)
    }
  }

  /// A value of `T` read from TEXT that is not valid UTF-8: its bytes for `Data` and
  /// `[UInt8]` (and their optionals), an error for any other type.
  @usableFromInline func readInvalidText<T>(_ type: T.Type, at index: Int) throws -> T {
    if let reader = T.self as? any TextBytesReadable.Type,
      let value = reader.init(textBytes: textBytes(at: index)) as? T
    {
      return value
    }
    throw invalidText(T.self, at: index)
  }

  func invalidText(_ type: Any.Type, at index: Int) -> DecodingError {
    let name = layout.names[index]
    return .dataCorrupted(
      .init(
        codingPath: [ColumnKey(stringValue: name)],
        debugDescription:
          "column '\(name)': the stored TEXT is not valid UTF-8, so it cannot be read as "
          + "\(type) without changing it; read it as Data or [UInt8] to get its exact bytes"))
  }

  /// The value at `index` when it is in range and stored as INTEGER, read without building
  /// an `SQLiteValue`; `nil` otherwise. Inlined into the caller: a materialized row is a
  /// few loads, a row read in place whose statement still stands on it (and has no owner)
  /// the three SQLite calls of ``Statement/columnInt64(_:columnCount:at:)``; any other row
  /// goes to ``checkedInteger(at:)``.
  @inlinable @inline(__always) func integer(at index: Int) -> Int64? {
    if case .buffer(let buffer) = storage {
      return buffer.integer(at: index, base: base)
    }
    // The statement's fields are read before any call, so that the statement need not be
    // retained around the calls (the row keeps it alive).
    if let (handle, columnCount) = cursor {
      return Statement.columnInt64(handle, columnCount: columnCount, at: index)
    }
    return checkedInteger(at: index)
  }

  /// The text at `index` when it is in range, stored as TEXT and valid UTF-8 (`.some(nil)`
  /// for NULL when `allowingNull`), read without building an `SQLiteValue`; `nil` otherwise.
  @usableFromInline func text(at index: Int, allowingNull: Bool) -> String?? {
    if let (handle, columnCount) = cursor {
      return Statement.columnText(
        handle, columnCount: columnCount, at: index, allowingNull: allowingNull)
    }
    if case .statement = storage { return checkedText(at: index, allowingNull: allowingNull) }
    guard case .buffer(let buffer) = storage,
      Statement.isColumn(index, of: buffer.columnCount)
    else { return nil }
    switch buffer.tag(at: base &+ index) {
    case RowBuffer.text: return .some(buffer.text(at: base &+ index))
    case RowBuffer.null: return allowingNull ? .some(nil) : nil
    default: return nil
    }
  }

  /// The REAL value at `index` (`.some(nil)` for NULL when `allowingNull`), read without
  /// building an `SQLiteValue`; `nil` for anything else, which the general path handles.
  @usableFromInline func real(at index: Int, allowingNull: Bool) -> Double?? {
    if let (handle, columnCount) = cursor {
      return Statement.columnDouble(
        handle, columnCount: columnCount, at: index, allowingNull: allowingNull)
    }
    if case .statement = storage { return checkedReal(at: index, allowingNull: allowingNull) }
    guard case .buffer(let buffer) = storage,
      Statement.isColumn(index, of: buffer.columnCount)
    else { return nil }
    switch buffer.tag(at: base &+ index) {
    case RowBuffer.real: return .some(Double(bitPattern: buffer.payload(at: base &+ index)))
    case RowBuffer.null: return allowingNull ? .some(nil) : nil
    default: return nil
    }
  }

  /// The INTEGER value at `index`, or `.some(nil)` for NULL; `nil` for anything else.
  @usableFromInline func optionalInteger(at index: Int) -> Int64?? {
    if let (handle, columnCount) = cursor {
      return Statement.columnOptionalInt64(handle, columnCount: columnCount, at: index)
    }
    if case .statement = storage { return checkedOptionalInteger(at: index) }
    guard case .buffer(let buffer) = storage,
      Statement.isColumn(index, of: buffer.columnCount)
    else { return nil }
    switch buffer.tag(at: base &+ index) {
    case RowBuffer.integer: return .some(Int64(bitPattern: buffer.payload(at: base &+ index)))
    case RowBuffer.null: return .some(nil)
    default: return nil
    }
  }

  /// The value at a position as a Swift type.
  /// - Throws: `DecodingError.keyNotFound` for a position outside the row,
  ///   `DecodingError.valueNotFound` for NULL read as a non-optional type,
  ///   `DecodingError.typeMismatch` for another storage class or an out-of-range integer.
  @inlinable @inline(__always)
  public func get<T: SQLiteValueConvertible>(_ type: T.Type, at index: Int) throws -> T {
    // Fast path for integers read in place: no SQLiteValue is built. It only ever returns
    // a value the general path would return too; anything else falls through to it.
    if T.self == Int64.self, let number = integer(at: index) {
      return unsafeBitCast(number, to: T.self)
    }
    if T.self == Int.self, let number = integer(at: index), let exact = Int(exactly: number) {
      return unsafeBitCast(exact, to: T.self)
    }
    // The same for the other common types, NULL included for their optionals; specialized,
    // all but one of these checks fold away.
    if T.self == String.self, case .some(.some(let text)) = text(at: index, allowingNull: false) {
      return unsafeBitCast(text, to: T.self)
    }
    if T.self == String?.self, case .some(let text) = text(at: index, allowingNull: true) {
      return unsafeBitCast(text, to: T.self)
    }
    if T.self == Double.self, case .some(.some(let number)) = real(at: index, allowingNull: false) {
      return unsafeBitCast(number, to: T.self)
    }
    if T.self == Double?.self, case .some(let number) = real(at: index, allowingNull: true) {
      return unsafeBitCast(number, to: T.self)
    }
    if T.self == Int64?.self, case .some(let number) = optionalInteger(at: index) {
      return unsafeBitCast(number, to: T.self)
    }
    return try converted(T.self, at: index)
  }

  /// The general path of ``get(_:at:)``: the stored value converted by
  /// ``SQLiteValueConvertible/init(sqliteValue:)``. Apart, so that the fast checks above,
  /// which fold to one for a known type, are inlined into every caller, and this is not.
  @inlinable
  func converted<T: SQLiteValueConvertible>(_ type: T.Type, at index: Int) throws -> T {
    // The fast paths refuse a row that can no longer be read; this says why.
    try checkReadable()
    guard index >= 0 && index < count else {
      throw DecodingError.keyNotFound(
        ColumnKey(intValue: index),
        .init(
          codingPath: [], debugDescription: "no column at index \(index) (the row has \(count))"))
    }
    guard let stored = storedValue(at: index) else {
      return try readInvalidText(T.self, at: index)
    }
    if let converted = T(sqliteValue: stored) { return converted }
    throw mismatch(T.self, stored, at: index)
  }

  @usableFromInline func mismatch(_ type: Any.Type, _ stored: SQLiteValue, at index: Int)
    -> DecodingError
  {
    let name = layout.names[index]
    let key = ColumnKey(stringValue: name)
    if stored.isNull {
      return .valueNotFound(
        type,
        .init(
          codingPath: [key], debugDescription: "column '\(name)': expected \(type), stored NULL"))
    }
    var detail = "column '\(name)': expected \(type), stored \(stored.storageClass)"
    if let explained = type as? any ExplainedConversion.Type,
      let reason = explained.expectation(for: stored)
    {
      detail += ": " + reason
    } else if case .integer(let number) = stored {
      detail += " \(number) (out of range or not allowed)"
    }
    return .typeMismatch(type, .init(codingPath: [key], debugDescription: detail))
  }
}
