internal import CSQLite
import Foundation

/// What a session needs to know of a table: read with raw C calls, so it can run inside
/// SQLite's pre-update hook (where the table filter is called) as well as outside.
struct SessionTableInfo {
  /// The name as the schema spells it.
  let name: String
  let columns: [String]
  /// Which columns are the primary key, in column order.
  let primaryKey: [Bool]
  /// The key columns, in key order.
  let keyColumns: [String]
  /// Whether a key column can hold NULL: a rowid table whose key is not the rowid and
  /// has a column without NOT NULL (a quirk SQLite keeps for compatibility).
  let keyCanBeNull: Bool

  /// `"k1" IS NULL OR "k2" IS NULL`, each column after `prefix` (`NEW.`, `OLD.`).
  func nullKeyCondition(prefix: String) -> String {
    "(" + keyColumns.map { prefix + SQLIdentifier.quote($0) + " IS NULL" }.joined(separator: " OR ")
      + ")"
  }

  /// The table's description, or why a session cannot record it.
  static func read(_ table: String, _ db: OpaquePointer) -> Result<SessionTableInfo, ChangesetError>
  {
    let lowered = table.asciiCaseFolded.string
    if lowered.hasPrefix("sqlite_") || lowered.hasPrefix("swiftlite_") {
      return .failure(.tableNotRecordable(table: table, reason: .internalTable))
    }
    let list = rows(
      db, "SELECT name, type, wr FROM pragma_table_list WHERE schema = 'main' AND name = ?1",
      [table])
    guard let entry = list.first, case .text(let name) = entry[0], case .text(let type) = entry[1]
    else { return .failure(.tableNotRecordable(table: table, reason: .noSuchTable)) }
    switch type {
    case "view": return .failure(.tableNotRecordable(table: name, reason: .view))
    case "virtual": return .failure(.tableNotRecordable(table: name, reason: .virtualTable))
    case "shadow": return .failure(.tableNotRecordable(table: name, reason: .shadowTable))
    default: break
    }
    let withoutRowID = entry[2] == .integer(1)
    let info = rows(
      db, "SELECT name, type, \"notnull\", pk FROM pragma_table_info(?1, 'main') ORDER BY cid",
      [name])
    var columns: [String] = []
    var key: [(position: Int64, name: String, type: String, notNull: Bool)] = []
    var primaryKey: [Bool] = []
    for column in info {
      guard case .text(let columnName) = column[0] else { continue }
      columns.append(columnName)
      let position: Int64 = if case .integer(let value) = column[3] { value } else { 0 }
      primaryKey.append(position > 0)
      if position > 0 {
        let type: String = if case .text(let value) = column[1] { value } else { "" }
        key.append((position, columnName, type, column[2] == .integer(1)))
      }
    }
    guard !key.isEmpty else {
      return .failure(.tableNotRecordable(table: name, reason: .noPrimaryKey))
    }
    key.sort { $0.position < $1.position }
    let isRowID = key.count == 1 && key[0].type.uppercased() == "INTEGER"
    let nullable = !withoutRowID && !isRowID && key.contains { !$0.notNull }
    return .success(
      SessionTableInfo(
        name: name, columns: columns, primaryKey: primaryKey, keyColumns: key.map(\.name),
        keyCanBeNull: nullable))
  }

  /// The ordinary tables of the main database that a session may record: SwiftLite's and
  /// SQLite's own, views, virtual and shadow tables left out.
  static func ordinaryTables(_ db: OpaquePointer) throws -> [String] {
    rows(
      db,
      "SELECT name FROM pragma_table_list WHERE schema = 'main' AND type = 'table' "
        + "AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE 'swiftlite\\_%' ESCAPE '\\' "
        + "ORDER BY name", []
    ).compactMap { if case .text(let name) = $0[0] { name } else { nil } }
  }

  /// The rows of a small read, by raw C calls (an empty list when it fails).
  static func rows(_ db: OpaquePointer, _ sql: String, _ texts: [String]) -> [[SQLiteValue]] {
    var statement: OpaquePointer?
    guard sqlite3_prepare_v2(db, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
      return []
    }
    defer { sqlite3_finalize(statement) }
    for (index, text) in texts.enumerated() {
      sqlite3_bind_text(statement, Int32(index + 1), text, -1, sqliteTransient)
    }
    var result: [[SQLiteValue]] = []
    while sqlite3_step(statement) == SQLITE_ROW {
      result.append(
        (0..<sqlite3_column_count(statement)).map { column in
          sqlite3_column_value(statement, column).flatMap(Changeset.sqliteValue) ?? .null
        })
    }
    return result
  }
}
