internal import CSQLite
import Foundation

/// A prepared SQL statement: one compiled `sqlite3_stmt`.
///
/// Get one from ``Connection/prepare(_:)``, bind arguments, then ``step()`` through its rows.
/// It is finalized when released. Like its `Connection`, it is not thread-safe and is not
/// `Sendable`: use it on the thread (or inside the queue closure) that made it.
///
/// ```swift
/// let insert = try db.prepare("INSERT INTO point(x, y) VALUES (?, ?)")
/// for (x, y) in points {
///   try insert.bind(values: x, y)
///   try insert.run()
/// }
/// ```
///
/// ``bind(values:)-(V)`` takes values of static types and is the fast way to run a statement
/// many times; ``bind(_:)`` takes an array or a dictionary of arguments.
///
/// See <https://sqlite.org/c3ref/stmt.html>.
public final class Statement {
  let handle: OpaquePointer
  /// The SQL text this statement was prepared from.
  public let sql: String
  /// The number of parameters (`?`, `:name`, ...) the statement takes; the largest index.
  public let parameterCount: Int
  /// The number of columns each row has (0 for statements that return no rows). A schema
  /// change can alter it (`SELECT *` after `ALTER TABLE ADD COLUMN`): SQLite then re-prepares
  /// the statement on its next step, and the count follows from the first row on.
  @exclusivity(unchecked) public private(set) var columnCount: Int
  /// `SQLITE_STMTSTATUS_REPREPARE` when ``columnCount`` and the layout were last read.
  @exclusivity(unchecked) private var reprepareCount: Int32 = 0
  /// Set while a cached statement is being stepped, so nested use of the same SQL gets a
  /// fresh statement instead of disturbing this one.
  var isInUse = false
  /// The owner of the connection, for a statement made by ``Connection/prepare(_:)`` on a
  /// connection a queue or pool owns: stepping it outside the owner's closures throws.
  var owner: ConnectionOwner?
  /// The connection's guard against running on after SQLite rolled a transaction back.
  var transactionGuard: TransactionGuard?
  private var cachedLayout: ColumnLayout?
  /// The tables the statement reads, learned when it was prepared on a connection that
  /// tracks its activity; `nil` otherwise.
  var tablesRead: Set<String>?
  /// The tables the statement (or a trigger it fires) writes, learned likewise.
  var tablesWritten: Set<String>?

  init(handle: OpaquePointer, sql: String) {
    self.handle = handle
    self.sql = sql
    self.parameterCount = Int(sqlite3_bind_parameter_count(handle))
    self.columnCount = Int(sqlite3_column_count(handle))
  }

  deinit {
    // A statement that escaped its owner's closure may be released on any thread, while
    // the owner runs SQL on the same handle: the owner finalizes it once it holds the
    // connection again.
    if let owner, !owner.isHeldByCurrentThread {
      owner.finalizeLater(handle)
      return
    }
    sqlite3_finalize(handle)
  }

  /// Prepares one statement; the SQL must hold exactly one (trailing blanks and `;` are fine).
  static func prepare(_ sql: String, db: OpaquePointer, persistent: Bool) throws(SQLiteError)
    -> Statement
  {
    // SQLite stops reading at a NUL: whatever follows one would be silently ignored.
    if sql.utf8.contains(0) {
      throw SQLiteError.misuse("SQL text contains a NUL character", sql: sql)
    }
    var statement: OpaquePointer?
    var tailOffset = 0
    let flags = UInt32(persistent ? SQLITE_PREPARE_PERSISTENT : 0)
    let code = sql.withCString { text in
      var tail: UnsafePointer<CChar>?
      let code = sqlite3_prepare_v3(db, text, -1, flags, &statement, &tail)
      if let tail { tailOffset = tail - text }
      return code
    }
    guard code == SQLITE_OK else { throw SQLiteError(code, db, sql: sql) }
    guard let statement else {
      throw SQLiteError.misuse("no SQL statement to prepare (empty or only comments)", sql: sql)
    }
    let rest = sql.utf8.dropFirst(tailOffset)
    if rest.contains(where: { $0 != UInt8(ascii: ";") && !Self.isBlank($0) }),
      Self.holdsStatement(String(decoding: rest, as: UTF8.self), db: db)
    {
      sqlite3_finalize(statement)
      throw SQLiteError.misuse(
        "prepare takes one SQL statement; use execute(_:) to run several", sql: sql)
    }
    return Statement(handle: statement, sql: sql)
  }

