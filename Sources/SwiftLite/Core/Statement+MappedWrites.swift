// Public: these binds are inlined into clients, which then call SQLite directly. No public
// declaration of SwiftLite names a type of it.
public import CSQLite

// Binds for `MappedRowWriter`, which binds each value of a `RowMapped` model straight into
// the parameters of the statement that stores it. Free functions on the raw handle: inlined
// into a model's `write(to:)`, each bind is the one call to SQLite and a comparison, with no
// call of its own around it, no class metadata to look up (a static method of `Statement`
// needs it) and no statement to retain. The thread and the parameter's range are checked by
// the caller before it binds (the statement's run checks the thread; the model table made
// the parameter indexes), so these check neither.

/// Binds an integer to parameter `index` of the statement `handle`.
/// - Throws: `SQLiteError` when SQLite refuses the bind.
@inlinable @inline(__always)
func mappedBind(_ number: Int64, to handle: OpaquePointer, at index: Int32) throws(SQLiteError) {
  let code = sqlite3_bind_int64(handle, index, number)
  if code != SQLITE_OK { throw mappedBindFailure(code, handle) }
}

/// Binds a double that is not NaN to parameter `index` of the statement `handle`.
/// - Throws: `SQLiteError` when SQLite refuses the bind.
@inlinable @inline(__always)
func mappedBind(_ number: Double, to handle: OpaquePointer, at index: Int32) throws(SQLiteError) {
  let code = sqlite3_bind_double(handle, index, number)
  if code != SQLITE_OK { throw mappedBindFailure(code, handle) }
}

/// Binds text, copied by SQLite byte for byte, to parameter `index` of the statement
/// `handle`. Out of line: the UTF-8 access is larger than the call it would save.
/// - Throws: `SQLiteError` when SQLite refuses the bind.
@usableFromInline func mappedBind(_ text: String, to handle: OpaquePointer, at index: Int32)
  throws(SQLiteError)
{
  var text = text
  let code = text.withUTF8 { bytes in
    // A zero-length buffer may have no address; SQLite would then bind NULL.
    guard let base = bytes.baseAddress, bytes.count > 0 else {
      return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
    }
    return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
      sqlite3_bind_text64(
        handle, index, $0, sqlite3_uint64(bytes.count), sqliteTransient, UInt8(SQLITE_UTF8))
    }
  }
  if code != SQLITE_OK { throw mappedBindFailure(code, handle) }
}

/// The error for a bind SQLite refused with `code`, naming the statement's SQL. Out of line,
/// so that the inlined binds above stay a call and a comparison.
@usableFromInline @inline(never)
func mappedBindFailure(_ code: Int32, _ handle: OpaquePointer) -> SQLiteError {
  SQLiteError(
    code, sqlite3_db_handle(handle), sql: sqlite3_sql(handle).map { String(cString: $0) })
}
