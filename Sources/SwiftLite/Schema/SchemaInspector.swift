/// Reads a table's schema from the database with SQLite's pragmas (`table_xinfo`,
/// `index_list`, `index_info`, `foreign_key_list`, `table_list`), never by parsing the
/// CREATE statement. See <https://sqlite.org/pragma.html>.
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
    guard try tableExists(table) || (includingViews && viewExists(table)) else { return nil }
    let quoted = SQLIdentifier.quote(table)
    var columns: [ColumnDefinition] = []
    var keyed: [(position: Int, name: String)] = []
    for row in try db.query("PRAGMA table_xinfo(" + quoted + ")") {
      guard try row.get(Int.self, "hidden") == 0 else { continue }
      let name = try row.get(String.self, "name")
      columns.append(
        ColumnDefinition(
          name: name, type: try row.get(String.self, "type").uppercased(),
          isNotNull: try row.get(Bool.self, "notnull"),
          defaultSQL: try row.get(String?.self, "dflt_value")))
      let position = try row.get(Int.self, "pk")
      if position > 0 { keyed.append((position, name)) }
    }
    var indexes: [TableSchema.IndexDefinition] = []
    for row in try db.query("PRAGMA index_list(" + quoted + ")") {
      let name = try row.get(String.self, "name")
      let origin = try row.get(String.self, "origin")
      let unique = try row.get(Bool.self, "unique")
      let indexed = try db.query("PRAGMA index_info(" + SQLIdentifier.quote(name) + ")")
        .sorted { try $0.get(Int.self, "seqno") < $1.get(Int.self, "seqno") }
        .map { try $0.get(String?.self, "name") ?? "" }
      switch origin {
      case "c": indexes.append(.init(name: name, columns: indexed, isUnique: unique))
      case "u" where indexed.count == 1:
        if let index = columns.firstIndex(where: { $0.name == indexed[0] }) {
          columns[index].isUnique = true
        }
      default: break
      }
    }
    var keys:
      [Int: (columns: [String], parents: [String], table: String, delete: String, update: String)] =
        [:]
    for row in try db.query("PRAGMA foreign_key_list(" + quoted + ")") {
      let id = try row.get(Int.self, "id")
      let parentTable = try row.get(String.self, "table")
      let onDelete = try row.get(String.self, "on_delete")
      let onUpdate = try row.get(String.self, "on_update")
      var entry = keys[id] ?? ([], [], parentTable, onDelete, onUpdate)
      entry.columns.append(try row.get(String.self, "from"))
      if let parent = try row.get(String?.self, "to") { entry.parents.append(parent) }
      keys[id] = entry
    }
    let foreignKeys = keys.keys.sorted().compactMap { id -> ForeignKey? in
      guard let entry = keys[id] else { return nil }
      return ForeignKey(
        entry.columns, references: entry.table, entry.parents,
        onDelete: ForeignKey.Action(rawValue: entry.delete) ?? .noAction,
        onUpdate: ForeignKey.Action(rawValue: entry.update) ?? .noAction)
    }
    let strict =
      try db.queryFirst("PRAGMA table_list(" + quoted + ")").map { try $0.get(Bool.self, "strict") }
      ?? false
    return TableSchema(
      name: table, columns: columns,
      primaryKey: keyed.sorted { $0.position < $1.position }.map(\.name),
      autoIncrement: false, indexes: indexes.sorted { $0.name < $1.name },
      foreignKeys: foreignKeys, isStrict: strict)
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
    let quoted = SQLIdentifier.quote(table)
    var keys: [[String]] = []
    let primaryKey = try db.query("PRAGMA table_info(" + quoted + ")")
      .filter { try $0.get(Int.self, "pk") > 0 }
      .sorted { try $0.get(Int.self, "pk") < $1.get(Int.self, "pk") }
      .map { try $0.get(String.self, "name") }
    keys.append(primaryKey.isEmpty ? ["rowid"] : primaryKey)
    for index in try db.query("PRAGMA index_list(" + quoted + ")") {
      guard try index.get(Bool.self, "unique"), try !index.get(Bool.self, "partial") else {
        continue
      }
      let name = try index.get(String.self, "name")
      let columns = try db.query("PRAGMA index_info(" + SQLIdentifier.quote(name) + ")")
        .sorted { try $0.get(Int.self, "seqno") < $1.get(Int.self, "seqno") }
        .map { try $0.get(String?.self, "name") }
      // An index on an expression has no name for that part: it cannot be a conflict target.
      if columns.allSatisfy({ $0 != nil }) { keys.append(columns.compactMap { $0 }) }
    }
    return keys
  }
}
