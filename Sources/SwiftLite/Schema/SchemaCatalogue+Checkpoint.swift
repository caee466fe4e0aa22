// The state of the file the catalogue last vouched for, and the cheap check that it still
// is: what lets a model table checked before (see `ModelTableBlueprints`) be used again
// without describing its table.
//
// A description depends on the main database's schema and on SwiftLite's record table.
// What can change them, and what shows it:
// - a commit by another connection or process (a schema change, a record rewritten):
//   moves `PRAGMA data_version`, which this connection's own commits leave alone;
// - anything this connection runs that writes, rows or schema, committed or not, finished,
//   failed or still running: moves the connection's `writeRuns`, which counts every run
//   of a statement that writes when it starts (DDL included), and C calls on the handle,
//   backups and changesets applied; and its `totalChanges`, which counts every row its
//   statements changed, triggers' rows included. Only a model's own write into its own
//   table (one run, whose changes are its statement's own) is let through (see
//   ``SchemaCatalogue/noteModelWrite(in:)``);
// - a rollback: undoes only what came after the checkpoint, because a checkpoint is made
//   only when the connection holds no uncommitted write (at a committed state, or in a
//   transaction in which nothing written ran since one); what came after it either moved
//   one of the counts above, or was a model's row, which no description depends on. So a
//   schema change made and rolled back cannot bring back a version number with another
//   schema unnoticed: it ran, and the count moved.
// The schema version is kept too: a description read afresh is compared with it. On a
// connection that gave its handle to C code (which may leave a function or a virtual table
// behind that writes from a statement that only reads, counted nowhere), the check reads
// the schema version as well, and no checkpoint is made inside a write transaction.
extension SchemaCatalogue {
  /// What the catalogue read of the file when it last vouched for it.
  struct Checkpoint {
    var schemaVersion: Int64
    var dataVersion: Int64
    /// The connection's `totalChanges` then, moved along by the model writes let through since.
    var totalChanges: Int
    /// The connection's `writeRuns` then, moved along likewise.
    var writeRuns: UInt64
  }

  /// The check statement: the data version, which only another connection's commit moves.
  static let checkSQL = "PRAGMA data_version"

  /// The check statement where C code may write uncounted: the schema version too, which
  /// any schema change moves, by whatever code it runs.
  static let versionsCheckSQL =
    "SELECT s.schema_version, d.data_version FROM pragma_schema_version AS s,"
    + " pragma_data_version AS d"

  /// Compares what a statement just read with the checkpoint: the versions and the
  /// connection's counts.
  /// When they differ, the checkpoint's generation ends; a new one starts from what was
  /// read, unless the connection holds uncommitted writes (a rollback could undo what was
  /// read) or a version is unknown.
  /// - Returns: the generation under which what the statement read may be trusted, or 0.
  func observe(schemaVersion: Int64?, dataVersion: Int64?, in db: Connection) -> UInt64 {
    let changes = db.totalChanges
    let runs = db.writeRuns
    if let checkpoint, checkpoint.schemaVersion == schemaVersion,
      checkpoint.dataVersion == dataVersion, checkpoint.totalChanges == changes,
      checkpoint.writeRuns == runs
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
      schemaVersion: schemaVersion, dataVersion: dataVersion, totalChanges: changes,
      writeRuns: runs)
    return generation
  }

  /// Whether what was vouched for under `generation` still holds: compares the
  /// connection's counts with the checkpoint's, then runs the check statement, one
  /// statement that reads no table.
  /// - Returns: `false` when anything may have changed, or the check failed (the caller
  ///   then describes the table, which reports any error).
  func confirms(_ generation: UInt64, in db: Connection) -> Bool {
    guard generation != 0, generation == self.generation, let checkpoint,
      checkpoint.writeRuns == db.writeRuns, checkpoint.totalChanges == db.totalChanges
    else { return false }
    if db.mayWriteUncounted { return confirmsVersions(of: checkpoint, in: db) }
    do {
      if checkStatement == nil { checkStatement = try db.prepare(Self.checkSQL) }
      guard let statement = checkStatement else { return false }
      var dataVersion: Int64?
      try statement.forEachRow { dataVersion = try $0.get(Int64.self, at: 0) }
      guard dataVersion == checkpoint.dataVersion else {
        self.generation &+= 1
        self.checkpoint = nil
        return false
      }
      return true
    } catch {
      checkStatement = nil
      return false
    }
  }

  /// The check of ``confirms(_:in:)`` where C code may write uncounted: both versions as
  /// the checkpoint holds them.
  private func confirmsVersions(of checkpoint: Checkpoint, in db: Connection) -> Bool {
    do {
      if versionsCheckStatement == nil {
        versionsCheckStatement = try db.prepare(Self.versionsCheckSQL)
      }
      guard let statement = versionsCheckStatement else { return false }
      var versions: (schema: Int64, data: Int64)?
      try statement.forEachRow {
        versions = (try $0.get(Int64.self, at: 0), try $0.get(Int64.self, at: 1))
      }
      guard let versions, versions.schema == checkpoint.schemaVersion,
        versions.data == checkpoint.dataVersion
      else {
        self.generation &+= 1
        self.checkpoint = nil
        return false
      }
      return true
    } catch {
      versionsCheckStatement = nil
      return false
    }
  }

  /// Lets a model's write into its own table through the checkpoint (see above): the
  /// checkpoint counts the write's run and the rows its own statement changed. Should
  /// anything else have run or changed since the checkpoint (a trigger or foreign key
  /// action of this write, or any other statement), the connection's counts are then
  /// above the checkpoint's, and the next check finds it: every count only grows.
  func noteModelWrite(in db: Connection) {
    checkpoint?.totalChanges += db.changes
    checkpoint?.writeRuns &+= 1
  }

}
