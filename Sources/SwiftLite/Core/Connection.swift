internal import CSQLite
import Foundation
import Synchronization

/// One open SQLite database connection: the door to a database file.
///
/// ```swift
/// let db = try Connection(path: "app.sqlite")
/// try db.execute("CREATE TABLE IF NOT EXISTS user(id TEXT PRIMARY KEY, name TEXT NOT NULL)")
/// try db.run("INSERT INTO user(id, name) VALUES (?, ?)", ["u1", "Ann"])
/// for row in try db.query("SELECT name FROM user WHERE id = ?", ["u1"]) {
///   print(try row.get(String.self, "name"))
/// }
/// ```
///
/// Values are always bound, never spliced into SQL. Statements run through ``run(_:_:)``,
/// ``query(_:_:)`` and ``forEachRow(_:_:_:)`` are prepared once and cached by SQL text.
///
/// **Threads:** a `Connection` is not thread-safe and is not `Sendable`. It is opened with
/// `SQLITE_OPEN_NOMUTEX` by default, so use it from one thread at a time; to share a
/// database between threads or tasks, use ``DatabaseQueue``.
///
/// See <https://sqlite.org/c3ref/sqlite3.html>.
public final class Connection {
  let handle: OpaquePointer
  /// The path (or URI) the connection was opened with; `":memory:"` for an in-memory database.
  public let path: String
  private let cache: StatementCache
  private var isClosed = false
  /// Whether the handle may still be interrupted: the one state another thread reads
  /// (``interrupt()``), so ``close()`` turns it off under this lock before closing.
  private let interruptible = Mutex(true)
  private var savepointCounter = 0
  private var traceHandler: ((String) -> Void)?
  /// Per-connection state of the layers above Core (the model tables already checked
  /// against their model, with their SQL), keyed by type and name.
  var attachments: [AttachmentKey: AnyObject] = [:] {
    didSet { lastAttachment = nil }
  }
  /// The attachment found last, so a loop over one model skips hashing its table name.
  @exclusivity(unchecked) var lastAttachment: (key: AttachmentKey, value: AnyObject)?

  struct AttachmentKey: Hashable {
    let type: ObjectIdentifier
    let name: String
  }

  /// Opens (and by default creates) a database file.
  ///
  /// The connection starts with `PRAGMA foreign_keys = ON` (unless `options` says
  /// otherwise), the busy timeout and journal mode of `options`, and checks that the file
  /// really is a database.
  /// - Parameters:
  ///   - path: a file path, `":memory:"`, or a `file:` URI when `options.flags` has `.uri`.
  ///   - options: open flags and the initial settings.
  /// - Throws: `SQLiteError` with `.cannotOpen` when the file or its directory cannot be
  ///   opened, `.notADatabase` when the file is not a database, and any other open failure.
  public init(path: String, options: OpenOptions = OpenOptions()) throws {
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(path, &handle, options.flags.rawValue, nil)
    guard code == SQLITE_OK, let handle else {
      let error = SQLiteError(code, handle)
      sqlite3_close_v2(handle)
      throw SQLiteError(
        extendedCode: error.extendedCode, message: "cannot open '\(path)': \(error.message)")
    }
    self.handle = handle
    self.path = path
    self.cache = StatementCache(capacity: options.statementCacheCapacity)
    sqlite3_extended_result_codes(handle, 1)
    do {
      // The timeout comes first: reading the schema waits for a writer's lock like any read.
      try setBusyTimeout(options.busyTimeout)
      // Reading the schema proves the file is a database before anyone relies on it.
      try execute("SELECT count(*) FROM sqlite_schema")
      try setForeignKeysEnabled(options.foreignKeys)
      if let mode = options.journalMode { try setJournalMode(mode) }
    } catch let error as SQLiteError {
      isClosed = true
      cache.removeAll()
      sqlite3_close_v2(handle)
      throw SQLiteError(
        extendedCode: error.extendedCode, message: "cannot open '\(path)': \(error.message)",
        sql: error.sql)
    }
  }

  /// Opens a private, in-memory database that disappears when the connection closes.
  /// - Throws: `SQLiteError` if SQLite cannot allocate it.
  public static func inMemory(options: OpenOptions = OpenOptions()) throws -> Connection {
    var options = options
    options.flags.insert(.memory)
    return try Connection(path: ":memory:", options: options)
  }

  deinit {
    guard !isClosed else { return }
    cache.removeAll()
    // The trace context is this object: statements still held may run after it is gone.
    if traceHandler != nil { sqlite3_trace_v2(handle, 0, nil, nil) }
    // close_v2 defers the close until statements the user still holds are finalized.
    sqlite3_close_v2(handle)
  }

