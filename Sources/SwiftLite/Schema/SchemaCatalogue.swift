/// Where each table and view of the main database sits in `sqlite_schema`, kept per
/// connection, so that describing a table (``TableDescription``: what the first use of a
/// model's table needs to know) takes one statement and reads no more of the schema than
/// that table's row.
///
/// `sqlite_schema` has no index: finding a row by name reads every row, which costs
/// milliseconds in a file of thousands of tables (one per chat, say), and the first use of
/// a model's table used to do it about ten times. A row found by its rowid costs a lookup.
/// The catalogue learns the rowids in one scan, then from the rows added since (a new row
/// takes a rowid above every other). SwiftLite's record of a table is found through the
/// record table's primary key.
///
/// Nothing the catalogue holds is taken on trust: the describing statement reads the row
/// at the rowid and keeps it only if it still names the table, and reads everything else
/// (the pragmas, the record) afresh, in the same statement, so from the same state of the
/// file. A change made by this connection, another one or another process, a rollback, a
/// VACUUM that renumbers the rows: each shows at once, and a stale entry costs one more
/// statement, never a wrong answer. So no `PRAGMA schema_version` is needed to know when
/// to look again, and changes that leave the schema alone (a record written by another
/// connection) are seen too.
final class SchemaCatalogue {
  /// What each row of the describing statement belongs to (its first column).
  enum Part {
    /// The table's row of `sqlite_schema`, found by rowid: type, name, sql.
    static let stored = 0
    /// `pragma_table_xinfo`: name, type, notnull, dflt_value, pk, hidden.
    static let column = 1
    /// `pragma_index_list` joined with `pragma_index_info`: index name, origin, unique,
    /// partial, seqno, column name.
    static let index = 2
    /// `pragma_foreign_key_list`: id, seq, table, from, to, on_update, on_delete.
    static let foreignKey = 3
    /// The record table's row of `sqlite_schema`, by rowid: type, name, sql; or, when the
    /// catalogue knows of no record table, `pragma_table_xinfo` of it: NULL, its columns'
    /// names joined by commas (NULL when there is none).
    static let recordTable = 4
    /// SwiftLite's record: table_name, definition, swift_types, origin, table_sql.
    static let record = 5
  }

  /// Folded name (see ``key(_:)``) -> rowid in `sqlite_schema`, for tables and views.
  private var rowIDs: [[UInt8]: Int64] = [:]
  /// The greatest rowid read so far; 0 before the first scan.
  private var lastRowID: Int64 = 0
  private var isLoaded = false
  /// The record table's columns, `nil` when the file has none.
  private var recordColumns: [String]?
  /// The record table's row of `sqlite_schema` when the catalogue last read it: where it
  /// is and what its CREATE statement said (which decides its columns).
  private var recordTableRow: (rowID: Int64, sql: String?)?

  private init() {}

  /// The catalogue of `db`, made on first use.
  static func of(_ db: Connection) -> SchemaCatalogue {
    let slot = db.attachments(of: SchemaCatalogue.self)
    if let catalogue = slot.value(for: slotKey) { return catalogue }
    let catalogue = SchemaCatalogue()
    slot.set(catalogue, for: slotKey)
    return catalogue
  }

  private static let slotKey = AttachmentKey(type: ObjectIdentifier(SchemaCatalogue.self), name: "")

  /// Describes `table` as it is now on `db`, in one statement when the catalogue knows
  /// where its row is (two when the table is new to it, rarely three).
  /// - Parameter expected: the schema the caller expects (a model's): when the table's
  ///   CREATE statement is, byte for byte, the one this schema writes, its columns, keys and
  ///   options are taken from it instead of asking the pragmas (SQLite derived its own from
  ///   that very text); its indexes and SwiftLite's record are read as always.
  /// - Throws: `SQLiteError` if reading fails.
  static func describe(_ table: String, expecting expected: TableSchema? = nil, in db: Connection)
    throws -> TableDescription
  {
    let catalogue = of(db)
    let expectation = expected.map { ($0, $0.createTableSQL(as: table)) }
    let description = try catalogue.describe(table, expecting: expectation, in: db)
    // The pragmas were skipped for a statement that is not the expected one: impossible
    // in one statement, but then the table is described again in full.
    guard description.kind != .table || description.schema != nil else {
      return try catalogue.describe(table, expecting: nil, in: db)
    }
    return description
  }

