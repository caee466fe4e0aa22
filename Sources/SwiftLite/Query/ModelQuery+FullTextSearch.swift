// Full-text search in the query interface: a match against one of the model's FTS5 indexes,
// joined for its bm25 score, combined with the query's filters, order, limit and offset.
extension ModelQuery {
  /// The rows whose indexed text matches `query`, best first (bm25) unless the query is
  /// ordered otherwise, combined with every filter of the query:
  ///
  /// ```swift
  /// struct Note: Model {
  ///   var id: Int64?
  ///   var folderID: Int64
  ///   var title: String
  ///   var body: String
  ///   static let primaryKey = ["id"]
  ///   static let fullTextIndexes = [FullTextIndex(Note.self, columns: ["title", "body"])]
  /// }
  /// let db = try Connection.inMemory()
  /// try db.save(Note(id: 1, folderID: 1, title: "Tea", body: "Green tea"))
  /// let (folderID, userInput): (Int64, String) = (1, "tea")
  ///
  /// let page = try Note.all()
  ///   .filter(Column("folderID") == folderID)
  ///   .matching(.allWords(in: userInput), weights: ["title": 10])   // a title word counts 10x
  ///   .limit(20, offset: 40)
  ///   .fetchAll(db)
  /// ```
  ///
  /// ``fetchHits(_:_:)`` reads each hit's score and snippets with the model;
  /// ``SQLExpression/fullTextScore`` orders by the score among other terms. One match per
  /// query: a second call replaces the first.
  /// - Parameters:
  ///   - query: the FTS5 query, bound to `MATCH ?` (build it from a user's text with
  ///     ``FullTextQuery/allWords(in:)`` and the other factories).
  ///   - index: the index to search; default the first of the model's
  ///     ``Model/fullTextIndexes``.
  ///   - weights: bm25 weights by indexed column (default 1 each): a match in a column of
  ///     weight 10 counts ten times one in a column of weight 1.
  public func matching(
    _ query: FullTextQuery, in index: FullTextIndex? = nil, weights: [String: Double] = [:]
  ) -> ModelQuery {
    var copy = self
    copy.fullTextMatch = FullTextMatch(query: query, index: index, weights: weights)
    return copy
  }

  /// The index the match searches, checked.
  /// - Throws: ``ModelError/invalidDeclaration(model:reason:)`` when the model declares no
  ///   index and none is given, or a weight names a column the index does not have.
  func matchedIndex(_ match: FullTextMatch) throws -> FullTextIndex {
    let model = String(describing: M.self)
    guard let index = match.index ?? FullTextIndex.declared(by: M.self, target: target) else {
      throw ModelError.invalidDeclaration(
        model: model,
        reason: "matching(_:) needs a full-text index: declare one in fullTextIndexes, or pass "
          + "it with matching(_:in:)")
    }
    for column in match.weights.keys.sorted()
    where !index.columns.contains(where: { $0.hasSameBytes(as: column) }) {
      throw ModelError.invalidDeclaration(
        model: model,
        reason: "the search weighs column '\(column)', which full-text index \(index.name) "
          + "does not index (it indexes " + index.columns.joined(separator: ", ") + ")")
    }
    return index
  }

  /// ` JOIN (...) AS swiftlite_match ON ...`: the matching rowids with their scores, joined
  /// to the table referred to as `qualifier`; empty without a match. The subquery's columns
  /// have names no model column has, so the query's own columns stay unambiguous.
  func fullTextJoin(qualifier: String) throws -> SQL? {
    guard let match = fullTextMatch else { return nil }
    let index = try matchedIndex(match)
    let weights = index.columns.map { column -> Double in
      match.weights.first { $0.key.hasSameBytes(as: column) }?.value ?? 1
    }
    let name = index.quotedName
    var sql = SQL(
      " JOIN (SELECT rowid AS swiftlite_rowid, bm25(" + name
        + String(repeating: ", ?", count: match.weights.isEmpty ? 0 : weights.count)
        + ") AS swiftlite_score FROM " + name + " WHERE " + name + " MATCH ?) AS swiftlite_match"
        + " ON swiftlite_match.swiftlite_rowid = " + SQLIdentifier.quote(qualifier) + "."
        + SQLIdentifier.quote(index.contentRowID))
    sql.arguments = (match.weights.isEmpty ? [] : weights) + [match.query.text]
    return sql
  }

  /// The match as a condition (`rowid IN (SELECT rowid ... MATCH ?)`), for statements that
  /// do not join it: counts, deletes, updates.
  func fullTextCondition(qualifier: String) throws -> SQLExpression? {
    guard let match = fullTextMatch else { return nil }
    let index = try matchedIndex(match)
    let name = index.quotedName
    return SQLExpression(
      SQL(
        SQLIdentifier.quote(qualifier) + "." + SQLIdentifier.quote(index.contentRowID)
          + " IN (SELECT rowid FROM " + name + " WHERE " + name + " MATCH ?)",
        [match.query.text]))
  }
}

/// A query's full-text match: the query, the index (`nil` for the model's first), and the
/// bm25 weights by column.
struct FullTextMatch: Sendable {
  var query: FullTextQuery
  var index: FullTextIndex?
  var weights: [String: Double]
}

extension SQLExpression {
  /// The bm25 score of a row in a query with ``ModelQuery/matching(_:in:weights:)``
  /// (lower is better), to order by it among other terms:
  /// `.order(SQLExpression.fullTextScore, Column("title"))`. In a query without a match it
  /// names no column, and the statement fails.
  public static let fullTextScore = SQLExpression(SQL("swiftlite_match.swiftlite_score"))
}
