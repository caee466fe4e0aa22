internal import CSQLite

// What a statement reads and writes, for observation and the query cache: learned when it
// is prepared on a connection that tracks its activity, learned again when SQLite prepared
// it again (after a schema change, a view's tables may differ), and reported when it runs.
extension Statement {
  /// Keeps what the authorizer reported while this statement was prepared.
  func learned(_ report: (reads: Set<String>, writes: Set<String>, changesSchema: Bool)) {
    tablesRead = report.reads
    tablesWritten = report.writes
    changesSchema = report.changesSchema
    tablesLearnedAt = timesPrepared
  }

  /// How many times SQLite prepared this statement again (after a schema change, say).
  var timesPrepared: Int32 { sqlite3_stmt_status(handle, SQLITE_STMTSTATUS_REPREPARE, 0) }

  /// Learns the statement's tables again when they are unknown (it was prepared before its
  /// connection tracked activity) or stale (SQLite prepared it again since): SQLite reports
  /// them for a copy prepared and finalized here.
  /// - Returns: whether anything was learned.
  @discardableResult
  func refreshTables(_ activity: TableActivity) -> Bool {
    guard activity.tracksReads, activity.preparingReads == nil,
      tablesLearnedAt != timesPrepared
    else { return false }
    activity.beginPreparing()
    var copy: OpaquePointer?
    sqlite3_prepare_v3(sqlite3_db_handle(handle), sql, -1, 0, &copy, nil)
    sqlite3_finalize(copy)
    // A copy that no longer prepares (its table was dropped) reads and writes nothing: the
    // statement itself fails when it runs.
    learned(activity.endPreparing())
    return true
  }

  /// Steps a statement of ``Connection/prepare(_:)`` on a connection that tracks its
  /// activity: a recording learns the tables it reads, and the tables it writes (its
  /// triggers' included, virtual tables too) count as changed when it changed rows.
  /// - Returns: `sqlite3_step`'s result code.
  func trackedStep(_ activity: TableActivity) -> Int32 {
    refreshTables(activity)
    activity.noteReads(tablesRead)
    let db = sqlite3_db_handle(handle)
    let changesBefore = sqlite3_total_changes64(db)
    let code = sqlite3_step(handle)
    // The step may have prepared the statement again, with other tables.
    if refreshTables(activity) { activity.noteReads(tablesRead) }
    // SQLite counts a statement's changes when it halts: an `INSERT ... RETURNING` (or an
    // UPDATE, a DELETE) has changed its rows by its first row, but the count moves only at
    // its last step or its reset. A row from a statement that writes is a changed row.
    let changedRows =
      sqlite3_total_changes64(db) != changesBefore
      || (code == SQLITE_ROW && !(tablesWritten ?? []).isEmpty)
    activity.noteRun(
      writes: changedRows ? tablesWritten ?? [] : [],
      changesSchema: changesSchema && code == SQLITE_DONE,
      inTransaction: sqlite3_get_autocommit(db) == 0)
    return code
  }
}
