// Public: binding an integer is inlined into clients, which then call SQLite directly. No
// public declaration of SwiftLite names a type of it.
public import CSQLite
import Foundation

// Binding arguments to a statement's parameters: an array or dictionary of values, or one
// value by position or name. Every bind goes through bindValue(_:at:).
extension Statement {

  /// Binds arguments, positional or named. Every parameter must receive a value (a missing
  /// one is an error, not the previous run's value), so nothing of an earlier binding stays;
  /// a bind that fails sets every parameter to NULL.
  ///
  /// Each argument is an existential, converted when bound: for values of static types in a
  /// loop, ``bind(values:)-(V)`` does the same work several times faster.
  /// - Throws: `SQLiteError` (`.range`) when the count of positional arguments differs
  ///   from ``parameterCount``, a name matches no parameter or two names the same one
  ///   (`"a"` and `":a"`); `.mismatch` for a value SQLite cannot store; the parameter is
  ///   named in the message. `.misuse` outside the closures of the queue or pool that owns
  ///   the connection: the bindings are then left as they were.
  public func bind(_ arguments: StatementArguments) throws {
    // Checked first: clearing the bindings after a failure must not happen on a thread
    // that does not hold the connection.
    if let owner { try owner.check(sql) }
    do {
      try bindAll(arguments)
    } catch {
      // Parameters this bind did not reach would keep the previous run's values.
      sqlite3_clear_bindings(handle)
      throw error
    }
  }

  private func bindAll(_ arguments: StatementArguments) throws {
    switch arguments.storage {
    case .positional(let values):
      guard values.count == parameterCount else { throw countError(values.count) }
      // Read each value through the buffer rather than an iterator (one copy of each
      // existential fewer), without the range check of bind(_:at:): the count is checked.
      try values.withUnsafeBufferPointer { buffer in
        for offset in buffer.indices {
          try bindArgument(buffer[offset], at: Int32(truncatingIfNeeded: offset + 1))
        }
      }
    case .named(let pairs):
      var bound = Set<Int>(minimumCapacity: pairs.count)
      for (name, value) in pairs {
        let index = try parameterIndex(named: name)
        // "a" and ":a" (or a key written twice) would otherwise bind whichever comes last.
        guard bound.insert(index).inserted else {
          let parameter = sqlite3_bind_parameter_name(handle, Int32(index)).map {
            String(cString: $0)
          }
          throw SQLiteError.range(
            "more than one argument for parameter \(parameter ?? name)", sql: sql,
            parameterCount: parameterCount)
        }
        try bind(value, at: index)
      }
      // A parameter left out would silently keep the previous run's value.
      if bound.count < parameterCount {
        let missing = (1...parameterCount).filter { !bound.contains($0) }.map { index in
          sqlite3_bind_parameter_name(handle, Int32(index)).map { String(cString: $0) }
            ?? "?\(index)"
        }
        throw SQLiteError.range(
          "no argument for parameter(s) \(missing.joined(separator: ", "))", sql: sql,
          parameterCount: parameterCount)
      }
    }
  }

  /// Binds one value to the parameter at a 1-based index.
  /// - Throws: `SQLiteError` (`.range`) for an index outside 1...``parameterCount``;
  ///   `.mismatch` for a value SQLite cannot store.
  public func bind(_ value: (any SQLiteValueConvertible)?, at index: Int) throws {
    guard index >= 1, index <= parameterCount else { throw indexError(index) }
    try bindArgument(value, at: Int32(index))
  }

  /// Converts and binds one value to a parameter index known to be in range.
  private func bindArgument(_ value: (any SQLiteValueConvertible)?, at index: Int32) throws {
    let value: any SQLiteValueConvertible = value ?? SQLiteValue.null
    try convertAndBind(value, at: index)  // opens the existential
  }

  /// Binds one value to a named parameter (`:id`, `@id`, `$id`, or `id` to try them all).
  /// - Throws: `SQLiteError` (`.range`) when no parameter has that name.
  public func bind(_ value: (any SQLiteValueConvertible)?, named name: String) throws {
    try bind(value, at: parameterIndex(named: name))
  }