  private func describe(
    _ table: String, expecting expected: (schema: TableSchema, sql: String)?, in db: Connection
  ) throws -> TableDescription {
    if !isLoaded { _ = try scan(db, after: 0, lookingFor: nil) }
    let key = Self.key(table)
    var parts: TableDescription.Parts
    var attempt = 0
    // A record table made, changed or dropped since the catalogue looked is read again,
    // once or twice (another connection could change it in between).
    while true {
      var arguments: [(any SQLiteValueConvertible)?] = [table, rowIDs[key]]
      if recordColumns != nil || expected != nil { arguments.append(recordTableRow?.rowID) }
      if let expected { arguments.append(expected.sql) }
      do {
        parts = try TableDescription.Parts(
          db.query(describingSQL(gated: expected != nil), StatementArguments(arguments)),
          name: table)
      } catch is SQLiteError where recordColumns != nil && attempt < 2 {
        // The record table went away since the catalogue looked.
        attempt += 1
        _ = try scan(db, after: lastRowID, lookingFor: nil)
        continue
      }
      if recordTableIsAsSeen(parts) || attempt >= 2 { break }
      attempt += 1
      _ = try scan(db, after: lastRowID, lookingFor: nil)
    }
    var stored = parts.stored
    if stored == nil && parts.hasColumns {
      // The catalogue does not know the row (a table made since it looked) or the row now
      // holds something else (the table was dropped, renamed, or the file vacuumed): rows
      // added since the last scan, then every row.
      stored = try scan(db, after: lastRowID, lookingFor: table)
      if stored == nil {
        rowIDs = [:]
        stored = try scan(db, after: 0, lookingFor: table)
      }
    }
    if stored == nil { rowIDs[key] = nil }
    return TableDescription(name: table, parts: parts, stored: stored, expected: expected)
  }

  /// Whether the record table is as the catalogue last saw it, and the describing
  /// statement read the records with the right columns.
  private func recordTableIsAsSeen(_ parts: TableDescription.Parts) -> Bool {
    guard let recordTableRow else { return parts.recordTable == nil }
    guard let seen = parts.recordTable, seen.type == "table",
      seen.name.utf8.elementsEqual(AutoMigration.recordTable.utf8)
    else { return false }
    switch (seen.sql, recordTableRow.sql) {
    case (nil, nil): return true
    case (let now?, let then?): return now.utf8.elementsEqual(then.utf8)
    default: return false
    }
  }

  /// Reads the rows of `sqlite_schema` with a rowid above `after` (and the record table's
  /// columns), and returns the row of `table` if among them.
  private func scan(_ db: Connection, after: Int64, lookingFor table: String?) throws
    -> (type: String, name: String, sql: String?)?
  {
    var found: (type: String, name: String, sql: String?)?
    var columns: [String] = []
    if after == 0 { lastRowID = 0 }
    // The record table's row is read wherever it is: it may be older than `after`.
    let record = "'" + AutoMigration.recordTable + "'"  // a string: the name as a value
    var recordRow: (rowID: Int64, sql: String?)?
    try db.forEachRow(
      "SELECT rowid, type, name, CASE WHEN type IN ('table', 'view') AND name = ?2 COLLATE NOCASE"
        + " THEN sql END FROM sqlite_schema WHERE rowid > ?1"
        + " UNION ALL SELECT NULL, NULL, name, NULL FROM pragma_table_xinfo(" + record
        + ", 'main')"
        + " UNION ALL SELECT rowid, 'record table', name, sql FROM sqlite_schema"
        + " WHERE rowid = ?3 OR (?3 IS NULL AND type = 'table' AND name = " + record + ")",
      [after, table, recordTableRow?.rowID]
    ) { row in
      let name = try row.get(String.self, at: 2)
      guard let rowID = try row.get(Int64?.self, at: 0) else {
        columns.append(name)
        return
      }
      let type = try row.get(String.self, at: 1)
      if type == "record table" {
        if Self.sameName(name, AutoMigration.recordTable) {
          recordRow = (rowID, try row.get(String?.self, at: 3))
        }
        return
      }
      lastRowID = max(lastRowID, rowID)
      guard type == "table" || type == "view" else { return }
      rowIDs[Self.key(name)] = rowID
      if let table, Self.sameName(name, table) {
        found = (type, name, try row.get(String?.self, at: 3))
      }
    }
    if !columns.isEmpty && recordRow == nil {
      // The record table is not where it was (made again since): found by name.
      recordRow = try db.queryFirst(
        "SELECT rowid, sql FROM sqlite_schema WHERE type = 'table' AND name = " + record
      ).map { (try $0.get(Int64.self, at: 0), try $0.get(String?.self, at: 1)) }
    }
    recordColumns = columns.isEmpty ? nil : columns
    recordTableRow = columns.isEmpty ? nil : recordRow
    isLoaded = true
    return found
  }

