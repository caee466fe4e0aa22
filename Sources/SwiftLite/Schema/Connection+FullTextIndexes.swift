// Full-text indexes made by hand: for tables no model declares them on (a model's
// `fullTextIndexes` are created and migrated with its table). See FullTextIndex.
extension Connection {
  /// Whether SQLite was built with FTS5 (`ENABLE_FTS5` in `PRAGMA compile_options`).
  /// - Throws: `SQLiteError` if the pragma fails.
  public func isFullTextSearchAvailable() throws -> Bool {
    try query("PRAGMA compile_options").contains { row in
      (try? row.get(String.self, at: 0)) == "ENABLE_FTS5"
    }
  }

  /// Creates an index's FTS5 table and triggers, and indexes the rows already in the table.
  /// Creating an index that exists replaces its triggers with the current ones (an earlier
  /// SwiftLite's fired on every update) and indexes afresh. All or nothing. The table must
  /// exist (a model's table is created by its first write, or by `createTable(for:)`).
  ///
  /// A model's own indexes are better declared in ``Model/fullTextIndexes``: they are then
  /// created with the table and carried by its migrations.
  /// - Throws: `SQLiteError` for a table or column that does not exist, or when SQLite has
  ///   no FTS5 (`no such module: fts5`; see ``isFullTextSearchAvailable()``); the file is
  ///   left as it was.
  public func createFullTextIndex(_ index: FullTextIndex) throws {
    try savepoint { db in
      let keys = try SchemaInspector(db).schema(of: index.table)?.fullTextKeyColumns ?? []
      let exists = try SchemaInspector(db).tableExists(index.name)
      for sql in index.dropTriggersSQL { try db.execute(sql) }
      if !exists { try db.execute(index.createTableSQL) }
      for sql in index.triggerSQL(keyColumns: keys) { try db.execute(sql) }
      try db.execute(index.rebuildSQL)
    }
  }

  /// Drops an index's triggers and FTS5 table; the indexed table is untouched.
  /// - Throws: `SQLiteError`; nothing is dropped then.
  public func dropFullTextIndex(_ index: FullTextIndex) throws {
    try savepoint { db in
      for sql in index.dropSQL { try db.execute(sql) }
    }
  }

  /// Indexes every row of the table afresh (after a `VACUUM` renumbered rowids, or to
  /// repair an index).
  /// - Throws: `SQLiteError`.
  public func rebuildFullTextIndex(_ index: FullTextIndex) throws {
    try execute(index.rebuildSQL)
  }
}