  /// Whether `sql` holds a statement (or something that is not blanks, `;` and comments),
  /// as SQLite's own parser sees it.
  private static func holdsStatement(_ sql: String, db: OpaquePointer) -> Bool {
    var statement: OpaquePointer?
    let code = sqlite3_prepare_v3(db, sql, -1, 0, &statement, nil)
    sqlite3_finalize(statement)
    return code != SQLITE_OK || statement != nil
  }

  private static func isBlank(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
  }

  // MARK: Describing the statement

  /// The column names, in order, as SQLite reports them (`AS` aliases included).
  public var columnNames: [String] { layout.names }

  /// The declared type of each column (`"INTEGER"`, `"TEXT"`, ...), or `nil` for an
  /// expression or a column declared without a type. See <https://sqlite.org/c3ref/column_decltype.html>.
  public var declaredTypes: [String?] {
    (0..<columnCount).map { index in
      sqlite3_column_decltype(handle, Int32(index)).map { String(cString: $0) }
    }
  }

  /// `true` when the statement makes no direct change to the database file.
  /// See <https://sqlite.org/c3ref/stmt_readonly.html>.
  public var isReadOnly: Bool { sqlite3_stmt_readonly(handle) != 0 }

  /// The names of the parameters by index (`nil` for a nameless `?`), index 1 first.
  public var parameterNames: [String?] {
    (0..<parameterCount).map { index in
      sqlite3_bind_parameter_name(handle, Int32(index + 1)).map { String(cString: $0) }
    }
  }

  /// Column names and their positions, computed once per statement.
  private func refreshColumns() {
    reprepareCount = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
    columnCount = Int(sqlite3_column_count(handle))
    cachedLayout = nil
  }

  var layout: ColumnLayout {
    if let cachedLayout { return cachedLayout }
    let names = (0..<columnCount).map { index in
      sqlite3_column_name(handle, Int32(index)).map { String(cString: $0) } ?? ""
    }
    let layout = ColumnLayout(names: names)
    cachedLayout = layout
    return layout
  }

  // MARK: Running

  /// Resets the statement so it can run again from the start. Bindings are kept.
  /// See <https://sqlite.org/c3ref/reset.html>.
  public func reset() {
    // Outside its owner's closures this does nothing: the next step or bind reports the
    // misuse. sqlite3_reset repeats the last step's error, which step() already threw.
    if let owner, !owner.isHeldByCurrentThread { return }
    sqlite3_reset(handle)
  }

  /// Sets every parameter back to NULL (outside the closures of the queue or pool that
  /// owns the connection, it does nothing; the next step or bind throws `.misuse`).
  public func clearBindings() {
    if let owner, !owner.isHeldByCurrentThread { return }
    sqlite3_clear_bindings(handle)
  }

