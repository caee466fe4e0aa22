internal import CSQLite

// Which tables a connection's statements read, and which tables its committed transactions
// changed, as SQLite reports them: the authorizer while statements are prepared
// (<https://sqlite.org/c3ref/set_authorizer.html>), and the update, commit and rollback
// hooks while they run (<https://sqlite.org/c3ref/update_hook.html>,
// <https://sqlite.org/c3ref/commit_hook.html>). Observation and the query cache build on it.
extension Connection {
  /// Installs the authorizer that learns the tables each statement reads and writes when it
  /// is prepared. Statements already cached are dropped, so every statement used from now
  /// on knows its tables. Does nothing the second time.
  func trackTableActivity() {
    guard tableActivity == nil, isOpen else { return }
    let activity = TableActivity()
    tableActivity = activity
    cache.removeAll()
    // Setting an authorizer expires the statements prepared so far: SQLite prepares them
    // again, with it, on their next step.
    sqlite3_set_authorizer(
      handle, authorizerCallback, Unmanaged.passUnretained(activity).toOpaque())
  }

  /// Starts tracking the tables that committed transactions change (see
  /// ``takeCommittedChanges()``).
  ///
  /// SQLite's update hook misses a few changes, which are covered otherwise:
  /// - a `DELETE` without `WHERE` empties a table at once, without the hook (the "truncate
  ///   optimization"): the authorizer answers `SQLITE_IGNORE` to deletes, which keeps the
  ///   delete but makes SQLite remove rows one by one, so the hook sees them (except the
  ///   delete that a DROP TABLE, DROP VIEW or DROP of a virtual table authorizes for its
  ///   object, which is the drop itself: ignoring it would skip the drop);
  /// - `WITHOUT ROWID` tables have no hook: the tables a statement writes are learned when
  ///   it is prepared, and counted as changed when it changes rows (through ``run(_:_:)``,
  ///   ``execute(_:)`` and the other methods of the connection; a statement of
  ///   ``prepare(_:)`` stepped by hand reports rowid tables only);
  /// - a rollback to a savepoint leaves its changes counted: the tables are reported as
  ///   changed though they are not, which costs an observer one extra read.
  func startTrackingChanges() {
    trackTableActivity()
    guard let activity = tableActivity, !activity.tracksChanges else { return }
    activity.tracksChanges = true
    // Deletes prepared so far were compiled without the authorizer's answer: setting the
    // authorizer again expires every statement, which SQLite then prepares again.
    cache.removeAll()
    let context = Unmanaged.passUnretained(activity).toOpaque()
    sqlite3_set_authorizer(handle, authorizerCallback, context)
    sqlite3_update_hook(handle, updateHookCallback, context)
    sqlite3_commit_hook(handle, commitHookCallback, context)
    sqlite3_rollback_hook(handle, rollbackHookCallback, context)
  }

  /// The tables changed by the transactions committed since the last call; empty when
  /// changes are not tracked.
  func takeCommittedChanges() -> Set<String> {
    tableActivity?.takeCommittedChanges() ?? []
  }

  /// Forgets the tables of commits that are known to have failed (a COMMIT that SQLite
  /// refused after its commit hook ran, then rolled back).
  func discardCommittedChanges() {
    tableActivity?.committedChanges = []
  }

  /// Runs `body` and returns, with its result, the tables that the statements it ran read.
  /// Recordings nest: an inner one's tables count for the outer one too.
  /// - Throws: what `body` throws.
  func recordingTablesRead<T>(_ body: () throws -> T) rethrows -> (value: T, tables: Set<String>) {
    trackTableActivity()
    guard let activity = tableActivity else { return (try body(), []) }
    let outer = activity.recordedReads
    activity.recordedReads = []
    defer {
      if let outer, let inner = activity.recordedReads {
        activity.recordedReads = outer.union(inner)
      } else {
        activity.recordedReads = outer
      }
    }
    let value = try body()
    return (value, activity.recordedReads ?? [])
  }

