// Models found by full-text search (see FullTextIndex).
extension Connection {
  /// The models whose indexed text matches `query`, best first (FTS5's `rank`, bm25 by
  /// default).
  ///
  /// ```swift
  /// struct Article: Model {
  ///   var id: Int64?
  ///   var title: String
  ///   var body: String
  ///   static let primaryKey = ["id"]
  ///   static let fullTextIndexes = [FullTextIndex(Article.self, columns: ["title", "body"])]
  /// }
  /// let db = try Connection.inMemory()
  /// try db.save(Article(id: 1, title: "Power loss", body: "What a directory fsync keeps"))
  /// let userInput = "fsync"
  ///
  /// let index = FullTextIndex(Article.self, columns: ["title", "body"])
  /// let hits = try db.search(Article.self, in: index, matching: .allWords(in: userInput), limit: 20)
  /// ```
  /// - Parameters:
  ///   - model: the model type of the indexed table.
  ///   - index: the index to search.
  ///   - query: the FTS5 query, bound to `MATCH ?`.
  ///   - limit: at most this many, or `nil` for all.
  ///   - target: selects the per-target table, or `nil`.
  /// - Throws: `SQLiteError` for a syntax error in a raw query or a missing index;
  ///   `DecodingError` naming the column.
  public func search<M: Model>(
    _ model: M.Type, in index: FullTextIndex, matching query: FullTextQuery, limit: Int? = nil,
    target: String? = nil
  ) throws -> [M] {
    guard let table = try modelTable(model, target: target, for: .read) else { return [] }
    // The match is a subquery whose columns cannot clash with the model's.
    let sql =
      table.selectSQL + " JOIN (SELECT rowid AS swiftlite_match_rowid, rank AS"
      + " swiftlite_match_rank FROM " + index.quotedName + " WHERE " + index.quotedName
      + " MATCH ?) ON swiftlite_match_rowid = " + table.quotedName + "."
      + SQLIdentifier.quote(index.contentRowID)
    return try fetch(
      model, table, sql, [query.text], orderBy: "swiftlite_match_rank", limit: limit)
  }
}
