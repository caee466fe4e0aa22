import SwiftLite

/// Every row of every table of a database as text, for a test to compare two files or to
/// print one: per table, each row as the SQL literals of its columns (`quote()`), so that
/// text, numbers and blobs show exactly as stored (`'2016-07-05'`, `1.5`, `X'00FF'`, `NULL`).
///
/// Rows come in primary-key order (rowid order for a table without a declared key), read by
/// `Connection.dumpedTables(includingBookkeeping:)`: ``description`` is the text of
/// `Connection.dumpContent(includingBookkeeping:)`. Tables of
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
    tables = try db.dumpedTables(includingBookkeeping: includingBookkeeping)
  }

  /// The content of the main database of `database`, read in one snapshot.
  /// - Parameter includingBookkeeping: include SwiftLite's own tables.
  /// - Throws: `SQLiteError` when reading fails.
  public init(_ database: some DatabaseAccess, includingBookkeeping: Bool = false) throws {
    tables = try database.read { db in
      try db.dumpedTables(includingBookkeeping: includingBookkeeping)
    }
  }

  /// Content of these rows by table, for an expected value written in a test.
  public init(tables: [String: [String]]) { self.tables = tables }

  /// Per table (sorted by name), a heading and its rows: the text of
  /// `Connection.dumpContent(includingBookkeeping:)`.
  public var description: String {
    tables.keys.sorted().map { name in
      (["table \(name): \(tables[name]?.count ?? 0) row(s)"]
        + (tables[name] ?? []).map { "  " + $0 })
        .joined(separator: "\n")
    }.joined(separator: "\n")
  }
}
