internal import CSQLite
import Foundation

// SQL functions and collations written in Swift. See
// <https://sqlite.org/c3ref/create_function.html> and
// <https://sqlite.org/c3ref/create_collation.html>.
extension Connection {
  /// Adds (or replaces) an SQL function that runs a Swift closure.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE user(name TEXT)")
  /// try db.run("INSERT INTO user VALUES ('Ann')")
  ///
  /// try db.createFunction("reverse", argumentCount: 1, deterministic: true) { arguments in
  ///   guard case .text(let text) = arguments[0] else { return nil }
  ///   return String(text.reversed())
  /// }
  /// let name = try db.scalar(String.self, "SELECT reverse(name) FROM user")  // "nnA"
  /// ```
  ///
  /// The closure runs on the thread of the statement that calls the function, while it
  /// runs: it must not use this connection. An error it throws fails the statement with
  /// `SQLiteError` (`.error`) whose message is the error's description. A function lives
  /// as long as its connection: over a ``DatabasePool``, register it on every connection
  /// through ``OpenOptions/connectionSetup``.
  /// - Parameters:
  ///   - name: the function's name in SQL (at most 255 bytes of UTF-8).
  ///   - argumentCount: how many arguments it takes (0...127), or `nil` for any number.
  ///     Functions of the same name with different counts are different functions.
  ///   - deterministic: `true` when the same arguments always give the same result, which
  ///     lets SQLite use the function in indexes and factor calls out of loops.
  ///   - body: receives the arguments and returns the result (`nil` for NULL).
  /// - Throws: `SQLiteError` (`.misuse`) for a bad name or count; what SQLite reports
  ///   otherwise (such as `.busy` when a statement using the old function is running).
  public func createFunction(
    _ name: String, argumentCount: Int?, deterministic: Bool = false,
    _ body: @escaping ([SQLiteValue]) throws -> (any SQLiteValueConvertible)?
  ) throws {
    try ensureOpen(nil)
    try Self.checkFunctionName(name)
    let count = try Self.functionArgumentCount(argumentCount, name: name)
    var flags = SQLITE_UTF8
    if deterministic { flags |= SQLITE_DETERMINISTIC }
    let box = Unmanaged.passRetained(FunctionBox(body)).toOpaque()
    // On failure SQLite calls the destructor itself, which releases the box.
    let code = sqlite3_create_function_v2(
      handle, name, count, flags, box, functionCallback, nil, nil, functionDestructor)
    try SQLiteError.check(code, handle)
  }

  /// Removes a function added by ``createFunction(_:argumentCount:deterministic:_:)`` (or
  /// restores SQLite's own when the name was one of its built-in functions).
  /// - Throws: `SQLiteError` as ``createFunction(_:argumentCount:deterministic:_:)``.
  public func removeFunction(_ name: String, argumentCount: Int?) throws {
    try ensureOpen(nil)
    try Self.checkFunctionName(name)
    let count = try Self.functionArgumentCount(argumentCount, name: name)
    let code = sqlite3_create_function_v2(handle, name, count, SQLITE_UTF8, nil, nil, nil, nil, nil)
    try SQLiteError.check(code, handle)
  }

  /// Adds (or replaces) a collation that orders text with a Swift closure, for
  /// `ORDER BY name COLLATE <name>`, `=` comparisons and columns declared with it.
  ///
  /// The closure must define a total order (consistent, transitive): an index built with an
  /// inconsistent collation returns wrong rows. Text that is not valid UTF-8 reaches it with
  /// its bad bytes replaced by U+FFFD.
  /// - Parameters:
  ///   - name: the collation's name.
  ///   - compare: orders two strings.
  /// - Throws: `SQLiteError` (`.misuse`) for an empty name or one holding NUL; what SQLite
  ///   reports otherwise.
  public func createCollation(
    _ name: String, _ compare: @escaping (String, String) -> ComparisonResult
  ) throws {
    try ensureOpen(nil)
    try Self.checkFunctionName(name)
    let box = Unmanaged.passRetained(CollationBox(compare))
    let code = sqlite3_create_collation_v2(
      handle, name, SQLITE_UTF8, box.toOpaque(), collationCallback, collationDestructor)
    guard code == SQLITE_OK else {
      // "The xDestroy callback is not called if the sqlite3_create_collation_v2() function
      // fails."
      box.release()
      throw SQLiteError(code, handle)
    }
  }

  static func checkFunctionName(_ name: String) throws(SQLiteError) {
    if name.isEmpty || name.utf8.contains(0) || name.utf8.count > 255 {
      throw SQLiteError.misuse(
        "a function or collation name must be 1 to 255 bytes without NUL, not '\(name)'")
    }
  }

