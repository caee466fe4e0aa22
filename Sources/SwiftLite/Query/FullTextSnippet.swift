/// Text FTS5 writes for each hit of a ranked search (``ModelQuery/matching(_:in:weights:)``):
/// a snippet of a column around the matched words, or a whole column with them
/// highlighted, the words between markers you choose
/// (<https://sqlite.org/fts5.html#the_snippet_function>).
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
/// let hits = try Note.all().matching(.allWords(in: text)).limit(20).fetchHits(db, [
///   .snippet(before: "<mark>", after: "</mark>", ellipsis: "…", tokens: 12),
///   .highlight("title", before: "<mark>", after: "</mark>"),
/// ])
/// hits[0].snippets   // [snippet, highlighted title], in the order asked
/// ```
///
/// The markers and the ellipsis are bound values, never part of the SQL; FTS5 inserts them
/// as they are (escaping the text for HTML, say, is yours to do); FTS5 reads each up to its
/// first NUL, if it has one. Columns are named as in the index (``FullTextIndex/columns``).
public struct FullTextSnippet: Sendable, Hashable {
  /// What FTS5 writes.
  enum Kind: Sendable, Hashable {
    case snippet(ellipsis: String, tokens: Int)
    case highlight
  }

  let kind: Kind
  /// The column, or `nil` for the one FTS5 finds best (snippets only).
  public let column: String?
  /// The text written before each matched word.
  public let before: String
  /// The text written after each matched word.
  public let after: String

  /// A fragment of `column` (or of the column that matches best, when `nil`) of at most
  /// `tokens` words (1 to 64) around the matched words, with `ellipsis` where the text is
  /// cut.
  public static func snippet(
    of column: String? = nil, before: String, after: String, ellipsis: String = "…",
    tokens: Int = 16
  ) -> FullTextSnippet {
    FullTextSnippet(
      kind: .snippet(ellipsis: ellipsis, tokens: tokens), column: column, before: before,
      after: after)
  }

  /// The whole text of `column`, every matched word between `before` and `after`.
  public static func highlight(_ column: String, before: String, after: String)
    -> FullTextSnippet
  {
    FullTextSnippet(kind: .highlight, column: column, before: before, after: after)
  }
}
