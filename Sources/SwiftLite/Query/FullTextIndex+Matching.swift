// A full-text index's match as a condition of the query interface and of SQL you write.
extension FullTextIndex {
  /// ``matchCondition`` with `query` bound, for the query interface (unranked):
  ///
  /// ```swift
  /// struct Article: Model {
  ///   var id: Int64?
  ///   var title: String
  ///   var year: Int
  ///   static let primaryKey = ["id"]
  ///   static let fullTextIndexes = [FullTextIndex(Article.self, columns: ["title"])]
  /// }
  /// let db = try Connection.inMemory()
  /// try db.save(Article(id: 1, title: "Power loss and SQLite", year: 2024))
  /// let index = Article.fullTextIndexes[0]
  /// let text = "sqlite power"
  ///
  /// let recent = try Article.all().filter(index.matching(.allWords(in: text)))
  ///   .order(Column("year").desc).fetchAll(db)
  /// ```
  ///
  /// For results best first, with scores and snippets, use
  /// ``ModelQuery/matching(_:in:weights:)``.
  public func matching(_ query: FullTextQuery) -> SQL {
    SQL(matchCondition, [query.text])
  }
}
