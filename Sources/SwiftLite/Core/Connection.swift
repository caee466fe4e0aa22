internal import CSQLite
import Foundation
import Synchronization

/// One open SQLite database connection: the door to a database file.
///
/// ```swift
/// import SwiftLite
///
/// let db = try Connection(path: "app.sqlite")
/// try db.execute("CREATE TABLE IF NOT EXISTS user(id TEXT PRIMARY KEY, name TEXT NOT NULL)")
/// try db.run("INSERT OR REPLACE INTO user(id, name) VALUES (?, ?)", ["u1", "Ann"])
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
  let cache: StatementCache
  private var isClosed = false
  /// Whether the handle may still be interrupted: the one state another thread reads
  /// (``interrupt()``), so ``close()`` turns it off under this lock before closing.
  private let interruptible = Mutex(true)
  private var savepointCounter = 0
  private var traceHandler: ((String) -> Void)?
  /// Set when a ``DatabaseQueue`` or ``DatabasePool`` owns this connection: SQL then runs
  /// only on the thread the owner lent it to (see ``ConnectionOwner``).
  var owner: ConnectionOwner?
  /// Refuses statements of a transaction closure once SQLite rolled its transaction back.
  let transactionGuard = TransactionGuard()
  /// Hides SwiftLite's own housekeeping statements from ``trace``.
  var isTraceSuppressed = false
  /// `SELECT(1)`, prepared once: stepping it clears a pending interrupt (see
  /// ``withInterruptsHeld(_:)``). Finalized before the connection closes.
  private var interruptClearer: OpaquePointer?
  /// Per-connection state of the layers above Core: one typed cache per value type (see
  /// ``attachments(of:)``). Few kinds exist, so a list beats a dictionary. Read on every
  /// model operation, so without a dynamic exclusivity check: only ``attachments(of:)``
  /// and ``removeAllAttachments()`` touch it, each in one access that calls out to nothing
  /// (the latter iterates a copy).
  @exclusivity(unchecked) var attachmentStores:
    [(type: ObjectIdentifier, store: any AttachmentStore)] = []
  /// The tables statements read and transactions change, once something asked for them
  /// (see `trackTableActivity()`); until then its flags are off, which costs the
  /// statements nothing.
  let tableActivity = TableActivity()
  /// The runs of statements that write on this connection (see ``WriteRunCounter``).
  let writeRunCounter = WriteRunCounter()
  /// The change-recording sessions open on this connection, ended before it closes (see
  /// `Session`).
  let sessions = SessionRegistry()
  /// How many values of one type (model tables, say) a connection keeps at most.
  static let attachmentCapacity = 256

  /// Whether a model's first write may create its table or migrate a table SwiftLite
  /// created (see ``OpenOptions/automaticMigration``). Explicit calls such as
  /// `migrate(_:)` work either way.
  public var automaticMigration: Bool
  /// The tables a preparation given when the database opened brings up to date (see
  /// ``DatabasePreparation/preparedTables``): a model's first write never creates or
  /// migrates them, whatever ``automaticMigration`` says.
  public internal(set) var preparedTables: Set<String> = []
  /// Whether the main database is read-only (opened read-only, or a file that cannot be
  /// written), from `sqlite3_db_readonly`; `false` once closed.
  public var isReadOnly: Bool { !isClosed && sqlite3_db_readonly(handle, "main") == 1 }
  /// The `synchronous` level the options asked for, or `nil` for `NORMAL` in WAL mode.
  let requestedSynchronous: SynchronousMode?
  /// Who checkpoints the write-ahead log (see ``OpenOptions/checkpoints``).
  let checkpointPolicy: CheckpointPolicy
  /// The VFS the connection was opened with (see ``OpenOptions/vfs``); `nil` for the default.
  let vfs: String?

  /// The value a layer above Core last used for an owner type alone (a model's table when
  /// no target names another), beside the caches: found again with two comparisons, no
  /// name built or hashed, in a loop over one model. Forgotten with the attachments.
  var quickAttachment: (valueType: ObjectIdentifier, owner: ObjectIdentifier, value: AnyObject)?

  /// Opens (and by default creates) a database file.
  ///
  /// The connection starts with `PRAGMA foreign_keys = ON` (unless `options` says
  /// otherwise), the busy timeout and journal mode of `options`, and checks that the file
  /// really is a database.
  /// - Parameters:
  ///   - path: a file path, `":memory:"`, or a `file:` URI when `options.flags` has `.uri`.
  ///   - options: open flags and the initial settings.
  /// - Throws: `SQLiteError` with `.cannotOpen` when the file or its directory cannot be
  ///   opened (or the path contains a NUL), `.notADatabase` when the file is not a database,
  ///   and any other open failure.
  public init(path: String, options: OpenOptions = OpenOptions()) throws {
    // C reads the path up to its first NUL: "a.sqlite\0x" would open a.sqlite.
    if path.utf8.contains(0) {
      throw SQLiteError(
        extendedCode: .cannotOpen,
        message: "cannot open '\(path.replacingOccurrences(of: "\0", with: "\\0"))': "
          + "the path contains a NUL")
    }
    var handle: OpaquePointer?
    let code = sqlite3_open_v2(path, &handle, options.flags.rawValue, options.vfs)
    guard code == SQLITE_OK, let handle else {
      let error = SQLiteError(code, handle)
      sqlite3_close_v2(handle)
      throw SQLiteError(
        extendedCode: error.extendedCode, message: "cannot open '\(path)': \(error.message)")
    }
    self.handle = handle
    self.path = path
    self.cache = StatementCache(capacity: options.statementCacheCapacity)
    self.automaticMigration = options.automaticMigration
    self.requestedSynchronous = options.synchronous
    self.checkpointPolicy = options.checkpoints
    self.vfs = options.vfs
    sqlite3_extended_result_codes(handle, 1)
    do {
      // The timeout comes first: reading the schema waits for a writer's lock like any read.
      try setBusyTimeout(options.busyTimeout)
      if !options.doubleQuotedStringLiterals {
        // "name" is an identifier, never a string: a misspelled column in double quotes is
        // an error instead of a string literal that silently matches nothing.
        // See https://sqlite.org/quirks.html#dblquote.
        try SQLiteError.check(
          swiftlite_db_config_flag(handle, SQLITE_DBCONFIG_DQS_DML, 0), handle)
        try SQLiteError.check(
          swiftlite_db_config_flag(handle, SQLITE_DBCONFIG_DQS_DDL, 0), handle)
      }
      // Reading the schema proves the file is a database before anyone relies on it. Asking
      // for the schema table's own entry reads the whole schema as a statement's prepare
      // would, without parsing a statement: the first statement then finds it read.
      try SQLiteError.check(
        sqlite3_table_column_metadata(
          handle, "main", "sqlite_master", nil, nil, nil, nil, nil, nil), handle)
      // What `PRAGMA foreign_keys` sets, set without parsing a statement.
      try SQLiteError.check(
        swiftlite_db_config_flag(handle, SQLITE_DBCONFIG_ENABLE_FKEY, options.foreignKeys ? 1 : 0),
        handle)
      if let mode = options.journalMode {
        try setJournalMode(mode)
      } else if options.synchronous == nil, try isInWALMode() {
        try setSynchronous(.normal)
      }
      if let level = options.synchronous { try setSynchronous(level) }
      if let pages = options.checkpoints.automaticPages {
        try SQLiteError.check(sqlite3_wal_autocheckpoint(handle, Int32(clamping: pages)), handle)
      }
      if case .external = options.checkpoints {
        // The last connection to close would otherwise checkpoint the whole log and delete
        // it, under the replicator that follows it.
        try SQLiteError.check(
          swiftlite_db_config_flag(handle, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1), handle)
      }
    } catch let error as SQLiteError {
      isClosed = true
      cache.removeAll()
      sqlite3_close_v2(handle)
      throw SQLiteError(
        extendedCode: error.extendedCode, message: "cannot open '\(path)': \(error.message)",
        sql: error.sql)
    }
    if let setup = options.connectionSetup {
      do {
        try setup(self)
      } catch {
        isClosed = true
        cache.removeAll()
        removeActivityCallbacks()
        sqlite3_close_v2(handle)
        throw error
      }
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
    // No closure of an owner runs any more. The owner lends the connection to this thread
    // for the teardown, so that the statements the layers above Core keep on it (a model
    // table's insert) are finalized here, and finalizes every statement released later
    // at once: otherwise they would wait for a loan that never comes, and keep the file
    // and SQLite's memory open for good.
    if let owner {
      owner.retire { tearDown() }
    } else {
      tearDown()
    }
  }

  /// Finalizes what the connection holds and closes it, for a connection released
  /// without ``close()``.
  private func tearDown() {
    sqlite3_finalize(interruptClearer)
    cache.removeAll()
    // Statements kept by the layers above Core go before the handle is closed.
    removeAllAttachments()
    // The trace context is this object: statements still held may run after it is gone.
    if traceHandler != nil { sqlite3_trace_v2(handle, 0, nil, nil) }
    // The same holds for the authorizer and the hooks.
    removeActivityCallbacks()
    // A session must be deleted before its connection closes.
    sessions.closeAll()
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
    try owner?.check(nil)
    owner?.finalizeReleased()
    cache.removeAll()
    sqlite3_finalize(interruptClearer)
    interruptClearer = nil
    removeAllAttachments()
    interruptible.withLock { $0 = false }
    // A session must be deleted before its connection closes; statements still open make
    // the close fail below, and the sessions keep recording then.
    if sqlite3_next_stmt(handle, nil) == nil { sessions.closeAll() }
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

  /// Whether the connection is still open.
  var isOpen: Bool { !isClosed }

  @inline(__always) func ensureOpen(_ sql: String?) throws(SQLiteError) {
    // Inlined, the checks that may refuse out of line: an open connection without an owner,
    // outside the closures that rely on a transaction, pays three loads for them.
    if isClosed || owner != nil || transactionGuard.depth > 0 { try checkOpen(sql) }
  }

  /// The checks of ``ensureOpen(_:)``.
  @inline(never) private func checkOpen(_ sql: String?) throws(SQLiteError) {
    if isClosed { throw SQLiteError.misuse("the connection is closed", sql: sql) }
    if let owner { try owner.check(sql) }
    try transactionGuard.check(handle, sql: sql)
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
  var cachedStatementCount: Int { cache.count }

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

  /// Interrupts the statement running on this connection, which then fails with
  /// `.interrupt`. This is the one call that may come from another thread, and only while
  /// the connection is open; ``DatabaseQueue/interrupt()`` wraps it safely.
  public func interrupt() {
    interruptible.withLock { open in
      if open { sqlite3_interrupt(handle) }
    }
  }

  /// Runs `body` with ``interrupt()`` turned into a no-op, and clears an interrupt that
  /// arrived before: the statements `body` runs (a rollback) cannot be cut short.
  ///
  /// SQLite clears a pending interrupt only when a statement starts stepping while no
  /// other one runs, but the parser already fails on it: retrying a rollback's SQL while
  /// interrupts keep coming could fail every time and leave the transaction open.
  func withInterruptsHeld<T>(_ body: () throws -> T) rethrows -> T {
    let wasOpen = interruptible.withLock { open in
      defer { open = false }
      return open
    }
    defer { if wasOpen { interruptible.withLock { $0 = !isClosed } } }
    // Stepping a statement with no other running clears the flag. "SELECT(1)" holds no
    // blank, where the parser itself would look at a pending interrupt.
    if !isClosed {
      isTraceSuppressed = true
      defer { isTraceSuppressed = false }
      if interruptClearer == nil {
        sqlite3_prepare_v3(
          handle, "SELECT(1)", -1, UInt32(SQLITE_PREPARE_PERSISTENT), &interruptClearer, nil)
      }
      if let interruptClearer {
        sqlite3_step(interruptClearer)
        sqlite3_reset(interruptClearer)
      }
    }
    return try body()
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

  /// Runs `body` with ``trace`` silent: for SwiftLite's own housekeeping statements.
  func withTraceSuppressed<T>(_ body: () throws -> T) rethrows -> T {
    let wasSuppressed = isTraceSuppressed
    isTraceSuppressed = true
    defer { isTraceSuppressed = wasSuppressed }
    return try body()
  }

  fileprivate func traced(_ sql: String) {
    if !isTraceSuppressed { traceHandler?(sql) }
  }

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