  private func parameterIndex(named name: String) throws(SQLiteError) -> Int {
    let candidates =
      name.first.map { ":@$?".contains($0) } == true
      ? [name] : [":" + name, "@" + name, "$" + name]
    for candidate in candidates {
      let index = sqlite3_bind_parameter_index(handle, candidate)
      if index > 0 { return Int(index) }
    }
    throw SQLiteError.range(
      "no parameter named '\(name)'", sql: sql, parameterCount: parameterCount)
  }

  /// ``bindValue(_:at:)`` for an integer, without building and switching over an
  /// `SQLiteValue`: the same check of the thread at parameter 1, the same errors.
  /// Inlined into the caller: one call to SQLite, the checks and errors out of line.
  @inlinable @inline(__always)
  func bindInteger(_ number: Int64, at index: Int32) throws(SQLiteError) {
    if index == 1, hasOwner { try checkOwner() }
    let code = sqlite3_bind_int64(handle, index, number)
    if code != SQLITE_OK { throw bindError(code) }
  }

  /// Throws `.misuse` when the connection's owner did not lend it to the calling thread.
  @usableFromInline @inline(never) func checkOwner() throws(SQLiteError) {
    if let owner { try owner.check(sql) }
  }

  /// The error of a failed `sqlite3_bind_*` call.
  @usableFromInline @inline(never) func bindError(_ code: Int32) -> SQLiteError {
    SQLiteError(code, sqlite3_db_handle(handle), sql: sql)
  }

  /// Binds an `SQLiteValue` straight to `sqlite3_bind_*`. Text and blobs are copied once,
  /// by SQLite (`SQLITE_TRANSIENT`), from Swift's own storage.
  @usableFromInline func bindValue(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
    // Binding starts at parameter 1: checking there keeps an escaped statement from being
    // bound on another thread at the price of one check per run, not per value.
    if index == 1, let owner { try owner.check(sql) }
    let code: Int32
    switch value {
    case .integer(let number):
      code = sqlite3_bind_int64(handle, index, number)
    case .real(let number):
      guard !number.isNaN else {
        throw SQLiteError(
          extendedCode: .mismatch, message: "parameter \(index): \(SQLiteError.notANumber.message)",
          sql: sql, parameterCount: parameterCount)
      }
      code = sqlite3_bind_double(handle, index, number)
    case .text(var text):
      code = text.withUTF8 { bytes in
        // A zero-length buffer may have no address; SQLite would then bind NULL.
        guard let base = bytes.baseAddress, bytes.count > 0 else {
          return sqlite3_bind_text(handle, index, "", 0, sqliteTransient)
        }
        return base.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
          sqlite3_bind_text64(
            handle, index, $0, sqlite3_uint64(bytes.count), sqliteTransient, UInt8(SQLITE_UTF8))
        }
      }
    case .blob(let data):
      if data.isEmpty {
        code = sqlite3_bind_zeroblob(handle, index, 0)
      } else {
        code = data.withUnsafeBytes { bytes in
          sqlite3_bind_blob64(
            handle, index, bytes.baseAddress, sqlite3_uint64(bytes.count), sqliteTransient)
        }
      }
    case .null:
      code = sqlite3_bind_null(handle, index)
    }
    guard code == SQLITE_OK else { throw SQLiteError(code, sqlite3_db_handle(handle), sql: sql) }
  }

  /// Binds an integer to a parameter of the statement `handle`, known to be in range.
  /// Static, on the raw handle, so that a caller need not retain the statement. The binds
  /// on a handle are those of `Statement+MappedWrites.swift`.
  /// - Throws: `SQLiteError` when SQLite refuses the bind.
  @usableFromInline static func bind(_ number: Int64, to handle: OpaquePointer, at index: Int32)
    throws(SQLiteError)
  { try mappedBind(number, to: handle, at: index) }

  /// Binds a double that is not NaN, as ``bind(_:to:at:)-(Int64,_,_)``.
  @usableFromInline static func bind(_ number: Double, to handle: OpaquePointer, at index: Int32)
    throws(SQLiteError)
  { try mappedBind(number, to: handle, at: index) }

  /// Binds text, copied by SQLite, as ``bind(_:to:at:)-(Int64,_,_)``.
  @usableFromInline static func bind(_ text: String, to handle: OpaquePointer, at index: Int32)
    throws(SQLiteError)
  { try mappedBind(text, to: handle, at: index) }
}
