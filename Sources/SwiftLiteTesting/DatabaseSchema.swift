import SwiftLite

/// The schema of a database as two installs of an app must share it, read from a
/// connection; two are equal when they have the same schema by this definition:
///
/// - **Tables**, by name (ignoring ASCII case): each column in order, with its name,
///   declared type, nullability, DEFAULT (normalized SQL), position in the primary key,
///   collation, and whether it is generated or hidden; `AUTOINCREMENT`, `STRICT` and
///   `WITHOUT ROWID`; the CHECK constraints of its CREATE statement (normalized SQL, each
///   with its column); its foreign keys (columns, parent table and columns, with a parent's
///   implied columns resolved to its primary key, actions, MATCH); the expressions of its
///   generated columns (normalized SQL). A CHECK-only or a
///   COLLATE-only difference is a difference. A virtual table is compared by its columns and
///   its normalized `CREATE VIRTUAL TABLE` statement.
/// - **Indexes**, by their table and what they index, not by their name: the columns in
///   order (with DESC and a collation other than BINARY), whether unique, whether they come
///   from a UNIQUE or PRIMARY KEY constraint, and a partial index's WHERE (normalized).
/// - **Views and triggers**, by name and normalized SQL.
///
/// Normalized SQL ignores spacing, comments, the letter case of keywords and identifiers
/// and the quotes around identifiers; string literals count exactly. Tables of SQLite
/// (`sqlite_*`) and SwiftLite's bookkeeping tables (`swiftlite_migrations`,
/// `swiftlite_schema`) are left out: their content says how a file got where it is, not
/// where it is. Any other table is compared, a half-built `swiftlite_new_*` copy included.
///
/// ``description`` is the schema as text, one line per fact, the same lines that
/// ``differences(from:ignoringColumnOrder:)`` compares.
///
/// `Sendable` and `Hashable`: a value.
public struct DatabaseSchema: Sendable, Hashable, CustomStringConvertible {
  /// One table, described by lines, one per fact.
  public struct Table: Sendable, Hashable {
    /// The table's name, as its CREATE statement spells it.
    public let name: String
    /// Its columns, in order, one line each: `name TYPE NOT NULL DEFAULT ... COLLATE ...`.
    public let columns: [String]
    /// Every other fact about it, sorted: options, CHECKs, indexes, foreign keys.
    public let facts: [String]
  }

  /// The tables, sorted by name.
  public let tables: [Table]
  /// The views: name (lower-cased) -> normalized CREATE VIEW.
  public let views: [String: String]
  /// The triggers: name (lower-cased) -> normalized CREATE TRIGGER.
  public let triggers: [String: String]

  /// A schema of these parts.
  init(tables: [Table], views: [String: String], triggers: [String: String]) {
    self.tables = tables
    self.views = views
    self.triggers = triggers
  }

  /// The schema of the main database of `db`.
  /// - Throws: `SQLiteError` when reading the schema fails.
  public init(_ db: Connection) throws {
    var tables: [Table] = []
    var views: [String: String] = [:]
    var triggers: [String: String] = [:]
    let objects = try db.query(
      "SELECT type, name, sql FROM sqlite_schema WHERE sql IS NOT NULL"
        + " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
        + " AND tbl_name COLLATE NOCASE NOT IN (?, ?) ORDER BY name",
      [Migrator.recordTable, AutoMigration.recordTable]
    ).map {
      (
        try $0.get(String.self, at: 0), try $0.get(String.self, at: 1),
        try $0.get(String.self, at: 2)
      )
    }
    for (type, name, sql) in objects {
      switch type {
      case "table": tables.append(try Self.table(name, sql: sql, in: db))
      case "view": views[name.lowercased()] = SQLText.normalized(sql)
      case "trigger": triggers[name.lowercased()] = SQLText.normalized(sql)
      default: break  // indexes belong to their table
      }
    }
    self.tables = tables.sorted { $0.name.lowercased() < $1.name.lowercased() }
    self.views = views
    self.triggers = triggers
  }

