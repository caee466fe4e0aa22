import SwiftLite

/// Every row of every table of a database as text, for a test to compare two files or to
/// print one: per table, each row as the SQL literals of its columns (`quote()`), so that
/// text, numbers and blobs show exactly as stored (`'2016-07-05'`, `1.5`, `X'00FF'`, `NULL`).
///
/// Rows come in rowid order (primary key order for a `WITHOUT ROWID` table). Tables of
/// SQLite (`sqlite_*`) are left out, and SwiftLite's bookkeeping tables
/// (`swiftlite_migrations`, `swiftlite_schema`) unless asked for: they record when
/// migrations ran.
///
/// `Sendable` and `Hashable`: a value.
public struct DatabaseContent: Sendable, Hashable, CustomStringConvertible {
  /// Rows by table name (as the table spells it), each `literal|literal|...`.
  public let tables: [String: [String]]

  /// The content of the main database of `db`.
  /// - Parameter includingBookkeeping: include SwiftLite's own tables.
  /// - Throws: `SQLiteError` when reading fails.
  public init(_ db: Connection, includingBookkeeping: Bool = false) throws {
    var tables: [String: [String]] = [:]
    let names = try db.query(
      "SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table'"
        + " AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'"
    ).map { (try $0.get(String.self, at: 0), try $0.get(Bool.self, at: 1)) }
    for (name, withoutRowID) in names
    where includingBookkeeping || !DatabaseSchema.isBookkeeping(name) {
      let quoted = Self.quote(name)
      var columns: [String] = []
      var key: [(Int, String)] = []
      for row in try db.query("PRAGMA table_xinfo(" + quoted + ")") {
        guard try row.get(Int.self, "hidden") != 1 else { continue }
        let column = try row.get(String.self, "name")
        columns.append(column)
        let position = try row.get(Int.self, "pk")
        if position > 0 { key.append((position, column)) }
      }
      let order =
        withoutRowID
        ? key.sorted { $0.0 < $1.0 }.map { Self.quote($0.1) }.joined(separator: ", ") : "rowid"
      let sql =
        "SELECT " + columns.map { "quote(" + Self.quote($0) + ")" }.joined(separator: " || '|' || ")
        + " FROM " + quoted + " ORDER BY " + order
      tables[name] = try db.query(sql).map { try $0.get(String?.self, at: 0) ?? "" }
    }
    self.tables = tables
  }

  /// Per table (sorted by name), a heading and its rows.
  public var description: String {
    tables.keys.sorted().map { name in
      (["table \(name): \(tables[name]?.count ?? 0) row(s)"]
        + (tables[name] ?? []).map { "  " + $0 })
        .joined(separator: "\n")
    }.joined(separator: "\n")
  }

  private static func quote(_ name: String) -> String {
    "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }
}
