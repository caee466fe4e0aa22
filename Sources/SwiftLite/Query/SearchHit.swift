/// One result of a ranked full-text search (``ModelQuery/fetchHits(_:_:)``): the model,
/// its bm25 score, and the snippets asked for.
///
/// ```swift
/// struct Note: Model {
///   var id: Int64?
///   var title: String
///   var body: String
///   static let primaryKey = ["id"]
///   static let fullTextIndexes = [FullTextIndex(Note.self, columns: ["title", "body"])]
/// }
/// let db = try Connection.inMemory()
/// try db.save(Note(id: 1, title: "Tea", body: "Green tea, then black tea"))
/// let text = "tea"
///
/// for hit in try Note.all().matching(.allWords(in: text)).limit(20)
///   .fetchHits(db, [.snippet(before: "[", after: "]")])
/// {
///   print(hit.model.title, hit.score, hit.snippets[0] ?? "")
/// }
/// ```
public struct SearchHit<M: Model> {
  /// The matching row, as the model.
  public var model: M
  /// The row's bm25 score as FTS5 computes it, with the weights of the search: lower is a
  /// better match (scores are negative), and results come lowest first unless the query is
  /// ordered otherwise.
  public var score: Double
  /// One text per ``FullTextSnippet`` asked, in that order; `nil` where the column is NULL.
  public var snippets: [String?]

  /// A hit made of its parts.
  public init(model: M, score: Double, snippets: [String?]) {
    self.model = model
    self.score = score
    self.snippets = snippets
  }
}

extension SearchHit: Sendable where M: Sendable {}
extension SearchHit: Equatable where M: Equatable {}
