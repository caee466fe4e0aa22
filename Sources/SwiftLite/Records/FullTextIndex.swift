/// An FTS5 full-text index over text columns of a table, which stays the one place the
/// text is stored: the index is an external-content FTS5 table, kept in sync by triggers
/// on the table (<https://sqlite.org/fts5.html#external_content_tables>).
///
/// A model declares its indexes in ``Model/fullTextIndexes``, and SwiftLite keeps them with
/// the table: creating the table creates them, and a migration that renames or removes an
/// indexed column, rebuilds the table or changes the tokenizer recreates the index and its
/// triggers against the new columns in the same transaction:
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
/// let userInput = "power fsync"
///
/// let hits = try Article.all().matching(.allWords(in: userInput)).limit(20).fetchHits(db)
/// ```
///
/// An index that no model declares can still be made by hand with
/// `Connection.createFullTextIndex(_:)`.
///
/// The triggers index each row inserted, updated or deleted, by any connection, in the same
/// transaction; the update trigger fires only when an indexed column or the row's key
/// changes (`AFTER UPDATE OF ...`). The index refers to rows by their rowid (or
/// `contentRowID`): for a table without an `INTEGER PRIMARY KEY`, `VACUUM` may renumber
/// rowids, after which `Connection.rebuildFullTextIndex(_:)` must run.
public struct FullTextIndex: Sendable, Hashable {
  /// The table that holds the text.
  public var table: String
  /// The indexed columns of ``table``, in the index's column order (the order of
  /// per-column weights and of `snippet` column numbers).
  public var columns: [String]
  /// The name of the FTS5 table; the triggers are named after it (`<name>_ai`, `_ad`, `_au`).
  public var name: String
  /// The integer column of ``table`` that identifies a row for the index: `"rowid"`, or
  /// the table's `INTEGER PRIMARY KEY` column.
  public var contentRowID: String
  /// The FTS5 tokenizer. The default, `unicode61 remove_diacritics 2`, folds case and
  /// accents in every script: "zoe" finds "Zoë".
  public var tokenizer: FullTextTokenizer
  /// The prefix lengths FTS5 indexes beside whole words (its `prefix` option), which make
  /// prefix queries (``FullTextQuery/prefixes(in:)``) of those lengths fast. Default: none.
  public var prefixes: [Int]

  /// An index of `columns` of `table`.
  /// - Parameters:
  ///   - table: the table holding the text.
  ///   - columns: the text columns to index.
  ///   - name: the FTS5 table's name; default `<table>_fts`.
  ///   - contentRowID: `"rowid"` (the default) or the table's `INTEGER PRIMARY KEY`.
  ///   - tokenizer: the FTS5 `tokenize` option (a string literal is its text).
  ///   - prefixes: prefix lengths to index (the FTS5 `prefix` option), each 1 to 999.
  public init(
    table: String, columns: [String], name: String? = nil, contentRowID: String = "rowid",
    tokenizer: FullTextTokenizer = .unicode61(), prefixes: [Int] = []
  ) {
    self.table = table
    self.columns = columns
    self.name = name ?? Self.defaultName(table: table)
    self.contentRowID = contentRowID
    self.tokenizer = tokenizer
    self.prefixes = prefixes
  }

  /// An index of `columns` of a model's table (``Model/tableName``, or the per-target
  /// table): the form a model's ``Model/fullTextIndexes`` declares.
  public init<M: Model>(
    _ model: M.Type, columns: [String], target: String? = nil, name: String? = nil,
    contentRowID: String = "rowid", tokenizer: FullTextTokenizer = .unicode61(),
    prefixes: [Int] = []
  ) {
    self.init(
      table: target.map { M.tableName(target: $0) } ?? M.tableName, columns: columns, name: name,
      contentRowID: contentRowID, tokenizer: tokenizer, prefixes: prefixes)
  }

  /// The index a model declares first in ``Model/fullTextIndexes``, for its table or a
  /// per-target table; `nil` when it declares none.
  public static func declared<M: Model>(by model: M.Type, target: String? = nil)
    -> FullTextIndex?
  {
    M.fullTextIndexes.first.map { index in
      target.map { index.retargeted(to: M.tableName(target: $0)) } ?? index
    }
  }

  /// `<table>_fts`.
  static func defaultName(table: String) -> String { table + "_fts" }

  /// The same index over another table with the same columns (a per-target table): a
  /// default name follows the table, an explicit one is suffixed with `_<table>`, so that
  /// each target table has its own index.
  func retargeted(to other: String) -> FullTextIndex {
    guard !other.hasSameBytes(as: table) else { return self }
    var index = self
    index.name =
      name.hasSameBytes(as: Self.defaultName(table: table))
      ? Self.defaultName(table: other) : name + "_" + other
    index.table = other
    return index
  }

  /// An SQL condition on ``table`` that holds for the rows matching a query bound to its one
  /// parameter, for `findAll(_:where:)` and raw SQL (unranked):
  /// `"t"."rowid" IN (SELECT rowid FROM "t_fts" WHERE "t_fts" MATCH ?)`.
  public var matchCondition: String {
    SQLIdentifier.quote(table) + "." + SQLIdentifier.quote(contentRowID)
      + " IN (SELECT rowid FROM " + quotedName + " WHERE " + quotedName + " MATCH ?)"
  }

  /// The FTS5 table's name, quoted.
  var quotedName: String { SQLIdentifier.quote(name) }
}