  /// Prepares a statement and, when activity is tracked, records the tables it reads and
  /// writes on it.
  func prepareStatement(_ sql: String, persistent: Bool) throws(SQLiteError) -> Statement {
    guard let activity = tableActivity else {
      return try Statement.prepare(sql, db: handle, persistent: persistent)
    }
    activity.preparingReads = []
    activity.preparingWrites = []
    defer {
      activity.preparingReads = nil
      activity.preparingWrites = nil
    }
    let statement = try Statement.prepare(sql, db: handle, persistent: persistent)
    statement.tablesRead = activity.preparingReads
    statement.tablesWritten = activity.preparingWrites
    return statement
  }

  /// Removes the callbacks before the handle closes: their context dies with the connection.
  func removeActivityCallbacks() {
    guard tableActivity != nil else { return }
    sqlite3_set_authorizer(handle, nil, nil)
    sqlite3_update_hook(handle, nil, nil)
    sqlite3_commit_hook(handle, nil, nil)
    sqlite3_rollback_hook(handle, nil, nil)
  }
}

/// The authorizer: records the tables of the statement being prepared, and turns the
/// truncate optimization off where changes are tracked. It never denies anything.
private func authorizerCallback(
  _ context: UnsafeMutableRawPointer?, _ action: Int32, _ first: UnsafePointer<CChar>?,
  _ second: UnsafePointer<CChar>?, _ database: UnsafePointer<CChar>?,
  _ trigger: UnsafePointer<CChar>?
) -> Int32 {
  guard let context, let first else { return SQLITE_OK }
  let activity = Unmanaged<TableActivity>.fromOpaque(context).takeUnretainedValue()
  // The object a DROP TABLE, DROP VIEW or DROP of a virtual table names: SQLite authorizes
  // a delete of it right after, and skips the whole drop when told to ignore that delete.
  let dropped = activity.droppedObject
  activity.droppedObject = nil
  switch action {
  case SQLITE_READ:
    if activity.preparingReads != nil {
      activity.preparingReads?.insert(String(cString: first).lowercased())
    }
  case SQLITE_INSERT, SQLITE_UPDATE:
    if activity.preparingWrites != nil {
      activity.preparingWrites?.insert(String(cString: first).lowercased())
    }
  case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW,
    SQLITE_DROP_VTABLE:
    activity.droppedObject = TableActivity.DroppedObject(name: first, database: database)
  case SQLITE_DELETE:
    let table = String(cString: first).lowercased()
    if activity.preparingWrites != nil { activity.preparingWrites?.insert(table) }
    // The delete that a DROP asks for right after its own action code is the drop itself:
    // SQLITE_IGNORE would skip the drop, and no row is deleted one by one anyway.
    if let dropped, dropped.matches(first, database) { return SQLITE_OK }
    // "If the authorizer callback returns SQLITE_IGNORE for an SQLITE_DELETE action code,
    // then the DELETE operation will proceed but the truncate optimization will be
    // bypassed and rows will be deleted one by one." SQLite's own tables are left alone:
    // DROP INDEX and DROP TRIGGER authorize a delete of the schema table first, and skip
    // the drop when told to ignore it.
    if activity.tracksChanges && !table.hasPrefix("sqlite_") { return SQLITE_IGNORE }
  default:
    break
  }
  return SQLITE_OK
}

private func updateHookCallback(
  _ context: UnsafeMutableRawPointer?, _ operation: Int32, _ database: UnsafePointer<CChar>?,
  _ table: UnsafePointer<CChar>?, _ rowid: sqlite3_int64
) {
  guard let context, let table else { return }
  let activity = Unmanaged<TableActivity>.fromOpaque(context).takeUnretainedValue()
  activity.pendingChanges.insert(String(cString: table).lowercased())
}

private func commitHookCallback(_ context: UnsafeMutableRawPointer?) -> Int32 {
  guard let context else { return 0 }
  let activity = Unmanaged<TableActivity>.fromOpaque(context).takeUnretainedValue()
  activity.committedChanges.formUnion(activity.pendingChanges)
  activity.pendingChanges = []
  return 0  // let the commit go on
}

private func rollbackHookCallback(_ context: UnsafeMutableRawPointer?) {
  guard let context else { return }
  let activity = Unmanaged<TableActivity>.fromOpaque(context).takeUnretainedValue()
  activity.pendingChanges = []
}
