/// An FTS5 full-text index over text columns of a table, which stays the one place the
/// text is stored: the index is an external-content FTS5 table, kept in sync by triggers
/// on the table (<https://sqlite.org/fts5.html#external_content_tables>).
///
/// ```swift
/// let index = FullTextIndex(Article.self, columns: ["title", "body"])
/// try db.createFullTextIndex(index)            // the FTS5 table, its triggers, existing rows
/// let found = try db.search(Article.self, in: index, matching: .allWords(in: userInput))
/// ```
///
/// The triggers index each row inserted, updated or deleted, by any connection, in the same
/// transaction. The index refers to rows by their rowid (or `contentRowID`): for a table
/// without an `INTEGER PRIMARY KEY`, `VACUUM` may renumber rowids, after which
/// ``Connection/rebuildFullTextIndex(_:)`` must run.
public struct FullTextIndex: Sendable, Hashable {
  /// The table that holds the text.
  public var table: String
  /// The indexed columns of ``table``.
  public var columns: [String]
  /// The name of the FTS5 table; the triggers are named after it.
  public var name: String
  /// The integer column of ``table`` that identifies a row for the index: `"rowid"`, or
  /// the table's `INTEGER PRIMARY KEY` column.
  public var contentRowID: String
  /// The FTS5 tokenizer. The default, `unicode61 remove_diacritics 2`, folds case and
  /// accents in every script: "zoe" finds "Zoë".
  public var tokenizer: String

  /// An index of `columns` of `table`.
  /// - Parameters:
  ///   - table: the table holding the text.
  ///   - columns: the text columns to index.
  ///   - name: the FTS5 table's name; default `<table>_fts`.
  ///   - contentRowID: `"rowid"` (the default) or the table's `INTEGER PRIMARY KEY`.
  ///   - tokenizer: the FTS5 `tokenize` option.
  public init(
    table: String, columns: [String], name: String? = nil, contentRowID: String = "rowid",
    tokenizer: String = "unicode61 remove_diacritics 2"
  ) {
    self.table = table
    self.columns = columns
    self.name = name ?? table + "_fts"
    self.contentRowID = contentRowID
    self.tokenizer = tokenizer
  }

  /// An index of `columns` of a model's table (``Model/tableName``, or the per-target
  /// table).
  public init<M: Model>(
    _ model: M.Type, columns: [String], target: String? = nil, name: String? = nil,
    contentRowID: String = "rowid", tokenizer: String = "unicode61 remove_diacritics 2"
  ) {
    self.init(
      table: target.map { M.tableName(target: $0) } ?? M.tableName, columns: columns, name: name,
      contentRowID: contentRowID, tokenizer: tokenizer)
  }

  /// An SQL condition on ``table`` that holds for the rows matching a query bound to its one
  /// parameter, for `findAll(_:where:)` and raw SQL (unranked):
  /// `"t"."rowid" IN (SELECT rowid FROM "t_fts" WHERE "t_fts" MATCH ?)`.
  public var matchCondition: String {
    SQLIdentifier.quote(table) + "." + SQLIdentifier.quote(contentRowID)
      + " IN (SELECT rowid FROM " + quotedName + " WHERE " + quotedName + " MATCH ?)"
  }

  /// ``matchCondition`` with `query` bound, for the query interface (unranked):
  ///
  /// ```swift
  /// let recent = try Article.all().filter(index.matching(.allWords(in: text)))
  ///   .order(Column("year").desc).fetchAll(db)
  /// ```
  public func matching(_ query: FullTextQuery) -> SQL {
    SQL(matchCondition, [query.text])
  }

  var quotedName: String { SQLIdentifier.quote(name) }

  /// The statements that create the FTS5 table and its triggers (each `IF NOT EXISTS`).
  var creationSQL: [String] {
    let quotedTable = SQLIdentifier.quote(table)
    let quotedColumns = columns.map(SQLIdentifier.quote)
    let columnList = quotedColumns.joined(separator: ", ")
    let rowID = SQLIdentifier.quote(contentRowID)
    func values(_ row: String) -> String {
      ([row + "." + rowID] + quotedColumns.map { row + "." + $0 }).joined(separator: ", ")
    }
    let insert = "INSERT INTO " + quotedName + " (rowid, " + columnList + ") VALUES ("
    let delete =
      "INSERT INTO " + quotedName + " (" + quotedName + ", rowid, " + columnList
      + ") VALUES ('delete', "
    return [
      "CREATE VIRTUAL TABLE IF NOT EXISTS " + quotedName + " USING fts5(" + columnList
        + ", content=" + Self.literal(table) + ", content_rowid=" + Self.literal(contentRowID)
        + ", tokenize=" + Self.literal(tokenizer) + ")",
      "CREATE TRIGGER IF NOT EXISTS " + trigger("ai") + " AFTER INSERT ON " + quotedTable
        + " BEGIN " + insert + values("new") + "); END",
      "CREATE TRIGGER IF NOT EXISTS " + trigger("ad") + " AFTER DELETE ON " + quotedTable
        + " BEGIN " + delete + values("old") + "); END",
      "CREATE TRIGGER IF NOT EXISTS " + trigger("au") + " AFTER UPDATE ON " + quotedTable
        + " BEGIN " + delete + values("old") + "); " + insert + values("new") + "); END",
    ]
  }

  /// The statements that drop the triggers and the FTS5 table.
  var dropSQL: [String] {
    ["ai", "ad", "au"].map { "DROP TRIGGER IF EXISTS " + trigger($0) }
      + ["DROP TABLE IF EXISTS " + quotedName]
  }

  /// The statement that indexes the table's rows afresh.
  var rebuildSQL: String {
    "INSERT INTO " + quotedName + " (" + quotedName + ") VALUES ('rebuild')"
  }

  private func trigger(_ suffix: String) -> String { SQLIdentifier.quote(name + "_" + suffix) }

  /// An SQL string literal.
  private static func literal(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
  }
}
