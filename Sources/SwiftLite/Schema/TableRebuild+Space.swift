// What a rebuild leaves free: the old table's pages go to the file's free list when it is
// dropped. The file does not shrink: SQLite reuses free pages for later writes, and only
// VACUUM (or auto_vacuum) gives them back to the file system.
extension TableRebuild {
  /// The pages the table uses now, which a rebuild leaves free: counted with the `dbstat`
  /// virtual table, or `nil` when SQLite was built without it. Its indexes' pages are freed
  /// too, but the rebuild creates the new indexes after dropping the old table, and they
  /// reuse most of them: the free list ends a little longer than this estimate, by the
  /// pages an index built in order saves (122 pages left for an estimate of 113 in
  /// `MigrationSpaceTests`).
  /// - Throws: `SQLiteError` when reading fails for another reason.
  static func freedPages(rebuilding table: String, in db: Connection) throws -> Int? {
    do {
      return try db.scalar(
        Int.self, "SELECT count(*) FROM dbstat('main') WHERE name = ?", [table]) ?? 0
    } catch let error as SQLiteError where error.message.contains("dbstat") {
      return nil
    }
  }
}
