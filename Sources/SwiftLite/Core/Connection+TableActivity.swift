internal import CSQLite

// Which tables a connection's statements read, and which tables its committed transactions
// changed, as SQLite reports them: the authorizer while statements are prepared
// (<https://sqlite.org/c3ref/set_authorizer.html>), and the update, commit and rollback
// hooks while they run (<https://sqlite.org/c3ref/update_hook.html>,
// <https://sqlite.org/c3ref/commit_hook.html>). Observation and the query cache build on it.
extension Connection {
  /// Installs the authorizer that learns the tables each statement reads and writes when it
  /// is prepared. Statements already cached are dropped, so every statement used from now
  /// on knows its tables; those of ``prepare(_:)`` learn theirs when they next run. Does
  /// nothing the second time.
  func trackTableActivity() {
    guard !tableActivity.tracksReads, isOpen else { return }
    tableActivity.tracksReads = true
    cache.removeAll()
    // Setting an authorizer expires the statements prepared so far: SQLite prepares them
    // again, with it, on their next step.
    sqlite3_set_authorizer(
      handle, authorizerCallback, Unmanaged.passUnretained(tableActivity).toOpaque())
  }

  /// Starts tracking what committed transactions change (see ``takeCommittedChanges()``).
  ///
  /// SQLite's update hook misses a few changes, which are covered otherwise:
  /// - a `DELETE` without `WHERE` empties a table at once, without the hook (the "truncate
  ///   optimization"): the authorizer answers `SQLITE_IGNORE` to deletes, which keeps the
  ///   delete but makes SQLite remove rows one by one, so the hook sees them (except the
  ///   delete that a DROP TABLE, DROP VIEW or DROP of a virtual table authorizes for its
  ///   object, which is the drop itself: ignoring it would skip the drop);
  /// - `WITHOUT ROWID` tables, and virtual tables (a full-text index written by triggers),
  ///   have no hook: the tables a statement writes, its triggers' included, are learned
  ///   when it is prepared, and counted as changed when it changes rows (through every
  ///   method of the connection and every ``Statement`` of ``prepare(_:)``);
  /// - a schema change (CREATE, DROP, ALTER) changes no row: a statement that makes one
  ///   is learned when it is prepared, and its commit changes everything;
  /// - a rollback to a savepoint leaves its changes counted: the tables are reported as
  ///   changed though they are not, which costs an observer one extra read.
  func startTrackingChanges() {
    trackTableActivity()
    let activity = tableActivity
    guard activity.tracksReads, !activity.tracksChanges else { return }
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

  /// What the transactions committed since the last call changed; empty when changes are
  /// not tracked.
  func takeCommittedChanges() -> CommittedChanges {
    tableActivity.takeCommittedChanges()
  }

  /// Forgets the changes of commits that are known to have failed (a COMMIT that SQLite
  /// refused after its commit hook ran, then rolled back).
  func discardCommittedChanges() {
    tableActivity.committedChanges = []
  }

  /// Runs `body` and returns, with its result, the tables that the statements it ran read.
  /// Recordings nest: an inner one's tables count for the outer one too.
  /// - Throws: what `body` throws.
  func recordingTablesRead<T>(_ body: () throws -> T) rethrows -> (value: T, tables: Set<String>) {
    trackTableActivity()
    let activity = tableActivity
    guard activity.tracksReads else { return (try body(), []) }
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
  /// A statement that writes counts its runs on the connection's ``writeRunCounter`` (see
  /// ``countsAsWrite(_:)``).
  func prepareStatement(_ sql: String, persistent: Bool) throws(SQLiteError) -> Statement {
    let activity = tableActivity
    let statement: Statement
    if activity.tracksReads {
      activity.beginPreparing()
      do {
        statement = try Statement.prepare(sql, db: handle, persistent: persistent)
      } catch {
        _ = activity.endPreparing()
        throw error
      }
      statement.learned(activity.endPreparing())
    } else {
      statement = try Statement.prepare(sql, db: handle, persistent: persistent)
    }
    if Self.countsAsWrite(statement.handle) { statement.writeRuns = writeRunCounter }
    return statement
  }

  /// Removes the callbacks before the handle closes: their context dies with the connection.
  func removeActivityCallbacks() {
    guard tableActivity.tracksReads else { return }
    sqlite3_set_authorizer(handle, nil, nil)
    sqlite3_update_hook(handle, nil, nil)
    sqlite3_commit_hook(handle, nil, nil)
    sqlite3_rollback_hook(handle, nil, nil)
  }
}

/// The authorizer: records the tables of the statement being prepared and whether it changes
/// the schema, and turns the truncate optimization off where changes are tracked. It never
/// denies anything, and ignores nothing but the truncate optimization.
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
      activity.preparingReads?.insert(String(cString: first).asciiCaseFolded.string)
    }
  case SQLITE_INSERT, SQLITE_UPDATE:
    if activity.preparingWrites != nil {
      activity.preparingWrites?.insert(String(cString: first).asciiCaseFolded.string)
    }
  case SQLITE_DROP_TABLE, SQLITE_DROP_TEMP_TABLE, SQLITE_DROP_VIEW, SQLITE_DROP_TEMP_VIEW,
    SQLITE_DROP_VTABLE:
    activity.droppedObject = TableActivity.DroppedObject(name: first, database: database)
    if activity.preparingReads != nil { activity.preparingSchemaChange = true }
  case SQLITE_CREATE_INDEX...SQLITE_CREATE_VIEW, SQLITE_DROP_INDEX, SQLITE_DROP_TEMP_INDEX,
    SQLITE_DROP_TEMP_TRIGGER, SQLITE_DROP_TRIGGER, SQLITE_ALTER_TABLE, SQLITE_CREATE_VTABLE:
    if activity.preparingReads != nil { activity.preparingSchemaChange = true }
  case SQLITE_DELETE:
    let table = String(cString: first).asciiCaseFolded.string
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
  activity.pendingChanges.tables.insert(String(cString: table).asciiCaseFolded.string)
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
