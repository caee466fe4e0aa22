internal import CSQLite

// Raw SQL: the escape hatch that is always one call away, and the statement cache behind
// `run`, `query`, `queryFirst`, `scalar` and `forEachRow`.
extension Connection {
  /// Runs one or many SQL statements separated by `;` (DDL, DML, pragmas), without arguments.
  /// Rows they return are ignored.
  /// - Throws: `SQLiteError` for the first statement that fails; statements before it stay
  ///   applied unless you wrap the call in ``transaction(_:_:)``.
  public func execute(_ sql: String) throws {
    try ensureOpen(sql)
    // SQLite stops reading at a NUL: the statements after it would be silently skipped.
    if sql.utf8.contains(0) {
      throw SQLiteError.misuse("SQL text contains a NUL character", sql: sql)
    }
    try sql.withCString { start in
      var next: UnsafePointer<CChar>? = start
      while var current = next, current.pointee != 0 {
        // Each statement's text (in errors and in the trace) starts at its first keyword.
        while current.pointee == 0x20 || (0x09...0x0D).contains(current.pointee) { current += 1 }
        if current.pointee == 0 { break }
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let code = sqlite3_prepare_v2(handle, current, -1, &statement, &tail)
        guard code == SQLITE_OK else {
          throw SQLiteError(code, handle, sql: String(cString: current))
        }
        next = tail
        guard let statement else { continue }  // blanks or a comment
        defer { sqlite3_finalize(statement) }
        var step = sqlite3_step(statement)
        while step == SQLITE_ROW { step = sqlite3_step(statement) }
        guard step == SQLITE_DONE else {
          let text = sqlite3_sql(statement).map { String(cString: $0) }
          throw SQLiteError.stepFailed(step, statement, sql: text)
        }
      }
    }
  }

  /// Prepares one statement that you own and may run many times. It is not cached.
  /// - Throws: `SQLiteError` for a syntax error or an unknown table or column, and
  ///   `.misuse` when `sql` holds no statement or more than one.
  public func prepare(_ sql: String) throws -> Statement {
    try ensureOpen(sql)
    let statement = try Statement.prepare(sql, db: handle, persistent: false)
    statement.owner = owner
    statement.transactionGuard = transactionGuard
    return statement
  }

  /// Runs `body` with the cached statement for `sql` (preparing it on first use), bound to
  /// `arguments`. A statement whose run failed is evicted from the cache.
  func withCachedStatement<T>(
    _ sql: String, _ arguments: StatementArguments, _ body: (Statement) throws -> T
  ) throws -> T {
    try withCachedStatement(sql, bind: { try $0.bind(arguments) }, body)
  }

  /// Runs `body` with the cached statement for `sql`, after `bind` has bound its parameters.
  /// The statement is reset afterwards; a statement whose run failed is evicted.
  func withCachedStatement<T>(
    _ sql: String, bind: (Statement) throws -> Void, _ body: (Statement) throws -> T
  ) throws -> T {
    try ensureOpen(sql)
    let statement: Statement
    var cached = true
    if let idle = cache.idleStatement(for: sql) {
      statement = idle
    } else if cache.isBusy(sql) {
      statement = try Statement.prepare(sql, db: handle, persistent: false)
      statement.transactionGuard = transactionGuard
      cached = false
    } else {
      statement = try Statement.prepare(sql, db: handle, persistent: true)
      statement.transactionGuard = transactionGuard
      cache.insert(statement)
    }
    statement.isInUse = true
    defer {
      statement.isInUse = false
      sqlite3_reset(statement.handle)
    }
    do {
      try bind(statement)
      return try body(statement)
    } catch {
      if cached { cache.evict(sql) }
      throw error
    }
  }