  /// Closes the connection now. Cached statements are finalized first.
  ///
  /// After a successful close, every other method throws.
  /// - Throws: `SQLiteError` with `.busy` when statements prepared by ``prepare(_:)`` are
  ///   still alive; the message lists their SQL and the connection stays open.
  public func close() throws {
    guard !isClosed else { return }
    cache.removeAll()
    attachments.removeAll()
    interruptible.withLock { $0 = false }
    let code = sqlite3_close(handle)
    if code != SQLITE_OK { interruptible.withLock { $0 = true } }
    if code == SQLITE_BUSY {
      var open: [String] = []
      var statement = sqlite3_next_stmt(handle, nil)
      while let current = statement {
        open.append(sqlite3_sql(current).map { String(cString: $0) } ?? "?")
        statement = sqlite3_next_stmt(handle, current)
      }
      throw SQLiteError(
        extendedCode: .busy,
        message: "cannot close: \(open.count) statement(s) not finalized: "
          + open.joined(separator: "; "))
    }
    try SQLiteError.check(code, handle)
    isClosed = true
  }

  private func ensureOpen(_ sql: String?) throws(SQLiteError) {
    if isClosed { throw SQLiteError.misuse("the connection is closed", sql: sql) }
  }

  // MARK: Raw SQL

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
          throw SQLiteError(step, handle, sql: text)
        }
      }
    }
  }

  /// Prepares one statement that you own and may run many times. It is not cached.
  /// - Throws: `SQLiteError` for a syntax error or an unknown table or column, and
  ///   `.misuse` when `sql` holds no statement or more than one.
  public func prepare(_ sql: String) throws -> Statement {
    try ensureOpen(sql)
    return try Statement.prepare(sql, db: handle, persistent: false)
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
      cached = false
    } else {
      statement = try Statement.prepare(sql, db: handle, persistent: true)
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
  /// - Returns: the number of rows inserted, updated or deleted (``changes``).
  /// - Throws: `SQLiteError`: `.range` for a wrong argument count or unknown name,
  ///   `.constraint` (see ``SQLiteError/constraintKind``) for a violated constraint, and
  ///   any other failure of SQLite.
  @discardableResult
  public func run(_ sql: String, _ arguments: StatementArguments = []) throws -> Int {
    try withCachedStatement(sql, arguments) { statement in
      while try statement.step() {}
      return changes
    }
  }

  /// Runs a query and returns all its rows, each holding its values.
  ///
  /// All values land in one contiguous buffer shared by the returned rows (one allocation
  /// for the whole result, not one per row). For large results, prefer ``forEachRow(_:_:_:)``.
  /// - Throws: `SQLiteError` as ``run(_:_:)`` does.
  public func query(_ sql: String, _ arguments: StatementArguments = []) throws -> [Row] {
    try withCachedStatement(sql, arguments) { statement in
      var columns = statement.columnCount
      var values = ContiguousArray<SQLiteValue>()
      var rowCount = 0
      while try statement.step() {
        if rowCount == 0 {
          columns = statement.columnCount  // a re-prepare may change it
          // One allocation for a one-row result (a lookup), then the usual doubling.
          values.reserveCapacity(columns)
        }
        for index in 0..<columns { values.append(statement.columnValue(at: index)) }
        rowCount += 1
      }
      let buffer = RowBuffer(layout: statement.layout, values: values)
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

  // MARK: State

  /// The rowid of the most recent successful INSERT on this connection.
  /// See <https://sqlite.org/c3ref/last_insert_rowid.html>.
  public var lastInsertRowID: Int64 { isClosed ? 0 : sqlite3_last_insert_rowid(handle) }

  /// Rows changed by the most recent INSERT, UPDATE or DELETE.
  public var changes: Int { isClosed ? 0 : Int(sqlite3_changes64(handle)) }

  /// Rows changed since the connection opened.
  public var totalChanges: Int { isClosed ? 0 : Int(sqlite3_total_changes64(handle)) }

  /// `true` while a transaction is open (the connection is not in autocommit mode).
  public var isInTransaction: Bool { !isClosed && sqlite3_get_autocommit(handle) == 0 }

  /// The number of statements held in the statement cache.
  public var cachedStatementCount: Int { cache.count }

  /// `true` when a statement of this connection has started stepping and was not reset
  /// (used by tests to check that nothing is left mid-step).
  var hasStatementInProgress: Bool {
    guard !isClosed else { return false }
    var statement = sqlite3_next_stmt(handle, nil)
    while let current = statement {
      if sqlite3_stmt_busy(current) != 0 { return true }
      statement = sqlite3_next_stmt(handle, current)
    }
    return false
  }

  /// Sets how long to wait for another connection's lock before failing with `SQLITE_BUSY`.
  /// - Parameter seconds: 0 (or less) to fail at once; values beyond `Int32.max`
  ///   milliseconds (about 24 days), including infinity, wait that long.
  /// - Throws: `SQLiteError` if SQLite refuses, or the connection is closed.
  public func setBusyTimeout(_ seconds: Double) throws {
    try ensureOpen(nil)
    let milliseconds = seconds * 1000
    // Int32(_:) traps on NaN, infinity and out-of-range values.
    let clamped = milliseconds > 0 ? Int32(min(milliseconds, Double(Int32.max))) : 0
    try SQLiteError.check(sqlite3_busy_timeout(handle, clamped), handle)
  }

  /// Interrupts the statement running on this connection, which then fails with
  /// `.interrupt`. This is the one call that may come from another thread, and only while
  /// the connection is open; ``DatabaseQueue/interrupt()`` wraps it safely.
  public func interrupt() {
    interruptible.withLock { open in
      if open { sqlite3_interrupt(handle) }
    }
  }

  /// The journal mode now in force.
  /// - Throws: `SQLiteError` if the pragma fails.
  public func journalMode() throws -> JournalMode {
    let mode = try scalar(String.self, "PRAGMA journal_mode") ?? "delete"
    return JournalMode(rawValue: mode.lowercased()) ?? .delete
  }

  /// Sets the journal mode (WAL for a ``DatabasePool``-style reader/writer split).
  /// - Returns: the mode SQLite reports afterwards (an in-memory database stays `.memory`).
  /// - Throws: `SQLiteError` if the pragma fails, for example inside a transaction.
  @discardableResult
  public func setJournalMode(_ mode: JournalMode) throws -> JournalMode {
    let result = try scalar(String.self, "PRAGMA journal_mode = " + mode.rawValue) ?? ""
    return JournalMode(rawValue: result.lowercased()) ?? mode
  }

  /// Whether foreign key constraints are enforced (on by default in SwiftLite).
  /// - Throws: `SQLiteError` if the pragma fails.
  public func foreignKeysEnabled() throws -> Bool {
    try scalar(Bool.self, "PRAGMA foreign_keys") ?? false
  }

  /// Turns foreign key enforcement on or off. SQLite ignores this inside a transaction.
  /// - Throws: `SQLiteError` if the pragma fails.
  public func setForeignKeysEnabled(_ enabled: Bool) throws {
    try execute("PRAGMA foreign_keys = " + (enabled ? "ON" : "OFF"))
  }

  /// The SQLite library version, such as `"3.40.1"`.
  public static var sqliteVersion: String { String(cString: sqlite3_libversion()) }

  /// The SQLite library version as a number, such as `3040001`.
  public static var sqliteVersionNumber: Int { Int(sqlite3_libversion_number()) }

  /// A hook that receives the text of each statement as it starts running (bound values
  /// are not expanded into it), or `nil` for none. See <https://sqlite.org/c3ref/trace_v2.html>.
  public var trace: ((String) -> Void)? {
    get { traceHandler }
    set {
      traceHandler = newValue
      guard !isClosed else { return }
      guard newValue != nil else {
        sqlite3_trace_v2(handle, 0, nil, nil)
        return
      }
      let context = Unmanaged.passUnretained(self).toOpaque()
      sqlite3_trace_v2(handle, UInt32(SQLITE_TRACE_STMT), traceCallback, context)
    }
  }

  fileprivate func traced(_ sql: String) { traceHandler?(sql) }

  func nextSavepointName() -> String {
    savepointCounter += 1
    return "swiftlite_savepoint_\(savepointCounter)"
  }
}

private func traceCallback(
  _ mask: UInt32, _ context: UnsafeMutableRawPointer?, _ statement: UnsafeMutableRawPointer?,
  _ detail: UnsafeMutableRawPointer?
) -> Int32 {
  // For SQLITE_TRACE_STMT, `detail` is the statement's unexpanded SQL, or a comment such as
  // "-- TRIGGER name" when a trigger runs (sqlite3_sql would repeat the outer statement).
  guard let context, let detail else { return 0 }
  let connection = Unmanaged<Connection>.fromOpaque(context).takeUnretainedValue()
  connection.traced(String(cString: detail.assumingMemoryBound(to: CChar.self)))
  return 0
}

@available(*, unavailable, message: "A Connection belongs to one thread; use DatabaseQueue.")
extension Connection: Sendable {}