  /// Advances to the next row.
  /// - Returns: `true` when a row is available (read it with ``row``), `false` when done.
  /// - Throws: `SQLiteError` for any failure (constraint, busy, interrupt, ...). The
  ///   statement must be ``reset()`` before it can run again. `.misuse` when the statement's
  ///   connection belongs to a ``DatabaseQueue`` or ``DatabasePool`` and this runs outside
  ///   the closure that lent it; `.abortRollback` inside a ``Connection/transaction(_:_:)``
  ///   closure whose transaction SQLite rolled back after an earlier error.
  @discardableResult
  public func step() throws(SQLiteError) -> Bool {
    if let owner { try owner.check(sql) }
    if let transactionGuard, transactionGuard.depth > 0 {
      try transactionGuard.check(sqlite3_db_handle(handle), sql: sql)
    }
    let code = sqlite3_step(handle)
    if code == SQLITE_ROW {
      // A re-prepare (after a schema change) may have changed the result columns.
      if sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0) != reprepareCount {
        refreshColumns()
      }
      return true
    }
    if code == SQLITE_DONE { return false }
    throw SQLiteError.stepFailed(code, handle, sql: sql)
  }

  /// Runs the statement to completion, ignoring rows it returns, then resets it.
  /// - Throws: `SQLiteError` when a step fails; the statement is reset either way.
  public func run() throws(SQLiteError) {
    defer { sqlite3_reset(handle) }
    while try step() {}
  }

  /// The current row, read in place. Valid until the next ``step()`` or ``reset()``;
  /// call ``Row/copy()`` to keep its values.
  public var row: Row { Row(statement: self) }

  /// Steps through every row, handing each to `body` in place, then resets the statement.
  /// Memory stays flat however many rows there are.
  /// - Throws: `SQLiteError` from a step, or what `body` throws (which stops the iteration).
  public func forEachRow(_ body: (Row) throws -> Void) throws {
    defer { sqlite3_reset(handle) }
    let row = Row(statement: self)
    while try step() { try body(row) }
  }

  // MARK: Binding

  /// Binds arguments, positional or named. Every parameter must receive a value (a missing
  /// one is an error, not the previous run's value), so nothing of an earlier binding stays;
  /// a bind that fails sets every parameter to NULL.
  ///
  /// Each argument is an existential, converted when bound: for values of static types in a
  /// loop, ``bind(values:)-(V)`` does the same work several times faster.
  /// - Throws: `SQLiteError` (`.range`) when the count of positional arguments differs
  ///   from ``parameterCount``, a name matches no parameter or two names the same one
  ///   (`"a"` and `":a"`); `.mismatch` for a value SQLite cannot store; the parameter is
  ///   named in the message.
  public func bind(_ arguments: StatementArguments) throws {
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
  /// Static, on the raw handle, so that a caller need not retain the statement.
  /// - Throws: `SQLiteError` when SQLite refuses the bind.
  @usableFromInline static func bind(_ number: Int64, to handle: OpaquePointer, at index: Int32)
    throws(SQLiteError)
  {
    let code = sqlite3_bind_int64(handle, index, number)
    guard code == SQLITE_OK else { throw bindFailure(code, handle) }
  }

  /// Binds a double that is not NaN, as ``bind(_:to:at:)-(Int64,_,_)``.
  @usableFromInline static func bind(_ number: Double, to handle: OpaquePointer, at index: Int32)
    throws(SQLiteError)
  {
    let code = sqlite3_bind_double(handle, index, number)
    guard code == SQLITE_OK else { throw bindFailure(code, handle) }
  }

  /// Binds text, copied by SQLite, as ``bind(_:to:at:)-(Int64,_,_)``.
  @usableFromInline static func bind(_ text: String, to handle: OpaquePointer, at index: Int32)
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
    guard code == SQLITE_OK else { throw bindFailure(code, handle) }
  }

  private static func bindFailure(_ code: Int32, _ handle: OpaquePointer) -> SQLiteError {
    SQLiteError(
      code, sqlite3_db_handle(handle), sql: sqlite3_sql(handle).map { String(cString: $0) })
  }

  // MARK: Reading the current row (used by Row)

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
  @inline(__always) static func isColumn(_ index: Int, of columnCount: Int) -> Bool {
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

@available(*, unavailable, message: "A Statement belongs to one thread; use DatabaseQueue.")
extension Statement: Sendable {}

/// `SQLITE_TRANSIENT`: SQLite copies the bytes before the bind call returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
