// The text of the describing statements (see `SchemaCatalogue.describe`): one statement
// reads all a first use of a table needs. Preparing it is most of that first use's cost on
// a new connection (each pragma table-valued function it names is set up by the prepare),
// so the common case, a table whose CREATE statement is the one the model writes, has a
// statement of its own that names no more pragmas than it needs.
extension SchemaCatalogue {
  /// Which describing statement: what it reads of the table.
  enum Form: Equatable {
    /// Everything: the table's row, columns, indexes, foreign keys, SwiftLite's record.
    case full
    /// As ``full``, but the columns and foreign keys are read only when the table's
    /// CREATE statement is not the expected one (?4).
    case gated
    /// For a table whose row the catalogue knows, expected to be the model's: its row
    /// (found by name when it is no longer at the rowid, the table having been made
    /// again), indexes and SwiftLite's record under the name asked for; no columns or
    /// foreign keys. Read for a record table the catalogue knows only.
    case light
  }

  /// The describing statement of `form` for the record table as the catalogue last saw
  /// it. Parameters: ?1 the name, ?2 the rowid of its row in `sqlite_schema` (or NULL),
  /// ?3 the record table's rowid (or NULL), ?4 the expected CREATE statement (read by
  /// ``Form/gated`` only: the columns and foreign keys are then read only when the
  /// table's statement is another), ?5 the schema version the table was last described
  /// at, or NULL: when it is the file's the pragmas do not run at all. (A one-row gate
  /// comes first, CROSS JOIN keeping that order: when it is empty, the pragma after it is
  /// not run.)
  func describingSQL(_ form: Form) -> String {
    let moved = "(SELECT 1 FROM version WHERE value IS NOT ?5) CROSS JOIN "
    let gate =
      form == .gated
      ? "(SELECT 1 FROM version WHERE value IS NOT ?5 AND (SELECT sql FROM sqlite_schema"
        + " WHERE rowid = ?2 AND name = ?1 COLLATE NOCASE) IS NOT ?4) CROSS JOIN " : moved
    var sql =
      "WITH version(value, data) AS MATERIALIZED (SELECT s.schema_version, d.data_version"
      + " FROM pragma_schema_version AS s, pragma_data_version AS d)"
      + " SELECT 0, type, name, sql, rowid, NULL, NULL, NULL FROM sqlite_schema"
      + " WHERE rowid = ?2 AND type IN ('table', 'view')"
    if form == .light {
      // The row moved (the table was made again): found by name, reading every row. The
      // one-row gate comes first (CROSS JOIN keeps that order): while the row is at the
      // rowid, it is empty and no other row is read.
      sql +=
        " UNION ALL SELECT 0, s.type, s.name, s.sql, s.rowid, NULL, NULL, NULL"
        + " FROM (SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM sqlite_schema WHERE rowid = ?2"
        + " AND type IN ('table', 'view') AND name = ?1 COLLATE NOCASE))"
        + " CROSS JOIN sqlite_schema AS s"
        + " WHERE s.type IN ('table', 'view') AND s.name = ?1 COLLATE NOCASE"
    }
    sql +=
      " UNION ALL SELECT 6, value, data, NULL, NULL, NULL, NULL, NULL FROM version"
      + " UNION ALL SELECT 7, type, name, NULL, NULL, NULL, NULL, NULL FROM temp.sqlite_schema"
      + " WHERE type IN ('table', 'view') AND name = ?1 COLLATE NOCASE"
      + " UNION ALL SELECT 2, l.name, l.origin, l.\"unique\", l.partial, i.seqno, i.name, NULL"
      + " FROM " + moved + "pragma_index_list(?1, 'main') AS l"
      + " JOIN pragma_index_info(l.name, 'main') AS i"
    if form != .light {
      sql +=
        " UNION ALL SELECT 1, name, type, \"notnull\", dflt_value, pk, hidden, NULL"
        + " FROM " + gate + "pragma_table_xinfo(?1, 'main')"
        + " UNION ALL SELECT 3, id, seq, \"table\", \"from\", \"to\", on_update, on_delete"
        + " FROM " + gate + "pragma_foreign_key_list(?1, 'main')"
    }
    guard let recordColumns else {
      // No record table, as far as the catalogue knows: its columns say whether one came.
      sql +=
        " UNION ALL SELECT 4, NULL, group_concat(name, ','), NULL, NULL, NULL, NULL, NULL"
        + " FROM pragma_table_xinfo('" + AutoMigration.recordTable + "', 'main')"
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
    sql += " UNION ALL " + values + table + " AS r WHERE r.table_name = ?1"
    // The light form stands only for a table spelled as asked, with a record under that
    // name (see `SchemaCatalogue.lightSuffices`): the other lookups would find nothing.
    guard form != .light else { return sql }
    // Records are found by their key, under the name asked for, then under the schema's
    // spelling of it; one under yet another ASCII case is looked for (reading every
    // record) only when those find none for a table or view that exists. The one-row gate
    // comes first (CROSS JOIN keeps that order): when it is empty, no record is read.
    let spelling =
      "(SELECT name FROM sqlite_schema WHERE rowid = ?2 AND name = ?1 COLLATE NOCASE)"
    sql +=
      " UNION ALL " + values + table + " AS r WHERE r.table_name = " + spelling
      + " AND r.table_name <> ?1"
      + " UNION ALL " + values + "(SELECT 1 WHERE NOT EXISTS (SELECT 1 FROM " + table
      + " WHERE table_name = ?1) AND NOT EXISTS (SELECT 1 FROM " + table
      + " WHERE table_name = " + spelling + ")"
      + " AND EXISTS (SELECT 1 FROM pragma_table_xinfo(?1, 'main'))) CROSS JOIN " + table
      + " AS r WHERE r.table_name = ?1 COLLATE NOCASE"
    return sql
  }
}
