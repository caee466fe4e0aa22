// Full-text search with FTS5: an index kept in sync by triggers, queried with bound
// patterns and ranked by bm25. See FullTextIndex and FullTextQuery.
extension Connection {
  /// Whether SQLite was built with FTS5 (`ENABLE_FTS5` in `PRAGMA compile_options`).
  /// - Throws: `SQLiteError` if the pragma fails.
  public func isFullTextSearchAvailable() throws -> Bool {
    try query("PRAGMA compile_options").contains { row in
      (try? row.get(String.self, at: 0)) == "ENABLE_FTS5"
    }
  }

  /// Creates an index's FTS5 table and triggers, and indexes the rows already in the table.
  /// Creating an index that exists does nothing more than indexing afresh. All or nothing.
  /// The table must exist (a model's table is created by its first write, or by
  /// `createTable(for:)`).
  /// - Throws: `SQLiteError` for a table or column that does not exist, or when SQLite has
  ///   no FTS5 (`no such module: fts5`; see ``isFullTextSearchAvailable()``); the file is
  ///   left as it was.
  public func createFullTextIndex(_ index: FullTextIndex) throws {
    try savepoint { db in
      for sql in index.creationSQL { try db.execute(sql) }
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

  /// The rows of the indexed table that match `query`, best first (FTS5's `rank`, bm25 by
  /// default), each with all the table's columns.
  ///
  /// ```swift
  /// let rows = try db.search(in: index, matching: .prefixes(in: field.text), limit: 20)
  /// ```
  /// - Parameters:
  ///   - index: the index to search.
  ///   - query: the FTS5 query, bound to `MATCH ?`.
  ///   - limit: at most this many rows, or `nil` for all.
  /// - Throws: `SQLiteError` for a syntax error in a ``FullTextQuery/init(raw:)`` query,
  ///   or a missing index.
  public func search(in index: FullTextIndex, matching query: FullTextQuery, limit: Int? = nil)
    throws -> [Row]
  {
    let table = SQLIdentifier.quote(index.table)
    let sql =
      "SELECT " + table + ".* FROM " + index.quotedName + " JOIN " + table + " ON " + table + "."
      + SQLIdentifier.quote(index.contentRowID) + " = " + index.quotedName + ".rowid WHERE "
      + index.quotedName + " MATCH ? ORDER BY " + index.quotedName + ".rank LIMIT ?"
    return try self.query(sql, [query.text, limit ?? -1])
  }
}