  static func functionArgumentCount(_ count: Int?, name: String) throws(SQLiteError)
    -> Int32
  {
    guard let count else { return -1 }
    guard (0...127).contains(count) else {
      throw SQLiteError.misuse(
        "function '\(name)' cannot take \(count) arguments: SQLite allows 0 to 127, "
          + "or any number (nil)")
    }
    return Int32(count)
  }
}

/// The closure of an SQL function, retained by SQLite until it drops the function.
private final class FunctionBox {
  let body: ([SQLiteValue]) throws -> (any SQLiteValueConvertible)?
  init(_ body: @escaping ([SQLiteValue]) throws -> (any SQLiteValueConvertible)?) {
    self.body = body
  }
}

/// The closure of a collation, retained by SQLite until it drops the collation.
private final class CollationBox {
  let compare: (String, String) -> ComparisonResult
  init(_ compare: @escaping (String, String) -> ComparisonResult) { self.compare = compare }
}

/// The value of a function argument, copied out of SQLite's `sqlite3_value`.
func argumentValue(_ value: OpaquePointer?) -> SQLiteValue {
  switch sqlite3_value_type(value) {
  case SQLITE_INTEGER:
    return .integer(sqlite3_value_int64(value))
  case SQLITE_FLOAT:
    return .real(sqlite3_value_double(value))
  case SQLITE_TEXT:
    // The pointer first, then the length, as SQLite documents.
    guard let text = sqlite3_value_text(value) else { return .text("") }
    let bytes = UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value)))
    return .text(Statement.validUTF8(bytes) ?? String(decoding: bytes, as: UTF8.self))
  case SQLITE_BLOB:
    guard let blob = sqlite3_value_blob(value) else { return .blob(Data()) }
    return .blob(Data(bytes: blob, count: Int(sqlite3_value_bytes(value))))
  default:
    return .null
  }
}

/// Sets a function's result from a Swift value.
func setResult(_ context: OpaquePointer?, _ value: SQLiteValue) {
  switch value {
  case .integer(let number):
    sqlite3_result_int64(context, number)
  case .real(let number):
    sqlite3_result_double(context, number)
  case .text(var text):
    text.withUTF8 { bytes in
      // A zero-length buffer may have no address; SQLite would then return NULL.
      guard let base = bytes.baseAddress, bytes.count > 0 else {
        sqlite3_result_text(context, "", 0, sqliteTransient)
        return
      }
      base.withMemoryRebound(to: CChar.self, capacity: bytes.count) { chars in
        sqlite3_result_text64(
          context, chars, sqlite3_uint64(bytes.count), sqliteTransient, UInt8(SQLITE_UTF8))
      }
    }
  case .blob(let data):
    if data.isEmpty {
      sqlite3_result_zeroblob(context, 0)
    } else {
      data.withUnsafeBytes { bytes in
        sqlite3_result_blob64(
          context, bytes.baseAddress, sqlite3_uint64(bytes.count), sqliteTransient)
      }
    }
  case .null:
    sqlite3_result_null(context)
  }
}

private func functionCallback(
  _ context: OpaquePointer?, _ count: Int32, _ arguments: UnsafeMutablePointer<OpaquePointer?>?
) {
  guard let data = sqlite3_user_data(context) else { return }
  let box = Unmanaged<FunctionBox>.fromOpaque(data).takeUnretainedValue()
  var values: [SQLiteValue] = []
  values.reserveCapacity(Int(count))
  for index in 0..<Int(count) { values.append(argumentValue(arguments?[index])) }
  do {
    let result = try box.body(values)
    setResult(context, try result?.sqliteValue() ?? .null)
  } catch let error as SQLiteError {
    sqlite3_result_error(context, error.message, -1)
  } catch {
    sqlite3_result_error(context, String(describing: error), -1)
  }
}

private func functionDestructor(_ data: UnsafeMutableRawPointer?) {
  guard let data else { return }
  Unmanaged<FunctionBox>.fromOpaque(data).release()
}

private func collationCallback(
  _ data: UnsafeMutableRawPointer?, _ leftCount: Int32, _ left: UnsafeRawPointer?,
  _ rightCount: Int32, _ right: UnsafeRawPointer?
) -> Int32 {
  guard let data else { return 0 }
  let box = Unmanaged<CollationBox>.fromOpaque(data).takeUnretainedValue()
  func string(_ bytes: UnsafeRawPointer?, _ count: Int32) -> String {
    guard let bytes, count > 0 else { return "" }
    return String(
      decoding: UnsafeRawBufferPointer(start: bytes, count: Int(count)), as: UTF8.self)
  }
  switch box.compare(string(left, leftCount), string(right, rightCount)) {
  case .orderedAscending: return -1
  case .orderedSame: return 0
  case .orderedDescending: return 1
  }
}

private func collationDestructor(_ data: UnsafeMutableRawPointer?) {
  guard let data else { return }
  Unmanaged<CollationBox>.fromOpaque(data).release()
}