  /// The table named `name` (ignoring ASCII case), if any.
  public func table(named name: String) -> Table? {
    tables.first { $0.name.lowercased() == name.lowercased() }
  }

  /// The schema as text: per object, a heading line and its facts.
  public var description: String {
    lines(ignoringColumnOrder: false).map { object, lines in
      ([object] + lines.map { "  " + $0 }).joined(separator: "\n")
    }.joined(separator: "\n")
  }

  /// What differs from `expected`, per object (`table Note`, `view v`, `trigger t`),
  /// empty when the schemas are equal.
  /// - Parameter ignoringColumnOrder: compare the columns of each table as a set (for a
  ///   table altered in place, whose added columns come last).
  public func differences(from expected: DatabaseSchema, ignoringColumnOrder: Bool = false)
    -> [SchemaDifference]
  {
    let mine = Dictionary(
      lines(ignoringColumnOrder: ignoringColumnOrder), uniquingKeysWith: { a, _ in a })
    let theirs = Dictionary(
      expected.lines(ignoringColumnOrder: ignoringColumnOrder), uniquingKeysWith: { a, _ in a })
    var differences: [SchemaDifference] = []
    for object in Set(mine.keys).union(theirs.keys).sorted() {
      switch (theirs[object], mine[object]) {
      case (let wanted?, let found?):
        let missing = wanted.filter { !found.contains($0) }
        let extra = found.filter { !wanted.contains($0) }
        if !missing.isEmpty || !extra.isEmpty {
          differences.append(SchemaDifference(object: object, expected: missing, actual: extra))
        }
      case (let wanted?, nil):
        differences.append(
          SchemaDifference(object: object, expected: wanted, actual: [], isMissing: true))
      case (nil, let found?):
        differences.append(
          SchemaDifference(object: object, expected: [], actual: found, isUnexpected: true))
      case (nil, nil): break
      }
    }
    return differences
  }

  /// Each object's heading and lines.
  private func lines(ignoringColumnOrder: Bool) -> [(String, [String])] {
    tables.map { table in
      let columns =
        ignoringColumnOrder
        ? table.columns.map { "column " + $0 }.sorted()
        : table.columns.enumerated().map { "column \($0 + 1): " + $1 }
      return ("table " + table.name.lowercased(), columns + table.facts)
    }
      + views.keys.sorted().map { ("view " + $0, [views[$0] ?? ""]) }
      + triggers.keys.sorted().map { ("trigger " + $0, [triggers[$0] ?? ""]) }
  }

  // MARK: Reading a table

  private static func table(_ name: String, sql: String, in db: Connection) throws -> Table {
    let quoted = quote(name)
    let isVirtual = SQLText.tokens(sql).prefix(2).map(\.text) == ["create", "virtual"]
    var columns: [String] = []
    var facts: [String] = []
    for row in try db.query("PRAGMA table_xinfo(" + quoted + ")") {
      let column = try row.get(String.self, "name")
      var line = column
      let type = try row.get(String.self, "type")
      if !type.isEmpty { line += " " + type.uppercased() }
      if try row.get(Bool.self, "notnull") { line += " NOT NULL" }
      if let value = try row.get(String?.self, "dflt_value") {
        line += " DEFAULT " + SQLText.normalized(value)
      }
      let key = try row.get(Int.self, "pk")
      if key > 0 { line += " PRIMARY KEY \(key)" }
      switch try row.get(Int.self, "hidden") {
      case 1: line += " HIDDEN"
      case 2: line += " GENERATED VIRTUAL"
      case 3: line += " GENERATED STORED"
      default: break
      }
      if !isVirtual {
        let metadata = try db.columnMetadata(table: name, column: column)
        if metadata.collation.uppercased() != "BINARY" {
          line += " COLLATE " + metadata.collation.uppercased()
        }
        if metadata.isAutoIncrement { line += " AUTOINCREMENT" }
      }
      columns.append(line)
    }
    if isVirtual { facts.append("virtual: " + SQLText.normalized(sql)) }
    if let options = try db.queryFirst(
      "SELECT strict, wr FROM pragma_table_list WHERE schema = 'main' AND name = ?", [name])
    {
      if try options.get(Bool.self, at: 0) { facts.append("STRICT") }
      if try options.get(Bool.self, at: 1) { facts.append("WITHOUT ROWID") }
    }
    facts += SQLText.checks(inCreateTable: sql)
    facts += SQLText.generatedColumns(inCreateTable: sql)
    facts += try indexes(of: name, in: db)
    facts += try foreignKeys(of: name, in: db)
    return Table(name: name, columns: columns, facts: facts.sorted())
  }

