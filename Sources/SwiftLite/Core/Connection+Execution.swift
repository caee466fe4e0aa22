internal import CSQLite

// Raw SQL: the escape hatch that is always one call away, and the statement cache behind
// `run`, `query`, `queryFirst`, `scalar` and `forEachRow`. These text forms are disfavored
// overloads: a string literal goes to the forms that take interpolated SQL (in Query), where
// an interpolation binds its value instead of splicing it.
extension Connection {
  /// Runs one or many SQL statements separated by `;` (DDL, DML, pragmas), without arguments.
  /// Rows they return are ignored.
  /// - Throws: `SQLiteError` for the first statement that fails; statements before it stay
  ///   applied unless you wrap the call in ``transaction(_:_:)``.
  public func execute(_ sql: String) throws {
    try ensureOpen(sql)
    // SQLite stops reading at a NUL: the statements after it would be silently skipped.
    if sql.containsNUL {
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
        let activity = tableActivity.tracksReads ? tableActivity : nil
        activity?.beginPreparing()
        let code = sqlite3_prepare_v2(handle, current, -1, &statement, &tail)
        let learned = activity?.endPreparing()
        guard code == SQLITE_OK else {
          throw SQLiteError(code, handle, sql: String(cString: current))
        }
        next = tail
        guard let statement else { continue }  // blanks or a comment
        defer { sqlite3_finalize(statement) }
        if Self.countsAsWrite(statement) { writeRunCounter.count &+= 1 }
        let changesBefore = activity == nil ? 0 : sqlite3_total_changes64(handle)
        var step = sqlite3_step(statement)
        while step == SQLITE_ROW { step = sqlite3_step(statement) }
        if let activity, let learned {
          activity.noteReads(learned.reads)
          let changedRows = sqlite3_total_changes64(handle) != changesBefore
          activity.noteRun(
            writes: changedRows ? learned.writes : [],
            changesSchema: learned.changesSchema && step == SQLITE_DONE,
            inTransaction: sqlite3_get_autocommit(handle) == 0)
        }
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
    let statement = try prepareStatement(sql, persistent: false)
    tableActivity.noteReads(statement.tablesRead)
    // Its steps report what it reads and changes, once the connection tracks them.
    statement.activity = tableActivity
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
  ///
  /// Inlined, with `bind` and `body`: a lookup or an iteration written with the inlinable
  /// public forms calls neither through a closure.
  @inlinable func withCachedStatement<T>(
    _ sql: String, bind: (Statement) throws -> Void, _ body: (Statement) throws -> T
  ) throws -> T {
    let run = try beginCachedRun(sql)
    let result: T
    do {
      try bind(run.statement)
      result = try body(run.statement)
    } catch {
      endCachedRun(run, failed: true)
      throw error
    }
    endCachedRun(run, failed: false)
    return result
  }

  /// The start of a run of a cached statement (see ``withCachedStatement(_:bind:_:)``): the
  /// idle cached statement for `sql`, prepared and cached on first use (a fresh, uncached
  /// one while the cached one is busy), marked in use, its tables noted where activity is
  /// tracked. ``endCachedRun(_:failed:)`` ends it.
  /// - Throws: `SQLiteError` when the connection cannot run SQL here (closed, another
  ///   thread, a transaction SQLite rolled back) or the statement does not prepare.
  @usableFromInline func beginCachedRun(_ sql: String) throws -> CachedRun {
    try ensureOpen(sql)
    let statement: Statement
    var cached = true
    if let idle = cache.idleStatement(for: sql) {
      statement = idle
    } else if cache.isBusy(sql) {
      statement = try prepareStatement(sql, persistent: false)
      statement.transactionGuard = transactionGuard
      cached = false
    } else {
      statement = try prepareStatement(sql, persistent: true)
      statement.transactionGuard = transactionGuard
      cache.insert(statement)
    }
    // A row read in place escapes the closure (to another thread, say) as easily from a
    // cached statement as from a prepared one: its reads check the owner's thread too.
    if statement.owner !== owner { statement.owner = owner }
    statement.isInUse = true
    // Where activity is tracked (an observed or cached database), the statement's tables
    // are noted: read now, written when it changed rows.
    let activity = tableActivity.tracksReads ? tableActivity : nil
    let changesBefore = activity == nil ? 0 : sqlite3_total_changes64(handle)
    if let activity {
      statement.refreshTables(activity)
      activity.noteReads(statement.tablesRead)
    }
    return CachedRun(
      statement: statement, cached: cached, activity: activity, changesBefore: changesBefore)
  }

  /// Ends a run that ``beginCachedRun(_:)`` started: the statement is reset and idle again,
  /// evicted from the cache when the run `failed`, its changes noted where activity is
  /// tracked.
  @usableFromInline func endCachedRun(_ run: CachedRun, failed: Bool) {
    let statement = run.statement
    if failed, run.cached { cache.evict(statement.sql) }
    statement.isInUse = false
    statement.resetNow()
    if let activity = run.activity {
      // A step may have prepared the statement again (the schema changed), with other
      // tables: the recording learns those too.
      if statement.refreshTables(activity) { activity.noteReads(statement.tablesRead) }
      let changedRows = sqlite3_total_changes64(handle) != run.changesBefore
      activity.noteRun(
        writes: changedRows ? statement.tablesWritten ?? [] : [],
        changesSchema: statement.changesSchema,
        inTransaction: sqlite3_get_autocommit(handle) == 0)
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
  @discardableResult @_disfavoredOverload
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
  /// The values are stored compactly (nine bytes per number, text and blobs apart) in a
  /// few buffers shared by the returned rows, one allocation per thousands of values, none
  /// ever copied to grow. For large results, prefer ``forEachRow(_:_:_:)``.
  /// TEXT that is not valid UTF-8 keeps its exact bytes: reading it as a `String` throws,
  /// reading it as `Data` gives the bytes (see ``Row``).
  /// - Throws: `SQLiteError` as ``run(_:_:)`` does.
  @_disfavoredOverload
  public func query(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
    try withCachedStatement(sql, arguments, Self.remainingRows(of:))
  }

  /// Runs a query with values of static types bound to its parameters 1, 2, 3, ... in
  /// order, and returns all its rows: ``query(_:_:)`` without building an array of
  /// arguments, as ``Statement/bind(values:)-(V)`` binds.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT, age INTEGER, city TEXT)")
  /// let city = "Paris"
  ///
  /// let rows = try db.query("SELECT * FROM user WHERE age >= ? AND city = ?", values: 18, city)
  /// ```
  /// - Throws: `SQLiteError`: `.range` when the number of values differs from the
  ///   statement's parameters, `.mismatch` for a value SQLite cannot store, and what
  ///   ``query(_:_:)`` throws.
  // Disfavored too: otherwise its presence makes a literal pick the text form above.
  @inlinable @_disfavoredOverload
  public func query<V: SQLiteValueConvertible, each W: SQLiteValueConvertible>(
    _ sql: String, values first: V, _ rest: repeat each W
  ) throws -> [Row] {
    try cachedRows(sql) { statement in try statement.bind(values: first, repeat each rest) }
  }

  /// Every row of the cached statement for `sql` once `bind` has bound it: for the
  /// inlinable forms, a call the module specializes (a generic call from a client would
  /// pass the rows through value witnesses).
  @usableFromInline func cachedRows(_ sql: String, bind: (Statement) throws -> Void) throws
    -> [Row]
  {
    try withCachedStatement(sql, bind: bind, Self.remainingRows(of:))
  }

  /// Every remaining row of a bound statement, materialized: a first buffer holds exactly
  /// one row (the statement's spare when no row holds it, so a lookup allocates only its
  /// array), later ones grow to `maximumBufferValues` values.
  @usableFromInline static func remainingRows(of statement: Statement) throws -> [Row] {
    guard try statement.step() else { return [] }
    let columns = statement.columnCount  // a re-prepare may have changed it
    let layout = statement.layout
    let handle = statement.handle
    let largest = Swift.max(1, maximumBufferValues / Swift.max(columns, 1))
    let first = RowBuffer.make(reusingSpareOf: statement)
    // One row (a lookup): one array, no list of buffers.
    guard try statement.step() else { return [Row(buffer: first, base: 0)] }
    var buffers: [(buffer: RowBuffer, rows: Int)] = [(first, 1)]
    var capacity = Swift.min(8, largest)
    var buffer = RowBuffer.make(layout: layout, columns: columns, rows: capacity)
    var rowsInBuffer = 0
    var total = 1
    repeat {
      if rowsInBuffer == capacity {
        buffers.append((buffer, rowsInBuffer))
        capacity = Swift.min(capacity == 1 ? 8 : capacity * 2, largest)
        buffer = RowBuffer.make(layout: layout, columns: columns, rows: capacity)
        rowsInBuffer = 0
      }
      buffer.appendRow(of: handle, columns: columns)
      rowsInBuffer += 1
      total += 1
    } while try statement.step()
    buffers.append((buffer, rowsInBuffer))
    var rows: [Row] = []
    rows.reserveCapacity(total)
    for (buffer, count) in buffers {
      for row in 0..<count { rows.append(Row(buffer: buffer, base: row &* columns)) }
    }
    return rows
  }

  /// The most values one buffer of a large result holds (about 590 KB).
  static let maximumBufferValues = 1 << 16

  /// Runs a query and returns its first row, or `nil` when it returns none.
  /// - Throws: `SQLiteError` as ``run(_:_:)`` does.
  @_disfavoredOverload
  public func queryFirst(_ sql: String, _ arguments: StatementArguments = []) throws -> Row? {
    try withCachedStatement(sql, arguments, Self.firstRow(of:))
  }

  /// Runs a query with values of static types bound to its parameters 1, 2, 3, ... in
  /// order, and returns its first row, or `nil` when it returns none: the fast way to look
  /// one row up, without an array of arguments, its row copied once into one allocation.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT, age INTEGER)")
  /// try db.run("INSERT INTO user(id, name, age) VALUES (1, 'Ann', 30)")
  /// let id = 1
  ///
  /// if let user = try db.queryFirst("SELECT name, age FROM user WHERE id = ?", values: id) {
  ///   let name: String = try user.get("name")
  /// }
  /// ```
  /// - Throws: `SQLiteError`: `.range` when the number of values differs from the
  ///   statement's parameters, `.mismatch` for a value SQLite cannot store, and what
  ///   ``queryFirst(_:_:)`` throws.
  // Disfavored too: otherwise its presence makes a literal pick the text form above.
  @inlinable @_disfavoredOverload
  public func queryFirst<V: SQLiteValueConvertible, each W: SQLiteValueConvertible>(
    _ sql: String, values first: V, _ rest: repeat each W
  ) throws -> Row? {
    try cachedFirstRow(sql) { statement in try statement.bind(values: first, repeat each rest) }
  }

  /// Runs a query with one value of a static type bound to its only parameter, and returns
  /// its first row, or `nil` when it returns none: ``queryFirst(_:values:_:)`` for the most
  /// common lookup, by one key, which the compiler then binds with one call to SQLite.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT)")
  /// try db.run("INSERT INTO user(id, name) VALUES (1, 'Ann')")
  ///
  /// let user = try db.queryFirst("SELECT name FROM user WHERE id = ?", values: 1)
  /// ```
  /// - Throws: `SQLiteError`: `.range` when the statement does not take exactly one
  ///   parameter, `.mismatch` for a value SQLite cannot store, and what
  ///   ``queryFirst(_:_:)`` throws.
  // Disfavored, as the other forms; a call with one value picks it over the variadic one.
  @inlinable @_disfavoredOverload
  public func queryFirst<V: SQLiteValueConvertible>(_ sql: String, values value: V) throws
    -> Row?
  {
    try withCachedStatement(sql, bind: { try $0.bind(values: value) }, Self.firstRow(of:))
  }

  /// The first row of the cached statement for `sql` once `bind` has bound it, as
  /// ``cachedRows(_:bind:)``.
  @usableFromInline func cachedFirstRow(_ sql: String, bind: (Statement) throws -> Void) throws
    -> Row?
  {
    try withCachedStatement(sql, bind: bind, Self.firstRow(of:))
  }

  /// The next row of a bound statement, materialized, or `nil` at the end.
  @usableFromInline static func firstRow(of statement: Statement) throws -> Row? {
    try statement.step() ? Row(buffer: RowBuffer.make(reusingSpareOf: statement), base: 0) : nil
  }

  /// Runs a query and returns the first column of its first row as a Swift type, or `nil`
  /// when there is no row or the value is NULL.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT)")
  ///
  /// let count = try db.scalar(Int.self, "SELECT count(*) FROM user") ?? 0
  /// ```
  /// - Throws: `SQLiteError` as ``run(_:_:)`` does; `DecodingError` when the value does not
  ///   convert to `T`.
  @_disfavoredOverload
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
  ///
  /// The loop is inlined into the caller, with `body`: per row, one call to step and none
  /// to `body`.
  @inlinable @_disfavoredOverload
  public func forEachRow(
    _ sql: some StringProtocol, _ arguments: StatementArguments = [],
    _ body: (Row) throws -> Void
  ) throws {
    // Generic on purpose: an interpolated literal with a trailing closure then takes the
    // concrete form that binds its values, not this one, which would splice them.
    try withCachedStatement(
      String(sql), bind: { try $0.bind(arguments) }, { try $0.forEachRemainingRow(body) })
  }
}
