// The terminal of a ranked search: each matching model with its bm25 score and the
// snippets FTS5 writes for it, for one page of results.
extension ModelQuery {
  /// The models a query with ``matching(_:in:weights:)`` selects, best first unless it is
  /// ordered otherwise, each with its score and `snippets` (in the order given):
  ///
  /// ```swift
  /// struct Note: Model {
  ///   var id: Int64?
  ///   var title: String
  ///   var body: String
  ///   var isArchived: Bool
  ///   static let primaryKey = ["id"]
  ///   static let fullTextIndexes = [FullTextIndex(Note.self, columns: ["title", "body"])]
  /// }
  /// let db = try Connection.inMemory()
  /// try db.save(Note(id: 1, title: "Tea", body: "Green tea, then black tea", isArchived: false))
  /// let userInput = "tea"
  ///
  /// let page = try Note.all()
  ///   .filter(Column("isArchived") == false)
  ///   .matching(.allWords(in: userInput), weights: ["title": 10])
  ///   .limit(20, offset: 20)
  ///   .fetchHits(db, [.snippet(of: "body", before: "<b>", after: "</b>", tokens: 12)])
  /// ```
  ///
  /// One statement: the page is selected first (filters, order, limit, offset), and the
  /// snippets are written for its rows only. Markers and ellipses are bound values.
  /// - Throws: ``ModelError/invalidDeclaration(model:reason:)`` for a query without a match,
  ///   a model without a full-text index, or a snippet or weight naming a column the index
  ///   does not have; `SQLiteError` for a syntax error in a raw query or a missing index;
  ///   `DecodingError` naming the column when a row does not decode.
  public func fetchHits(_ db: Connection, _ snippets: [FullTextSnippet] = []) throws
    -> [SearchHit<M>]
  {
    guard let match = fullTextMatch else {
      throw ModelError.invalidDeclaration(
        model: String(describing: M.self),
        reason: "fetchHits(_:_:) reads the hits of a search: call matching(_:) on the query first")
    }
    let index = try matchedIndex(match)
    guard let table = try db.modelTable(M.self, target: target, for: .read) else { return [] }
    var page = self
    page.annotations += [
      SQLExpression(SQL("swiftlite_match.swiftlite_score AS swiftlite_hit_score")),
      SQLExpression(SQL("swiftlite_match.swiftlite_rowid AS swiftlite_hit_rowid")),
    ]
    var sql = SQL("SELECT swiftlite_page.*")
    for (position, snippet) in snippets.enumerated() {
      sql.text += ", (SELECT "
      sql.append(try Self.function(snippet, of: index, model: String(describing: M.self)))
      sql.text +=
        " FROM " + index.quotedName + " WHERE " + index.quotedName
        + " MATCH ? AND rowid = swiftlite_page.swiftlite_hit_rowid) AS swiftlite_hit_text_\(position)"
      sql.arguments.append(match.query.text)
    }
    sql.text += " FROM ("
    sql.append(try page.selectSQL(in: db.queryContext(table)))
    sql.text += ") AS swiftlite_page"
    var hits: [SearchHit<M>] = []
    try db.forEachRow(sql, as: M.self) { model, row in
      let score = try row.get(Double.self, "swiftlite_hit_score")
      let texts = try snippets.indices.map {
        try row.get(String?.self, "swiftlite_hit_text_\($0)")
      }
      hits.append(SearchHit(model: model, score: score, snippets: texts))
    }
    return hits
  }

  /// `snippet(...)` or `highlight(...)` of the index, every argument bound.
  private static func function(_ snippet: FullTextSnippet, of index: FullTextIndex, model: String)
    throws -> SQL
  {
    var column = -1
    if let name = snippet.column {
      guard let position = index.columns.firstIndex(where: { $0.hasSameBytes(as: name) }) else {
        throw ModelError.invalidDeclaration(
          model: model,
          reason: "a snippet names column '\(name)', which full-text index \(index.name) "
            + "does not index (it indexes " + index.columns.joined(separator: ", ") + ")")
      }
      column = position
    }
    switch snippet.kind {
    case .snippet(let ellipsis, let tokens):
      return SQL(
        "snippet(" + index.quotedName + ", ?, ?, ?, ?, ?)",
        [column, snippet.before, snippet.after, ellipsis, tokens])
    case .highlight:
      guard snippet.column != nil else {
        throw ModelError.invalidDeclaration(model: model, reason: "a highlight needs a column")
      }
      return SQL(
        "highlight(" + index.quotedName + ", ?, ?, ?)", [column, snippet.before, snippet.after])
    }
  }
}
