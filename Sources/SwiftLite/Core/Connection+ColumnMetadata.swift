internal import CSQLite

// What SQLite knows of a table's column that no pragma reports: its collation, and whether
// its key is AUTOINCREMENT.
extension Connection {
  /// One column of a table as SQLite's parsed schema holds it.
  ///
  /// `Sendable` and `Hashable`: a value copied out of SQLite.
  public struct ColumnMetadata: Sendable, Hashable {
    /// The declared type, as written (`nil` when none was declared).
    public let declaredType: String?
    /// The collating sequence's name (`BINARY` when none was declared).
    public let collation: String
    /// Whether the column is `NOT NULL`.
    public let isNotNull: Bool
    /// Whether the column is part of the primary key.
    public let isPrimaryKey: Bool
    /// Whether the column is an `AUTOINCREMENT` key.
    public let isAutoIncrement: Bool
  }

  /// The declared type, collation, nullability and key of a column of a table (or view) of
  /// the main database, as SQLite parsed them from its CREATE statement.
  ///
  /// Wraps <https://sqlite.org/c3ref/table_column_metadata.html>: "returns information
  /// about column C of table T in database D". `sqlite3` libraries built without
  /// `SQLITE_ENABLE_COLUMN_METADATA` lack it (Debian's, Homebrew's and Apple's have it).
  /// - Parameters:
  ///   - table: the table's name.
  ///   - column: the column's name.
  /// - Returns: what SQLite knows of the column.
  /// - Throws: `SQLiteError` when there is no such table or column, or the connection is
  ///   closed.
  public func columnMetadata(table: String, column: String) throws -> ColumnMetadata {
    try ensureOpen(nil)
    var type: UnsafePointer<CChar>?
    var collation: UnsafePointer<CChar>?
    var notNull: Int32 = 0
    var primaryKey: Int32 = 0
    var autoIncrement: Int32 = 0
    let code = sqlite3_table_column_metadata(
      handle, "main", table, column, &type, &collation, &notNull, &primaryKey, &autoIncrement)
    try SQLiteError.check(code, handle)
    // The strings belong to SQLite until the next schema change: copied at once.
    return ColumnMetadata(
      declaredType: type.map { String(cString: $0) },
      collation: collation.map { String(cString: $0) } ?? "BINARY",
      isNotNull: notNull != 0, isPrimaryKey: primaryKey != 0, isAutoIncrement: autoIncrement != 0)
  }
}
