import Foundation
import Synchronization

// The record SwiftLite keeps of each table it manages (`swiftlite_schema`): the definition
// it gave the table, its columns' Swift types (which SQLite's pragmas cannot report),
// whether it was adopted, and the table's CREATE statement as SwiftLite left it, so that a
// table another program dropped and made again, or altered, is not taken for SwiftLite's.
// Table names are matched as SQLite matches them, without regard to ASCII case.
extension AutoMigration {
  /// Creates the record table, or adds the columns later versions added to it.
  static func createRecordTable(in db: Connection) throws {
    let quoted = SQLIdentifier.quote(recordTable)
    try db.execute(
      "CREATE TABLE IF NOT EXISTS " + quoted
        + " (table_name TEXT NOT NULL PRIMARY KEY, definition TEXT NOT NULL, swift_types TEXT,"
        + " origin TEXT, table_sql TEXT)")
    let columns = try recordColumns(in: db)
    // origin: 'adopted' for a table another program made and the user adopted; NULL for
    // one SwiftLite created. table_sql: the table's CREATE statement after SwiftLite's
    // last change to it.
    for column in ["swift_types", "origin", "table_sql"] where !columns.contains(column) {
      try db.execute("ALTER TABLE " + quoted + " ADD COLUMN " + column + " TEXT")
    }
  }

  private static func recordColumns(in db: Connection) throws -> Set<String> {
    Set(
      try db.query("PRAGMA table_info(" + SQLIdentifier.quote(recordTable) + ")").map {
        try $0.get(String.self, "name")
      })
  }

  /// What SwiftLite recorded of a table.
  struct Record {
    /// The CREATE TABLE statement SwiftLite gave the table (in its own words).
    var definition: String
    /// The columns' Swift types (JSON), or `nil` when not recorded.
    var swiftTypes: String?
    /// Whether the table was adopted rather than created.
    var isAdopted: Bool
  }

  /// A row of the record table as it is stored, whether or not it still describes its
  /// table (see ``TableDescription/record``).
  struct RecordRow {
    /// The name the table was recorded under (SQLite's names ignore ASCII case).
    var tableName: String
    var definition: String
    var swiftTypes: String?
    /// `'adopted'` for an adopted table, else `nil`.
    var origin: String?
    /// The table's CREATE statement after SwiftLite's last change, when recorded.
    var tableSQL: String?

    /// Reads `table_name, definition, swift_types, origin, table_sql` from the row's
    /// columns 1 to 5 (column 0 is the part of the describing statement).
    init(_ row: Row) throws {
      tableName = try row.get(String.self, at: 1)
      definition = try row.get(String.self, at: 2)
      swiftTypes = try row.get(String?.self, at: 3)
      origin = try row.get(String?.self, at: 4)
      tableSQL = try row.get(String?.self, at: 5)
    }
  }

  /// The record of a table that SwiftLite manages, or `nil`: no record, or a record that no
  /// longer describes the table (another program dropped and made it again, or altered it,
  /// since SwiftLite's last change). Reads only.
  static func record(of table: String, in db: Connection) throws -> Record? {
    try SchemaCatalogue.describe(table, in: db).record
  }

  /// The step that records `definition` and the Swift types of `desired` as what SwiftLite
  /// gave the table. A record under another spelling of the name is updated, not doubled.
  static func recordStep(_ desired: TableSchema, definition: String) -> MigrationPlan.Step {
    let quoted = SQLIdentifier.quote(recordTable)
    return MigrationPlan.Step(
      "INSERT INTO " + quoted + " (table_name, definition, swift_types) VALUES (coalesce("
        + "(SELECT table_name FROM " + quoted + " WHERE table_name = ?1 COLLATE NOCASE), ?1),"
        + " ?2, ?3) ON CONFLICT (table_name) DO UPDATE SET definition = excluded.definition,"
        + " swift_types = excluded.swift_types",
      "record the definition SwiftLite gave the table",
      arguments: [
        .text(desired.name), .text(definition),
        swiftTypesText(desired).map(SQLiteValue.text) ?? .null,
      ])
  }

  /// Records the CREATE statements of `tables` as SwiftLite leaves them, once a plan ran.
  static func recordTableSQL(of tables: [String], in db: Connection) throws {
    try createRecordTable(in: db)  // a record table from before `table_sql` gets it
    for table in tables {
      let description = try SchemaCatalogue.describe(table, in: db)
      guard let record = description.recordRow else { continue }
      try db.run(
        "UPDATE " + SQLIdentifier.quote(recordTable) + " SET table_sql = ? WHERE table_name = ?",
        [description.isTable ? description.sql : nil, record.tableName])
    }
  }

  /// The tables whose record still describes them (see ``record(of:in:)``).
  static func managedTables(in db: Connection) throws -> [String] {
    guard try SchemaInspector(db).tableExists(recordTable) else { return [] }
    return try db.query("SELECT table_name FROM " + SQLIdentifier.quote(recordTable)).map {
      try $0.get(String.self, at: 0)
    }.filter { try record(of: $0, in: db) != nil }
  }

  /// Forgets what SwiftLite recorded of a table (it was dropped).
  static func forgetRecord(of table: String, in db: Connection) throws {
    guard try SchemaInspector(db).tableExists(recordTable) else { return }
    try db.run(
      "DELETE FROM " + SQLIdentifier.quote(recordTable) + " WHERE table_name = ? COLLATE NOCASE",
      [table])
  }

  /// The Swift types of a schema's columns, as recorded: a JSON object, keys sorted.
  /// Encoded once per set of columns (every table of a per-target model has the same).
  static func swiftTypesText(_ schema: TableSchema) -> String? {
    var types: [String: String] = [:]
    // The key holds the bytes of each name and type, each after its length: names that
    // differ only in their Unicode normalization are different names.
    var key: [UInt8] = []
    func append(_ text: String) {
      let count = text.utf8.count
      for shift in [0, 8, 16, 24] { key.append(UInt8(truncatingIfNeeded: count >> shift)) }
      key.append(contentsOf: text.utf8)
    }
    for column in schema.columns {
      guard let swiftType = column.swiftType else { continue }
      append(column.name)
      append(swiftType)
    }
    guard !key.isEmpty else { return nil }
    if let text = swiftTypesTexts.withLock({ $0[key] }) { return text }
    for column in schema.columns {
      if let swiftType = column.swiftType { types[column.name] = swiftType }
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let text = (try? encoder.encode(types)).map { String(decoding: $0, as: UTF8.self) }
    swiftTypesTexts.withLock { texts in
      if texts.count >= 256 { texts.removeAll() }
      texts[key] = text
    }
    return text
  }

  /// Texts of ``swiftTypesText(_:)`` by the bytes of the column names and types.
  private static let swiftTypesTexts = Mutex<[[UInt8]: String?]>([:])

  static func decodeSwiftTypes(_ text: String) -> [String: String]? {
    try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
  }
}
