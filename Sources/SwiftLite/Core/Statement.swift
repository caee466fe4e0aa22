internal import CSQLite
import Foundation

/// A prepared SQL statement: one compiled `sqlite3_stmt`.
///
/// Get one from ``Connection/prepare(_:)``, bind arguments, then ``step()`` through its rows.
/// It is finalized when released. Like its `Connection`, it is not thread-safe and is not
/// `Sendable`: use it on the thread (or inside the queue closure) that made it.
///
/// ```swift
/// let db = try Connection.inMemory()
/// try db.execute("CREATE TABLE point(x REAL, y REAL)")
/// let points = [(0.0, 1.0), (2.5, -3.0)]
///
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
  @usableFromInline let handle: OpaquePointer
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
  /// Read on every read of a row in place (see ``canRead(row:)``), so without a dynamic
  /// exclusivity check; set once, right after the statement is prepared.
  @exclusivity(unchecked) var owner: ConnectionOwner? {
    didSet { hasOwner = owner != nil }
  }
  /// Whether ``owner`` is set: what code inlined into clients reads before it calls out to
  /// check the thread, so that a statement without an owner makes no call for it.
  @usableFromInline @exclusivity(unchecked) private(set) var hasOwner = false
  /// The connection's guard against running on after SQLite rolled a transaction back.
  var transactionGuard: TransactionGuard?
  /// The buffer of the last row this statement materialized for ``Connection/queryFirst(_:_:)``
  /// or as the first row of ``Connection/query(_:_:)``, kept to hold the next one once no
  /// row uses it any more (see ``RowBuffer/make(reusingSpareOf:)``).
  @exclusivity(unchecked) var spareRow: RowBuffer?
  private(set) var cachedLayout: ColumnLayout?
  /// The number of the row the statement stands on, or 0 when it stands on none (before
  /// the first step, after the last one, a failure or a reset). Each step to a row takes a
  /// new number: a ``Row`` read in place keeps the number it was made at and reads only
  /// while the statement still stands there, one comparison per read.
  @usableFromInline @exclusivity(unchecked) private(set) var rowNumber: UInt64 = 0
  /// How many steps reached a row: the source of ``rowNumber``.
  @exclusivity(unchecked) private var rowsReached: UInt64 = 0
  /// The tables the statement reads, learned when it was prepared on a connection that
  /// tracks its activity; `nil` otherwise.
  var tablesRead: Set<String>?
  /// The tables the statement (or a trigger it fires) writes, learned likewise.
  var tablesWritten: Set<String>?
  /// Whether the statement creates, drops or alters something, learned likewise.
  var changesSchema = false
  /// ``timesPrepared`` when the tables above were learned; `nil` before.
  var tablesLearnedAt: Int32?
  /// The activity of the connection, for a statement of ``Connection/prepare(_:)``: its
  /// steps report what it reads and changes once the connection tracks them.
  var activity: TableActivity?
  /// The connection's count of runs of statements that write, for a statement that writes
  /// (set when the connection prepared it); `nil` for one that only reads.
  @exclusivity(unchecked) var writeRuns: WriteRunCounter?

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
    if sql.containsNUL {
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

  /// Column names and their positions, computed once per statement. Out of line: a step
  /// calls it only after a re-prepare.
  @inline(never) private func refreshColumns() {
    reprepareCount = sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0)
    columnCount = Int(sqlite3_column_count(handle))
    cachedLayout = nil
    spareRow = nil
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
    resetNow()
  }

  /// Resets the statement, for a caller that checked the thread already (or runs where no
  /// other thread can hold the connection).
  @usableFromInline func resetNow() {
    rowNumber = 0
    reachedEnd = false
    sqlite3_reset(handle)
  }

  /// Whether the last step found no more rows, and the statement was not reset since: a
  /// reader that must not start the rows over (SQLite would, on the next step) asks this.
  @usableFromInline @exclusivity(unchecked) private(set) var reachedEnd = false

  /// Set in the number a row read in place keeps when a queue or pool owns the connection:
  /// such a row never passes the one comparison with ``rowNumber`` that rows of other
  /// statements read behind, and goes to ``canRead(row:)``, which checks the thread too.
  static let ownedRow: UInt64 = 1 << 63

  /// The number a row read in place made now keeps: ``rowNumber``, with ``ownedRow`` set
  /// for a statement with an owner; one that never reads when the statement stands on no
  /// row.
  var numberForNewRow: UInt64 {
    guard rowNumber != 0 else { return .max }
    return owner == nil ? rowNumber : rowNumber | Self.ownedRow
  }

  /// Whether a row read in place that keeps `number` may read the statement now, when
  /// `number` is not ``rowNumber`` itself: the statement still stands on that row, its
  /// connection has an owner, and the calling thread holds it (the owner's atomic load and
  /// `pthread_self()`, as ``step()`` pays). Out of line: rows of statements without an
  /// owner pay one comparison per read, and nothing more.
  @inline(never) func canRead(row number: UInt64) -> Bool {
    guard number & ~Self.ownedRow == rowNumber, let owner else { return false }
    return owner.isHeldByCurrentThread
  }

  /// The error for a read of a row that keeps `number`, refused by ``canRead(row:)``.
  func unreadableRow(_ number: UInt64) -> SQLiteError {
    if number & ~Self.ownedRow == rowNumber, let owner {
      return SQLiteError.misuse(
        "a row of a statement whose connection belongs to a \(owner.name) was read outside "
          + "the closure that lent the connection, or on another thread: read it (or "
          + "copy() it) inside that closure", sql: sql)
    }
    return SQLiteError.misuse(
      "a row read in place was read after its statement moved on: it is valid only until "
        + "the statement's next step() or reset(), and a row handed to an iteration only "
        + "during that iteration; copy() keeps its values", sql: sql)
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
  public func step() throws(SQLiteError) -> Bool { try advance() }

  /// ``step()``, for a loop that makes a ``Row`` read in place of each row: the number that
  /// row keeps (see ``numberForNewRow``), or `nil` when there are no more rows. The step
  /// itself is inlined here, so that such a loop makes one call per row.
  /// - Throws: what ``step()`` throws.
  @usableFromInline func stepToRow() throws(SQLiteError) -> UInt64? {
    try advance() ? numberForNewRow : nil
  }

  /// The work of ``step()``.
  @inline(__always) private func advance() throws(SQLiteError) -> Bool {
    // The checks that may refuse the step are out of line: a statement of a connection
    // without an owner, outside the closures that rely on a transaction, pays two loads
    // and two branches for them, and the step keeps a small frame.
    if owner != nil { try checkOwnerBeforeStep() }
    if let transactionGuard, transactionGuard.depth > 0 { try checkTransactionBeforeStep() }
    // SQLite prepares a statement again (after a schema change) only on a step that starts
    // a run: one after a reset, the end of the rows, a failure, or none yet. A statement
    // that stands on a row goes on with the program it runs, whose columns cannot change.
    let startsRun = rowNumber == 0
    // A run of a statement that writes is counted before it changes anything: a write
    // still running, or one that failed, counts as much as one that ended.
    if startsRun, let writeRuns { writeRuns.count &+= 1 }
    // Whatever the step gives, rows made before it can no longer read.
    rowNumber = 0
    let code: Int32
    if let activity, activity.tracksReads {
      code = trackedStep(activity)
    } else {
      code = sqlite3_step(handle)
    }
    if code == SQLITE_ROW {
      reachedEnd = false
      rowsReached &+= 1
      rowNumber = rowsReached
      // A re-prepare (after a schema change) may have changed the result columns.
      if startsRun,
        sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0) != reprepareCount
      {
        refreshColumns()
      }
      return true
    }
    if code == SQLITE_DONE {
      reachedEnd = true
      return false
    }
    reachedEnd = false
    throw stepError(code)
  }

  /// The owner's check of ``step()``: `.misuse` on a thread the owner did not lend the
  /// connection to.
  @inline(never) private func checkOwnerBeforeStep() throws(SQLiteError) {
    if let owner { try owner.check(sql) }
  }

  /// The transaction guard's check of ``step()``, inside a closure that relies on a
  /// transaction: `.abortRollback` once SQLite rolled it back.
  @inline(never) private func checkTransactionBeforeStep() throws(SQLiteError) {
    try transactionGuard?.check(sqlite3_db_handle(handle), sql: sql)
  }

  /// The error of a step that failed with `code`.
  @inline(never) private func stepError(_ code: Int32) -> SQLiteError {
    SQLiteError.stepFailed(code, handle, sql: sql)
  }

  /// Runs the statement to completion, ignoring rows it returns, then resets it.
  /// - Throws: `SQLiteError` when a step fails; the statement is reset either way. `.misuse`
  ///   outside the closures of the queue or pool that owns the connection, as ``step()``:
  ///   the statement is then left as it was, not reset.
  public func run() throws(SQLiteError) {
    // Checked before the reset is registered: a reset on a thread that does not hold the
    // connection would run beside the owner's own work on the same handle.
    if let owner { try owner.check(sql) }
    defer { resetNow() }
    // The step inlined: a write runs one step, with no call of its own around it.
    while try advance() {}
  }

  /// The current row, read in place. Valid until the next ``step()`` or ``reset()``;
  /// call ``Row/copy()`` to keep its values. Reading it later (or before the first row,
  /// after the last, or outside the closures of the queue or pool that owns the
  /// connection) throws `SQLiteError` `.misuse`.
  public var row: Row { Row(statement: self) }

  /// Steps through every row, handing each to `body` in place, then resets the statement.
  /// Memory stays flat however many rows there are.
  /// - Throws: `SQLiteError` from a step, or what `body` throws (which stops the iteration).
  ///   `.misuse` outside the closures of the queue or pool that owns the connection, as
  ///   ``step()``: the statement is then left as it was, not reset.
  ///
  /// Inlined into the caller, with `body`: per row, one call to step and none to `body`.
  @inlinable
  public func forEachRow(_ body: (Row) throws -> Void) throws {
    // Checked before the reset is registered, as in run().
    try checkOwner()
    defer { resetNow() }
    try forEachRemainingRow(body)
  }

  /// Steps through the remaining rows, handing each to `body` in place, with no check of
  /// the thread and no reset: for loops that did both already. Inlined, with `body`.
  ///
  /// Each step makes a new row (one kept from an earlier step cannot read this one's
  /// values); the loop makes it by moving one value to the new row number, so that the
  /// statement is retained once per run, not once per row.
  @inlinable func forEachRemainingRow(_ body: (Row) throws -> Void) throws {
    guard let first = try stepToRow() else { return }
    var row = Row(statement: self, number: first)
    while true {
      try body(row)
      guard let next = try stepToRow() else { return }
      row.move(to: next)
    }
  }

}

@available(*, unavailable, message: "A Statement belongs to one thread; use DatabaseQueue.")
extension Statement: Sendable {}

/// `SQLITE_TRANSIENT`: SQLite copies the bytes before the bind call returns.
let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
