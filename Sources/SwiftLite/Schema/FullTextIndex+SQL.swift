// The SQL of a full-text index: its FTS5 table, the triggers that keep it in sync with the
// table it indexes, and the statements that drop it and index every row afresh
// (https://sqlite.org/fts5.html#external_content_tables).
extension FullTextIndex {
  /// The names of the three triggers: after insert, delete and update.
  var triggerNames: [String] { ["ai", "ad", "au"].map { name + "_" + $0 } }

  /// `CREATE VIRTUAL TABLE ... USING fts5(...)`, as `sqlite_schema` keeps it.
  var createTableSQL: String {
    var options =
      columns.map(SQLIdentifier.quote) + [
        "content=" + Self.literal(table), "content_rowid=" + Self.literal(contentRowID),
        "tokenize=" + Self.literal(tokenizer.text),
      ]
    if !prefixes.isEmpty {
      options.append("prefix=" + Self.literal(prefixes.map(String.init).joined(separator: " ")))
    }
    return "CREATE VIRTUAL TABLE " + quotedName + " USING fts5(" + options.joined(separator: ", ")
      + ")"
  }

  /// The triggers, as `sqlite_schema` keeps them, in the order of ``triggerNames``. The
  /// update trigger fires only when an indexed column or one of `keyColumns` (the table's
  /// INTEGER PRIMARY KEY, which is its rowid) changes.
  func triggerSQL(keyColumns: [String]) -> [String] {
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
    var watched = columns
    for key in keyColumns + [contentRowID]
    where key.asciiCaseFolded != ExactText("rowid")
      && !watched.contains(where: { $0.hasSameBytes(as: key) })
    {
      watched.append(key)
    }
    let names = triggerNames.map(SQLIdentifier.quote)
    return [
      "CREATE TRIGGER " + names[0] + " AFTER INSERT ON " + quotedTable + " BEGIN " + insert
        + values("new") + "); END",
      "CREATE TRIGGER " + names[1] + " AFTER DELETE ON " + quotedTable + " BEGIN " + delete
        + values("old") + "); END",
      "CREATE TRIGGER " + names[2] + " AFTER UPDATE OF "
        + watched.map(SQLIdentifier.quote).joined(separator: ", ") + " ON " + quotedTable
        + " BEGIN " + delete + values("old") + "); " + insert + values("new") + "); END",
    ]
  }

  /// The statements that drop the triggers (when they exist).
  var dropTriggersSQL: [String] {
    triggerNames.map { "DROP TRIGGER IF EXISTS " + SQLIdentifier.quote($0) }
  }

  /// The statements that drop the triggers and the FTS5 table (when they exist).
  var dropSQL: [String] { dropTriggersSQL + ["DROP TABLE IF EXISTS " + quotedName] }

  /// The statement that indexes the table's rows afresh.
  var rebuildSQL: String {
    "INSERT INTO " + quotedName + " (" + quotedName + ") VALUES ('rebuild')"
  }

  /// The steps that create the index (its FTS5 table and triggers) and index the rows
  /// already in the table, unless `indexRows` is false (a table just created).
  func creationSteps(keyColumns: [String], indexRows: Bool = true) -> [MigrationPlan.Step] {
    [MigrationPlan.Step(createTableSQL, "create full-text index \(name)")]
      + triggerSQL(keyColumns: keyColumns).map {
        MigrationPlan.Step($0, "create a trigger that keeps full-text index \(name) in sync")
      }
      + (indexRows ? [MigrationPlan.Step(rebuildSQL, "index every row in \(name)")] : [])
  }

  /// An SQL string literal.
  static func literal(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
  }
}
