/// Reads a table's schema from the database with SQLite's pragmas (`table_xinfo`,
/// `index_list`, `index_info`, `foreign_key_list`), all in one statement, never by parsing
/// the column definitions; only the table options `STRICT` and `WITHOUT ROWID` are read
/// from the end of the CREATE statement (`TableOptions`), which `PRAGMA table_list` would
/// find by walking every table. See <https://sqlite.org/pragma.html>.
///
/// Works on any `Connection`, so inside a ``DatabaseQueue`` closure too.
public struct SchemaInspector {
  /// The connection read from.
  let db: Connection

  /// An inspector over a connection.
  public init(_ db: Connection) { self.db = db }

  /// Whether a table (not a view) with this name exists in the main database. Like SQLite,
  /// it ignores ASCII case: a model `User` finds a table created as `user`.
  /// - Throws: `SQLiteError` if the query fails.
  public func tableExists(_ name: String) throws -> Bool {
    try db.scalar(
      Bool.self,
      "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE)",
      [name])
      ?? false
  }

  /// The names of the tables in the main database, SQLite's own excluded.
  /// - Throws: `SQLiteError` if the query fails.
  public func tableNames() throws -> [String] {
    try db.query(
      "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name"
    ).map { try $0.get(String.self, at: 0) }
  }

  /// The stored schema of a table, or `nil` when there is no such table.
  ///
  /// CHECK expressions and collations are not reported by SQLite's pragmas and come back
  /// `nil`; ``AutoMigration`` detects their changes through the definition it records.
  /// - Throws: `SQLiteError` if a pragma fails.
  public func schema(of table: String) throws -> TableSchema? {
    try schema(of: table, includingViews: false)
  }

  /// Whether a view with this name exists in the main database (ignoring ASCII case).
  /// - Throws: `SQLiteError` if the query fails.
  public func viewExists(_ name: String) throws -> Bool {
    try db.scalar(
      Bool.self,
      "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'view' AND name = ? COLLATE NOCASE)",
      [name])
      ?? false
  }

  /// The schema of a table, or of a view when `includingViews` (its columns only).
  func schema(of table: String, includingViews: Bool) throws -> TableSchema? {
    let description = try SchemaCatalogue.describe(table, in: db)
    return includingViews ? description.schema : description.tableSchema
  }

  /// The tables whose foreign keys reference `table`, its name compared as SQLite compares
  /// names: ASCII letters in any case, every other character by its bytes ("Zoë" and "ZOË"
  /// are two tables).
  /// - Throws: `SQLiteError` if a pragma fails.
  public func tablesReferencing(_ table: String) throws -> [String] {
    let folded = table.asciiCaseFolded
    return try tableNames().filter { name in
      try db.query("PRAGMA foreign_key_list(" + SQLIdentifier.quote(name) + ")").contains {
        try $0.get(String.self, "table").asciiCaseFolded == folded
      }
    }
  }
}

extension SchemaInspector {
  /// The column sets that identify a row of the table: its primary key (or `rowid` when it
  /// has none) and each unique index that is not partial. An upsert's `ON CONFLICT`
  /// target must be one of them.
  /// - Throws: `SQLiteError` if a pragma fails.
  public func uniqueKeys(of table: String) throws -> [[String]] {
    try SchemaCatalogue.describe(table, in: db).uniqueKeys
  }
}
