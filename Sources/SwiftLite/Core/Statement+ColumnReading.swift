// Public: the read of an INTEGER in place is inlined into clients, which then call SQLite
// directly. No public declaration of SwiftLite names a type of it.
public import CSQLite
import Foundation

// Reading the current row's columns, for Row: one sqlite3_column_value per read, the
// storage class checked before the value is taken.
extension Statement {

  /// The column's value, or `nil` when it is TEXT that is not valid UTF-8: no `String`
  /// holds such text unchanged, and it is never repaired (read its bytes with
  /// ``withUnsafeColumnBytes(at:_:)``). One `sqlite3_column_value`, then `sqlite3_value_*`
  /// calls on it: each `sqlite3_column_*` call repeats the statement's bookkeeping (about
  /// 40% more time per INTEGER column than this). The value is only used on this
  /// connection's thread, before the next step, as SQLite requires of such an "unprotected"
  /// value.
  @usableFromInline func columnValue(at index: Int) -> SQLiteValue? {
    guard let value = sqlite3_column_value(handle, Int32(index)) else { return .null }
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER:
      return .integer(sqlite3_value_int64(value))
    case SQLITE_FLOAT:
      return .real(sqlite3_value_double(value))
    case SQLITE_TEXT:
      // By length, so text holding NUL comes back whole. The pointer first, then the
      // length, as SQLite documents. Validated while copied, in one pass (see validUTF8).
      guard let text = sqlite3_value_text(value) else { return .text("") }
      let count = Int(sqlite3_value_bytes(value))
      return Self.validUTF8(UnsafeBufferPointer(start: text, count: count)).map { .text($0) }
    case SQLITE_BLOB:
      // A zero-length blob gives a NULL pointer.
      guard let bytes = sqlite3_value_blob(value) else { return .blob(Data()) }
      return .blob(Data(bytes: bytes, count: Int(sqlite3_value_bytes(value))))
    case SQLITE_NULL:
      return .null
    default:
      preconditionFailure("sqlite3_value_type returned an unknown storage class")
    }
  }

  func columnIsNull(at index: Int) -> Bool {
    sqlite3_column_type(handle, Int32(index)) == SQLITE_NULL
  }

  /// The column's value when it is in range and stored as INTEGER, else `nil` (the caller
  /// then takes the general path, which reports the error). One `sqlite3_column_value` and
  /// two `sqlite3_value_*` calls are cheaper than `sqlite3_column_type` followed by
  /// `sqlite3_column_int64`, which each repeat the statement's bookkeeping.
  ///
  /// Static, on the raw handle: a caller that borrows the statement (through a ``Row``)
  /// then need not retain it around the C calls.
  @inlinable @inline(__always)
  static func columnInt64(_ handle: OpaquePointer, columnCount: Int, at index: Int) -> Int64? {
    guard isColumn(index, of: columnCount),
      let value = sqlite3_column_value(handle, Int32(truncatingIfNeeded: index)),
      sqlite3_value_type(value) == SQLITE_INTEGER
    else { return nil }
    return sqlite3_value_int64(value)
  }

  /// Whether `index` is in `0..<columnCount`, in one unsigned comparison (a negative index
  /// is a huge unsigned one); the column count comes from SQLite's `Int32`, so an index
  /// that passes fits one too.
  @inlinable @inline(__always)
  static func isColumn(_ index: Int, of columnCount: Int) -> Bool {
    UInt(bitPattern: index) < UInt(bitPattern: columnCount)
  }

  /// A `String` of exactly these bytes, or `nil` when they are not valid UTF-8 (never
  /// repaired). The standard library's own check-while-copying: `String(validating:as:)`
  /// reaches it only after dynamic casts of its generic argument that cost about 1,000
  /// instructions per call, several times the copy of a short text.
  static func validUTF8(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
    String._tryFromUTF8(bytes)
  }

  /// The column's text when it is in range, stored as TEXT and valid UTF-8; `.some(nil)`
  /// for NULL when `allowingNull`; `nil` otherwise (the general path then reports it).
  /// Static, on the raw handle, as ``columnInt64(_:columnCount:at:)``.
  static func columnText(
    _ handle: OpaquePointer, columnCount: Int, at index: Int, allowingNull: Bool
  ) -> String?? {
    guard isColumn(index, of: columnCount),
      let value = sqlite3_column_value(handle, Int32(truncatingIfNeeded: index))
    else { return nil }
    switch sqlite3_value_type(value) {
    case SQLITE_TEXT:
      guard let text = sqlite3_value_text(value) else { return .some("") }
      let count = Int(sqlite3_value_bytes(value))
      guard
        let string = validUTF8(UnsafeBufferPointer(start: text, count: count))
      else { return nil }
      return .some(string)
    case SQLITE_NULL:
      return allowingNull ? .some(nil) : nil
    default:
      return nil
    }
  }

  /// The column's value when it is in range and stored as REAL; `.some(nil)` for NULL when
  /// `allowingNull`; `nil` otherwise (INTEGER included: the general path converts it).
  static func columnDouble(
    _ handle: OpaquePointer, columnCount: Int, at index: Int, allowingNull: Bool
  ) -> Double?? {
    guard isColumn(index, of: columnCount),
      let value = sqlite3_column_value(handle, Int32(truncatingIfNeeded: index))
    else { return nil }
    switch sqlite3_value_type(value) {
    case SQLITE_FLOAT: return .some(sqlite3_value_double(value))
    case SQLITE_NULL: return allowingNull ? .some(nil) : nil
    default: return nil
    }
  }

  /// The column's value when it is in range and stored as INTEGER, or `.some(nil)` for
  /// NULL; `nil` otherwise.
  static func columnOptionalInt64(_ handle: OpaquePointer, columnCount: Int, at index: Int)
    -> Int64??
  {
    guard isColumn(index, of: columnCount),
      let value = sqlite3_column_value(handle, Int32(truncatingIfNeeded: index))
    else { return nil }
    switch sqlite3_value_type(value) {
    case SQLITE_INTEGER: return .some(sqlite3_value_int64(value))
    case SQLITE_NULL: return .some(nil)
    default: return nil
    }
  }

  /// The current row's column when it is stored as INTEGER (and the index is in range),
  /// else `nil`: the caller then takes the general path, which reports the problem.
  func integerColumn(at index: Int) -> Int64? {
    Self.columnInt64(handle, columnCount: columnCount, at: index)
  }

  /// Calls `body` with the bytes of a TEXT or BLOB column without copying them; the
  /// pointer is valid only inside `body`. `nil` for other classes.
  func withUnsafeColumnBytes<T>(
    at index: Int, _ body: (UnsafeRawBufferPointer) throws -> T
  ) rethrows -> T? {
    let column = Int32(index)
    switch sqlite3_column_type(handle, column) {
    case SQLITE_TEXT:
      let text = sqlite3_column_text(handle, column)
      return try body(
        UnsafeRawBufferPointer(start: text, count: Int(sqlite3_column_bytes(handle, column))))
    case SQLITE_BLOB:
      let blob = sqlite3_column_blob(handle, column)
      return try body(
        UnsafeRawBufferPointer(start: blob, count: Int(sqlite3_column_bytes(handle, column))))
    default:
      return nil
    }
  }
}