  private static func indexes(of table: String, in db: Connection) throws -> [String] {
    var lines: [String] = []
    for row in try db.query("PRAGMA index_list(" + quote(table) + ")") {
      let name = try row.get(String.self, "name")
      var keyColumns: [(Int, String)] = []
      for column in try db.query("PRAGMA index_xinfo(" + quote(name) + ")") {
        guard try column.get(Bool.self, "key") else { continue }
        var text = try column.get(String?.self, "name")?.lowercased() ?? "<expression>"
        if try column.get(Bool.self, "desc") { text += " DESC" }
        if let collation = try column.get(String?.self, "coll"),
          collation.uppercased() != "BINARY"
        {
          text += " COLLATE " + collation.uppercased()
        }
        keyColumns.append((try column.get(Int.self, "seqno"), text))
      }
      var line =
        switch try row.get(String.self, "origin") {
        case "u": "unique constraint"
        case "pk": "primary key constraint"
        default: try row.get(Bool.self, "unique") ? "unique index" : "index"
        }
      line += " (" + keyColumns.sorted { $0.0 < $1.0 }.map(\.1).joined(separator: ", ") + ")"
      if try row.get(Bool.self, "partial"),
        let sql = try db.scalar(String.self, "SELECT sql FROM sqlite_schema WHERE name = ?", [name])
      {
        let tokens = SQLText.tokens(sql)
        if let position = tokens.lastIndex(where: { $0.kind == .word && $0.text == "where" }) {
          line += " " + SQLText.render(Array(tokens[position...]))
        }
      }
      lines.append(line)
    }
    return lines
  }

  private static func foreignKeys(of table: String, in db: Connection) throws -> [String] {
    var keys: [Int: (parent: String, from: [String], to: [String?], actions: String)] = [:]
    for row in try db.query("PRAGMA foreign_key_list(" + quote(table) + ")") {
      let id = try row.get(Int.self, "id")
      let onUpdate = try row.get(String.self, "on_update")
      let onDelete = try row.get(String.self, "on_delete")
      let match = try row.get(String.self, "match")
      let actions = "ON UPDATE " + onUpdate + " ON DELETE " + onDelete + " MATCH " + match
      let parent = try row.get(String.self, "table")
      var entry = keys[id] ?? (parent, [], [], actions)
      entry.from.append(try row.get(String.self, "from"))
      entry.to.append(try row.get(String?.self, "to"))
      keys[id] = entry
    }
    return try keys.values.map { key in
      var parentColumns = key.to.compactMap { $0 }
      if parentColumns.count != key.to.count {
        // Implied parent columns are the parent's primary key.
        parentColumns = try db.query("PRAGMA table_info(" + quote(key.parent) + ")")
          .filter { try $0.get(Int.self, "pk") > 0 }
          .sorted { try $0.get(Int.self, "pk") < $1.get(Int.self, "pk") }
          .map { try $0.get(String.self, "name") }
      }
      return "foreign key (" + key.from.map { $0.lowercased() }.joined(separator: ", ")
        + ") REFERENCES " + key.parent.lowercased() + " ("
        + parentColumns.map { $0.lowercased() }.joined(separator: ", ") + ") " + key.actions
    }
  }

  /// Whether `table` is one of SwiftLite's bookkeeping tables.
  static func isBookkeeping(_ table: String) -> Bool {
    [Migrator.recordTable, AutoMigration.recordTable].contains(table.lowercased())
  }

  private static func quote(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
