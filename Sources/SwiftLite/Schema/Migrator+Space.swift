import Foundation

// Reclaiming the pages migrations left free (a rebuild frees the old table's), when the
// migrator is asked to: one VACUUM after the last step of a `migrate` call.
extension Migrator {
  /// Runs `VACUUM` when the file has free pages, then reindexes the full-text indexes whose
  /// rows VACUUM may have renumbered.
  ///
  /// VACUUM keeps the rowids of tables with an `INTEGER PRIMARY KEY` but may renumber the
  /// others', and an external-content FTS5 index refers to rows by rowid: each index over
  /// such a table is rebuilt from its table afterwards, in one transaction.
  /// - Throws: `SQLiteError` (VACUUM cannot run inside a transaction, or while another
  ///   statement of the connection runs).
  static func reclaimSpace(in db: Connection) throws {
    guard try db.scalar(Int.self, "PRAGMA freelist_count") ?? 0 > 0 else { return }
    let renumbered = try fullTextIndexesOverImplicitRowids(in: db)
    try db.execute("VACUUM")
    guard !renumbered.isEmpty else { return }
    try db.transaction(.immediate) { db in
      for name in renumbered {
        let quoted = SQLIdentifier.quote(name)
        try db.execute("INSERT INTO \(quoted)(\(quoted)) VALUES ('rebuild')")
      }
    }
  }

  /// The external-content FTS5 tables whose content table has no `INTEGER PRIMARY KEY`
  /// and whose rows they refer to by `rowid`.
  private static func fullTextIndexesOverImplicitRowids(in db: Connection) throws -> [String] {
    var found: [String] = []
    let rows = try db.query(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND sql LIKE '%USING fts5%'")
    for row in rows {
      let name = try row.get(String.self, at: 0)
      let sql = try row.get(String.self, at: 1)
      guard let content = option("content", in: sql), !content.isEmpty else { continue }
      let rowID = option("content_rowid", in: sql) ?? "rowid"
      guard rowID.lowercased() == "rowid", try !hasRowIDAlias(content, in: db) else { continue }
      found.append(name)
    }
    return found
  }

  /// The quoted value of an FTS5 option (`content = 'note'`), or `nil`.
  private static func option(_ name: String, in sql: String) -> String? {
    let pattern = "\\b" + name + "\\s*=\\s*'((?:[^']|'')*)'"
    guard let regex = try? NSRegularExpression(pattern: pattern, options: [.caseInsensitive]),
      let match = regex.firstMatch(in: sql, range: NSRange(sql.startIndex..., in: sql)),
      let range = Range(match.range(at: 1), in: sql)
    else { return nil }
    return sql[range].replacingOccurrences(of: "''", with: "'")
  }

  /// Whether `table` has a column that is its rowid: one `INTEGER PRIMARY KEY` column of a
  /// rowid table.
  private static func hasRowIDAlias(_ table: String, in db: Connection) throws -> Bool {
    let columns = try db.query("SELECT type, pk FROM pragma_table_info(?)", [table])
      .map { (try $0.get(String.self, at: 0), try $0.get(Int.self, at: 1)) }
    let key = columns.filter { $0.1 > 0 }
    guard key.count == 1, key[0].0.uppercased() == "INTEGER" else { return false }
    let sql = try db.scalar(
      String.self, "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?", [table])
    return !(sql ?? "").uppercased().contains("WITHOUT ROWID")
  }
}