  /// Runs one statement with bound arguments, through the statement cache.
  /// - Parameters:
  ///   - sql: one SQL statement with `?`, `?NNN`, `:name`, `@name` or `$name` parameters.
  ///   - arguments: the values to bind, positional or named.
  /// - Returns: the number of rows this statement inserted, updated or deleted (not counting
  ///   triggers); 0 for a statement that is not an INSERT, UPDATE or DELETE.
  /// - Throws: `SQLiteError`: `.range` for a wrong argument count or unknown name,
  ///   `.constraint` (see ``SQLiteError/constraintKind``) for a violated constraint, and
  ///   any other failure of SQLite.
  @discardableResult
  public func run(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
    try withCachedStatement(sql, arguments) { statement in
      // sqlite3_changes keeps the count of the last INSERT, UPDATE or DELETE: after a
      // SELECT, DDL or pragma it would report an earlier statement's rows.
      let before = sqlite3_total_changes64(handle)
      while try statement.step() {}
      return sqlite3_total_changes64(handle) == before ? 0 : Int(sqlite3_changes64(handle))
    }
  }

  /// Runs a query and returns all its rows, each holding its values.
  ///
  /// All values land in one contiguous buffer shared by the returned rows (one allocation
  /// for the whole result, not one per row). For large results, prefer ``forEachRow(_:_:_:)``.
  /// TEXT that is not valid UTF-8 keeps its exact bytes: reading it as a `String` throws,
  /// reading it as `Data` gives the bytes (see ``Row``).
  /// - Throws: `SQLiteError` as ``run(_:_:)`` does.
  public func query(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
    try withCachedStatement(sql, arguments) { statement in
      var columns = statement.columnCount
      var values = ContiguousArray<SQLiteValue>()
      var invalidText: Set<Int> = []
      var rowCount = 0
      while try statement.step() {
        if rowCount == 0 {
          columns = statement.columnCount  // a re-prepare may change it
          // One allocation for a one-row result (a lookup), then the usual doubling.
          values.reserveCapacity(columns)
        }
        for index in 0..<columns {
          if let value = statement.columnValue(at: index) {
            values.append(value)
          } else {
            invalidText.insert(values.count)
            values.append(statement.columnValueKeepingText(at: index).value)
          }
        }
        rowCount += 1
      }
      let buffer = RowBuffer(layout: statement.layout, values: values, invalidText: invalidText)
      return (0..<rowCount).map { Row(buffer: buffer, base: $0 &* columns) }
    }
  }

  /// Runs a query and returns its first row, or `nil` when it returns none.
  /// - Throws: `SQLiteError` as ``run(_:_:)`` does.
  public func queryFirst(_ sql: String, _ arguments: StatementArguments = []) throws -> Row? {
    try withCachedStatement(sql, arguments) { statement in
      try statement.step() ? statement.row.copy() : nil
    }
  }

  /// Runs a query and returns the first column of its first row as a Swift type, or `nil`
  /// when there is no row or the value is NULL.
  ///
  /// ```swift
  /// let count = try db.scalar(Int.self, "SELECT count(*) FROM user") ?? 0
  /// ```
  /// - Throws: `SQLiteError` as ``run(_:_:)`` does; `DecodingError` when the value does not
  ///   convert to `T`.
  public func scalar<T: SQLiteValueConvertible>(
    _ type: T.Type = T.self, _ sql: String, _ arguments: StatementArguments = []
  ) throws -> T? {
    try withCachedStatement(sql, arguments) { statement in
      guard try statement.step() else { return nil }
      return try statement.row.get(T?.self, at: 0)
    }
  }

  /// Streams a query's rows one at a time, in place: memory stays flat for any number of
  /// rows. The row passed to `body` is valid only during that call (``Row/copy()`` keeps it).
  /// - Throws: `SQLiteError` from SQLite, or what `body` throws, which stops the iteration.
  public func forEachRow(
    _ sql: String, _ arguments: StatementArguments = [], _ body: (Row) throws -> Void
  ) throws {
    try withCachedStatement(sql, arguments) { statement in
      let row = statement.row
      while try statement.step() { try body(row) }
    }
  }
}
