// The schema and the content of a database as stable text, for test assertions and for
// printing while debugging. SwiftLiteTesting's `DatabaseContent` reads through
// `dumpedTables(includingBookkeeping:)`, so both always agree.
extension Connection {
  /// Every row of every table of the main database, per table: its rows as the SQL
  /// literals SQLite's `quote()` writes, joined by `|` (`1|'Ann'|X'00FF'|NULL|1.5`), in
  /// primary-key order (rowid order for a table without a declared primary key), tables
  /// by name.
  ///
  /// ```text
  /// table folder: 2 row(s)
  ///   1|'Inbox'|NULL
  ///   2|'Work'|1
  /// ```
  ///
  /// Tables of SQLite (`sqlite_*`), virtual tables and their shadow tables (a full-text
  /// index's content is its table's) are left out, and so are SwiftLite's bookkeeping
  /// tables (`swiftlite_migrations`, `swiftlite_schema`) unless asked for: they record
  /// when migrations ran. The text is the same for the same content, whatever the order of
  /// the writes that made it: meant to be compared in tests.
  /// - Parameter includingBookkeeping: include SwiftLite's own tables.
  /// - Throws: `SQLiteError` when reading fails.
  public func dumpContent(includingBookkeeping: Bool = false) throws -> String {
    let tables = try dumpedTables(includingBookkeeping: includingBookkeeping)
    return tables.keys.sorted().map { name in
      (["table \(name): \(tables[name]?.count ?? 0) row(s)"]
        + (tables[name] ?? []).map { "  " + $0 })
        .joined(separator: "\n")
    }.joined(separator: "\n")
  }

  /// The rows that ``dumpContent(includingBookkeeping:)`` writes, by table name (as the
  /// table spells it), each row `literal|literal|...` in primary-key order.
  /// - Parameter includingBookkeeping: include SwiftLite's own tables.
  /// - Throws: `SQLiteError` when reading fails.
  public func dumpedTables(includingBookkeeping: Bool = false) throws -> [String: [String]] {
    var tables: [String: [String]] = [:]
    let names = try query(
      "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table'"
        + " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    ).map { (try $0.get(String.self, at: 0), try $0.get(Bool.self, at: 1)) }
    for (name, withoutRowID) in names
    where includingBookkeeping || !Self.isBookkeepingTable(name) {
      let quoted = SQLIdentifier.quote(name)
      var columns: [String] = []
      var key: [(Int, String)] = []
      for row in try query("PRAGMA table_xinfo(" + quoted + ")") {
        guard try row.get(Int.self, "hidden") != 1 else { continue }
        let column = try row.get(String.self, "name")
        columns.append(column)
        let position = try row.get(Int.self, "pk")
        if position > 0 { key.append((position, column)) }
      }
      // The primary key's order; a rowid table's rowid breaks ties (its key may hold NULLs)
      // and orders a table that declares no key.
      var order = key.sorted { $0.0 < $1.0 }.map { SQLIdentifier.quote($0.1) }
      if !withoutRowID { order.append("rowid") }
      let sql =
        "SELECT "
        + columns.map { "quote(" + SQLIdentifier.quote($0) + ")" }.joined(separator: " || '|' || ")
        + " FROM " + quoted + " ORDER BY " + order.joined(separator: ", ")
      tables[name] = try query(sql).map { try $0.get(String?.self, at: 0) ?? "" }
    }
    return tables
  }

  /// The schema of the main database as its CREATE statements, as SQLite keeps them, each
  /// ending with `;` on its own line: tables by name, each followed by its indexes and
  /// triggers (by name), then views by name, each followed by its triggers. SQLite's own
  /// objects, the shadow tables of virtual tables and SwiftLite's bookkeeping tables are
  /// left out unless asked for; automatic indexes (of UNIQUE and PRIMARY KEY constraints)
  /// have no statement and show in their table's.
  ///
  /// The statements are the text they were created with, so two databases made by the same
  /// code dump the same; to compare schemas made by different statements (spacing, quotes,
  /// a table altered in place), SwiftLiteTesting's `DatabaseSchema` compares facts instead.
  /// - Parameter includingBookkeeping: include SwiftLite's own tables.
  /// - Throws: `SQLiteError` when reading fails.
  public func dumpSchema(includingBookkeeping: Bool = false) throws -> String {
    let objects = try query(
      "SELECT type, name, tbl_name, sql FROM sqlite_schema AS object WHERE sql IS NOT NULL"
        + " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        // Views (and their triggers) after tables; each object after its table or view.
        + " ORDER BY (SELECT owner.type = 'view' FROM sqlite_schema AS owner"
        + " WHERE owner.name = object.tbl_name), tbl_name,"
        + " CASE type WHEN 'table' THEN 0 WHEN 'view' THEN 0 WHEN 'index' THEN 1 ELSE 2 END, name"
    ).map {
      (
        type: try $0.get(String.self, at: 0), table: try $0.get(String.self, at: 2),
        sql: try $0.get(String.self, at: 3)
      )
    }
    // A virtual table's shadow tables are made by its module, not by the schema.
    let shadows = Set(
      try query("SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'shadow'")
        .map { try $0.get(String.self, at: 0) })
    return
      objects
      .filter { includingBookkeeping || !Self.isBookkeepingTable($0.table) }
      .filter { !shadows.contains($0.table) }
      .map { $0.sql + ";" }.joined(separator: "\n")
  }

  /// Whether `table` is one of SwiftLite's bookkeeping tables.
  static func isBookkeepingTable(_ table: String) -> Bool {
    [Migrator.recordTable, AutoMigration.recordTable].contains(table.lowercased())
  }
}