  /// The describing statement for the record table as the catalogue last saw it.
  /// Parameters: ?1 the name, ?2 the rowid of its row in `sqlite_schema` (or NULL), ?3 when
  /// there is a record table (or the statement is `gated`) its rowid (or NULL), and when
  /// `gated`, ?4 the expected CREATE statement: the columns and foreign keys are read only
  /// when the table's statement is another. (The one-row gate comes first, CROSS JOIN
  /// keeping that order: when it is empty, the pragma is not run at all.)
  private func describingSQL(gated: Bool) -> String {
    let cacheKey = (recordColumns ?? []) + (gated ? ["?4"] : [])
    if let sql = describingSQLCache[cacheKey] { return sql }
    let gate =
      gated
      ? "(SELECT 1 WHERE (SELECT sql FROM sqlite_schema WHERE rowid = ?2"
        + " AND name = ?1 COLLATE NOCASE) IS NOT ?4) CROSS JOIN " : ""
    var sql =
      "SELECT 0, type, name, sql, NULL, NULL, NULL, NULL FROM sqlite_schema"
      + " WHERE rowid = ?2 AND type IN ('table', 'view')"
      + " UNION ALL SELECT 1, name, type, \"notnull\", dflt_value, pk, hidden, NULL"
      + " FROM " + gate + "pragma_table_xinfo(?1, 'main')"
      + " UNION ALL SELECT 2, l.name, l.origin, l.\"unique\", l.partial, i.seqno, i.name, NULL"
      + " FROM pragma_index_list(?1, 'main') AS l JOIN pragma_index_info(l.name, 'main') AS i"
      + " UNION ALL SELECT 3, id, seq, \"table\", \"from\", \"to\", on_update, on_delete"
      + " FROM " + gate + "pragma_foreign_key_list(?1, 'main')"
    guard let recordColumns else {
      // No record table, as far as the catalogue knows: its columns say whether one came.
      sql +=
        " UNION ALL SELECT 4, NULL, group_concat(name, ','), NULL, NULL, NULL, NULL, NULL"
        + " FROM pragma_table_xinfo('" + AutoMigration.recordTable + "', 'main')"
      describingSQLCache[cacheKey] = sql
      return sql
    }
    // The record table's row, by rowid: the same statement, the same columns.
    sql +=
      " UNION ALL SELECT 4, type, name, sql, NULL, NULL, NULL, NULL FROM sqlite_schema"
      + " WHERE rowid = ?3"
    // Columns added by later versions read NULL in a record table made before them.
    func column(_ name: String) -> String { recordColumns.contains(name) ? "r." + name : "NULL" }
    let table = SQLIdentifier.quote(AutoMigration.recordTable)
    let values =
      "SELECT 5, r.table_name, r.definition, " + column("swift_types") + ", "
      + column("origin") + ", " + column("table_sql") + ", NULL, NULL FROM "
    // Records are found by their key, under the name asked for, then under the schema's
    // spelling of it; one under yet another ASCII case is looked for (reading every
    // record) only when those find none for a table or view that exists. The one-row gate
    // comes first (CROSS JOIN keeps that order): when it is empty, no record is read.
    let spelling =
      "(SELECT name FROM sqlite_schema WHERE rowid = ?2 AND name = ?1 COLLATE NOCASE)"
    sql +=
      " UNION ALL " + values + table + " AS r WHERE r.table_name = ?1"
      + " UNION ALL " + values + table + " AS r WHERE r.table_name = " + spelling
      + " AND r.table_name <> ?1"
      + " UNION ALL " + values + "(SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM " + table
      + " WHERE table_name = ?1) AND NOT EXISTS (SELECT 1 FROM " + table
      + " WHERE table_name = " + spelling + ")"
      + " AND EXISTS (SELECT 1 FROM pragma_table_xinfo(?1, 'main'))) CROSS JOIN " + table
      + " AS r WHERE r.table_name = ?1 COLLATE NOCASE"
    describingSQLCache[cacheKey] = sql
    return sql
  }

  private var describingSQLCache: [[String]: String] = [:]

  /// A name's bytes with ASCII letters lower-cased: equal for the names SQLite takes for
  /// the same (it ignores ASCII case only, and compares bytes: a `String` key would take
  /// canonically equivalent names for one).
  static func key(_ name: String) -> [UInt8] { Array(name.asciiCaseFolded.string.utf8) }

  /// Whether SQLite takes two names for the same (see ``key(_:)``).
  static func sameName(_ a: String, _ b: String) -> Bool {
    func folded(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
    return a.utf8.elementsEqual(b.utf8) { folded($0) == folded($1) }
  }
}
