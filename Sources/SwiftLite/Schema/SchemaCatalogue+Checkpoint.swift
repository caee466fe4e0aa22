// The state of the file the catalogue last vouched for, and the cheap check that it still
// is: what lets a model table checked before (see `ModelTableBlueprints`) be used again
// without describing its table.
//
// A description depends on the main database's schema and on SwiftLite's record table.
// What can change them, and what shows it:
// - any change to the schema, by any connection or process, pending or committed: moves
//   `PRAGMA schema_version`. A checkpoint is made only at a committed state (below), so a
//   rollback that brings the number back brings back the schema it stood for; SQLite
//   preparing the check statement again says nothing more (a pragma such as `query_only`
//   expires every statement of the connection without changing anything);
// - a commit by another connection or process (a record rewritten without a schema
//   change): moves `PRAGMA data_version`, which this connection's own commits leave alone;
// - this connection's own writes, committed or not (raw SQL on the record table, a
//   trigger, a changeset, C calls on the handle): move the connection's `totalChanges`,
//   which counts every row any statement of the connection changed, triggers' rows
//   included, once the statement ends (while a write still runs, nothing is vouched for);
//   Only a model's own write into its own table (no other row changed: the total moved by
//   exactly the statement's direct changes) is let through (see
//   ``SchemaCatalogue/noteModelWrite(in:)``);
// - a rollback: undoes only what came after the checkpoint, because a checkpoint is made
//   only when the connection has no uncommitted write; what came after it either moved
//   one of the numbers above, or was a model's row, which no description depends on.
extension SchemaCatalogue {
  /// What the catalogue read of the file when it last vouched for it.
  struct Checkpoint {
    var schemaVersion: Int64
    var dataVersion: Int64
    /// The connection's `totalChanges` then, moved along by the model writes let through since.
    var totalChanges: Int
  }

  /// The check statement: both versions, in one statement (one read transaction).
  static let checkSQL =
    "SELECT s.schema_version, d.data_version FROM pragma_schema_version AS s,"
    + " pragma_data_version AS d"

  /// Compares what a statement just read with the checkpoint: the versions and the
  /// connection's changes.
  /// When they differ, the checkpoint's generation ends; a new one starts from what was
  /// read, unless the connection holds uncommitted writes (a rollback could undo what was
  /// read) or a version is unknown.
  /// - Returns: the generation under which what the statement read may be trusted, or 0.
  func observe(schemaVersion: Int64?, dataVersion: Int64?, in db: Connection) -> UInt64 {
    let changes = db.totalChanges
    if let checkpoint, checkpoint.schemaVersion == schemaVersion,
      checkpoint.dataVersion == dataVersion, checkpoint.totalChanges == changes
    {
      return generation
    }
    generation &+= 1
    guard let schemaVersion, let dataVersion, !db.hasUncommittedWrites
    else {
      checkpoint = nil
      return 0
    }
    checkpoint = Checkpoint(
      schemaVersion: schemaVersion, dataVersion: dataVersion, totalChanges: changes)
    return generation
  }

  /// Whether what was vouched for under `generation` still holds: runs the check
  /// statement when it can (a checkpoint of that generation exists), one statement that
  /// reads no table.
  /// - Returns: `false` when anything may have changed, or the check failed (the caller
  ///   then describes the table, which reports any error).
  func confirms(_ generation: UInt64, in db: Connection) -> Bool {
    // A write still running has changed rows that no number counts yet. It holds a write
    // transaction open, so outside one the statements need no look.
    guard generation != 0, generation == self.generation, checkpoint != nil,
      !(db.hasUncommittedWrites && db.hasWriteInProgress)
    else { return false }
    do {
      if checkStatement == nil { checkStatement = try db.prepare(Self.checkSQL) }
      guard let statement = checkStatement else { return false }
      var versions: (Int64, Int64)?
      try statement.forEachRow {
        versions = (try $0.get(Int64.self, at: 0), try $0.get(Int64.self, at: 1))
      }
      return observe(schemaVersion: versions?.0, dataVersion: versions?.1, in: db) == generation
    } catch {
      checkStatement = nil
      return false
    }
  }

  /// Lets a model's write into its own table through the checkpoint (see above): the
  /// checkpoint counts the rows the write's own statement changed. Should any other row
  /// have changed since the checkpoint (a trigger or foreign key action of this write, or
  /// any other statement), the connection's total is then above the checkpoint's, and
  /// the next check finds it: every count only grows.
  func noteModelWrite(in db: Connection) {
    checkpoint?.totalChanges += db.changes
  }

}
