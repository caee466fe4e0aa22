import Foundation

// The record SwiftLite keeps of each model table (`swiftlite_schema`): the definition it
// gave the table and its columns' Swift types, which SQLite's pragmas cannot report.
extension AutoMigration {
  /// Creates the record table, or adds the `swift_types` column to one made before it.
  static func createRecordTable(in db: Connection) throws {
    let quoted = SQLIdentifier.quote(recordTable)
    try db.execute(
      "CREATE TABLE IF NOT EXISTS " + quoted
        + " (table_name TEXT NOT NULL PRIMARY KEY, definition TEXT NOT NULL, swift_types TEXT,"
        + " origin TEXT)")
    let columns = try db.query("PRAGMA table_info(" + quoted + ")").map {
      try $0.get(String.self, "name")
    }
    if !columns.contains("swift_types") {
      try db.execute("ALTER TABLE " + quoted + " ADD COLUMN swift_types TEXT")
    }
    // 'adopted' for a table another program made and the user adopted; NULL for one
    // SwiftLite created.
    if !columns.contains("origin") {
      try db.execute("ALTER TABLE " + quoted + " ADD COLUMN origin TEXT")
    }
  }

  /// The step that records `definition` and the Swift types of `desired` as what SwiftLite
  /// gave the table.
  static func recordStep(_ desired: TableSchema, definition: String) -> MigrationPlan.Step {
    MigrationPlan.Step(
      "INSERT INTO " + SQLIdentifier.quote(recordTable)
        + " (table_name, definition, swift_types) VALUES (?, ?, ?)"
        + " ON CONFLICT (table_name) DO UPDATE SET definition = excluded.definition,"
        + " swift_types = excluded.swift_types",
      "record the definition SwiftLite gave the table",
      arguments: [
        .text(desired.name), .text(definition),
        swiftTypesText(desired).map(SQLiteValue.text) ?? .null,
      ])
  }

  /// The Swift types of a schema's columns, as recorded: a JSON object, keys sorted.
  static func swiftTypesText(_ schema: TableSchema) -> String? {
    var types: [String: String] = [:]
    for column in schema.columns {
      if let swiftType = column.swiftType { types[column.name] = swiftType }
    }
    guard !types.isEmpty else { return nil }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? encoder.encode(types)).map { String(decoding: $0, as: UTF8.self) }
  }

  static func decodeSwiftTypes(_ text: String) -> [String: String]? {
    try? JSONDecoder().decode([String: String].self, from: Data(text.utf8))
  }

  /// The Swift types recorded for a table's columns, or `nil` (no record, or one made
  /// before SwiftLite recorded types).
  static func recordedSwiftTypes(of table: String, in db: Connection) throws -> String? {
    guard try SchemaInspector(db).tableExists(recordTable) else { return nil }
    let quoted = SQLIdentifier.quote(recordTable)
    let hasColumn = try db.query("PRAGMA table_info(" + quoted + ")").contains {
      try $0.get(String.self, "name") == "swift_types"
    }
    guard hasColumn else { return nil }
    return try db.scalar(
      String.self, "SELECT swift_types FROM " + quoted + " WHERE table_name = ?", [table])
  }

  /// The definition SwiftLite recorded for a table, or `nil`.
  static func recordedDefinition(of table: String, in db: Connection) throws -> String? {
    guard try SchemaInspector(db).tableExists(recordTable) else { return nil }
    return try db.scalar(
      String.self,
      "SELECT definition FROM " + SQLIdentifier.quote(recordTable) + " WHERE table_name = ?",
      [table])
  }
}

extension String {
  /// The name with ASCII letters lower-cased, as SQLite compares identifiers (other
  /// letters are compared exactly: `É` and `é` are different names to SQLite).
  var asciiCaseFolded: String {
    String(
      decoding: utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
  }
}
