// Full-text search with FTS5 in SQL rows: an index queried with a bound pattern, ranked by
// bm25. Models and ranked pages come from the query interface (ModelQuery.matching(_:in:weights:)).
extension Connection {
  /// The rows of the indexed table that match `query`, best first (FTS5's `rank`, bm25 by
  /// default), each with all the table's columns.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, title TEXT, body TEXT)")
  /// let index = FullTextIndex(table: "note", columns: ["title", "body"])
  /// try db.createFullTextIndex(index)
  /// try db.run("INSERT INTO note(title, body) VALUES ('Zoë', 'small talk')")
  /// let typed = "zo sm"  // what the search field holds
  ///
  /// let rows = try db.search(in: index, matching: .prefixes(in: typed), limit: 20)
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
