// The rows of a query as stable text, for test assertions and debugging: a line of column
// names, then one line per row with each value as SQLite's `quote()` writes it.
extension Connection {
  /// The rows of `sql` as text: the column names joined by `|`, then each row's values as
  /// SQL literals (`quote()`: `1`, `1.5`, `'it''s'`, `X'00FF'`, `NULL`) joined by `|`, in
  /// the query's order.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE note(id INTEGER PRIMARY KEY, folderID INTEGER, title TEXT)")
  /// try db.run("INSERT INTO note VALUES (1, 7, 'Groceries')")
  /// let id = 7
  ///
  /// print(try db.dump("SELECT id, title FROM note WHERE folderID = \(id) ORDER BY id"))
  /// // id|title
  /// // 1|'Groceries'
  /// ```
  /// Interpolated values are bound. Each value is quoted by SQLite itself, so the text is
  /// what ``dumpContent(includingBookkeeping:)`` writes for the same value.
  /// - Throws: `SQLiteError` for bad SQL or when reading fails.
  public func dump(_ sql: SQL) throws -> String {
    var lines: [String] = []
    var quoting: String?
    try withCachedStatement(sql.text, sql.statementArguments) { statement in
      var header: [String]?
      while try statement.step() {
        let row = statement.row
        if header == nil { header = row.columnNames }
        let values = try row.values
        let select =
          quoting
          ?? "SELECT "
          + Array(repeating: "quote(?)", count: values.count)
          .joined(separator: " || '|' || ")
        quoting = select
        lines.append(
          try scalar(String.self, select, StatementArguments(values.map { $0 })) ?? "")
      }
      lines.insert((header ?? statement.columnNames).joined(separator: "|"), at: 0)
    }
    return lines.joined(separator: "\n")
  }

  /// The rows of a query of models as text, as `dump(_:)` writes them for SQL: the columns
  /// it selects (every column of the model, or those of `select(_:)`), then its rows in
  /// its order.
  /// - Throws: `SQLiteError`; ``ModelError``.
  public func dump<M: Model>(_ query: ModelQuery<M>) throws -> String {
    guard let table = try modelTable(M.self, target: query.target, for: .read) else {
      return ""
    }
    return try dump(query.selectSQL(in: queryContext(table)))
  }
}
