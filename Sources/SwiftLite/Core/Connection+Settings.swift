internal import CSQLite

// The settings a connection runs with: the busy timeout and the pragmas of journal mode,
// sync level and foreign keys.
extension Connection {
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

  /// Whether the file is in WAL mode, read without keeping the statement in the cache
  /// (opening leaves the cache empty).
  func isInWALMode() throws -> Bool {
    let statement = try prepare("PRAGMA journal_mode")
    guard try statement.step() else { return false }
    return try statement.row.get(String.self, at: 0).lowercased() == "wal"
  }

  /// The journal mode now in force.
  /// - Throws: `SQLiteError` if the pragma fails.
  public func journalMode() throws -> JournalMode {
    let mode = try scalar(String.self, "PRAGMA journal_mode") ?? "delete"
    return JournalMode(rawValue: mode.lowercased()) ?? .delete
  }

  /// Sets the journal mode (``JournalMode/wal`` lets other connections read while one writes).
  ///
  /// When the mode becomes WAL and the connection's options left
  /// ``OpenOptions/synchronous`` to SwiftLite, `synchronous` is set to `NORMAL` too.
  /// - Returns: the mode SQLite reports afterwards (an in-memory database stays `.memory`).
  /// - Throws: `SQLiteError` if the pragma fails, for example inside a transaction.
  @discardableResult
  public func setJournalMode(_ mode: JournalMode) throws -> JournalMode {
    let result = try scalar(String.self, "PRAGMA journal_mode = " + mode.rawValue) ?? ""
    let current = JournalMode(rawValue: result.lowercased()) ?? mode
    if current == .wal && requestedSynchronous == nil { try setSynchronous(.normal) }
    return current
  }

  /// The `synchronous` level now in force (`PRAGMA synchronous`).
  /// - Throws: `SQLiteError` if the pragma fails.
  public func synchronous() throws -> SynchronousMode {
    switch try scalar(Int.self, "PRAGMA synchronous") ?? 2 {
    case 0: .off
    case 1: .normal
    case 3: .extra
    default: .full
    }
  }

  /// Sets how hard SQLite syncs to disk (see ``OpenOptions/synchronous`` for what WAL mode's
  /// `NORMAL` trades).
  /// - Throws: `SQLiteError` if the pragma fails, for example inside a transaction.
  public func setSynchronous(_ level: SynchronousMode) throws {
    try execute("PRAGMA synchronous = " + level.rawValue)
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
}
