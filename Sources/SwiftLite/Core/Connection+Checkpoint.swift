internal import CSQLite

// WAL checkpoints: copying the write-ahead log back into the database file.
extension Connection {
  /// What a checkpoint did.
  public struct CheckpointResult: Sendable, Hashable {
    /// The number of frames in the write-ahead log.
    public let logFrameCount: Int
    /// The number of frames of the log now copied into the database file.
    public let checkpointedFrameCount: Int
  }

  /// Runs a checkpoint of the main database now.
  ///
  /// Outside WAL mode there is no log: the result is two zeros (or -1 on old SQLite).
  /// - Parameter mode: `.passive` (the default) never waits; the others wait within the
  ///   busy timeout.
  /// - Returns: the log's size and how much of it is now in the database file.
  /// - Throws: `SQLiteError` `.busy` when `.full`, `.restart` or `.truncate` could not get
  ///   the locks they need in time (readers or a writer kept them); `.misuse` for `.restart`
  ///   or `.truncate` when the connection's ``OpenOptions/checkpoints`` leave checkpoints
  ///   to an external replicator; and other failures.
  ///   See <https://sqlite.org/c3ref/wal_checkpoint_v2.html>.
  @discardableResult
  public func checkpoint(_ mode: CheckpointMode = .passive) throws -> CheckpointResult {
    try ensureOpen(nil)
    if case .external = checkpointPolicy, mode == .restart || mode == .truncate {
      throw SQLiteError.misuse(
        "a \(mode) checkpoint resets the write-ahead log, which this connection leaves to an "
          + "external replicator (OpenOptions.checkpoints is .external); use .passive or .full")
    }
    var log: Int32 = 0
    var done: Int32 = 0
    let code = sqlite3_wal_checkpoint_v2(handle, nil, mode.rawValue, &log, &done)
    try SQLiteError.check(code, handle)
    return CheckpointResult(logFrameCount: Int(log), checkpointedFrameCount: Int(done))
  }

  /// Sets how many pages the write-ahead log may hold before a commit on this connection
  /// runs a passive checkpoint by itself (SQLite's default is 1,000); 0 or less turns the
  /// automatic checkpoint off. ``OpenOptions/checkpoints`` sets it when the connection
  /// opens. See <https://sqlite.org/c3ref/wal_autocheckpoint.html>.
  /// - Throws: `SQLiteError` if SQLite refuses, or the connection is closed.
  public func setAutomaticCheckpoint(pages: Int) throws {
    try ensureOpen(nil)
    let clamped = Int32(clamping: max(0, pages))
    try SQLiteError.check(sqlite3_wal_autocheckpoint(handle, clamped), handle)
  }
}
