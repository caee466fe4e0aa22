// A full-text index's match as a condition of the query interface and of SQL you write.
extension FullTextIndex {
  /// ``matchCondition`` with `query` bound, for the query interface (unranked):
  ///
  /// ```swift
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
