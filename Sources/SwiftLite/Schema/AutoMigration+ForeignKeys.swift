// Foreign keys that would not resolve: a child table created or rebuilt with a key naming
// columns its parent does not have as a key (SQLite accepts the CREATE statement, then
// fails every write of the child with "foreign key mismatch"), refused while planning.
extension AutoMigration {
  /// One ``MigrationError/foreignKeyMismatch(table:child:parent:columns:)`` per foreign
  /// key of `desired` whose parent table exists on `db` and has no primary key or unique
  /// index (not partial) on exactly the columns the key names (its primary key when it
  /// names none). A key to a table not yet created, or to the table itself, is not
  /// checked here.
  /// - Throws: `SQLiteError` when reading the schema fails.
  static func foreignKeyRefusals(_ desired: TableSchema, in db: Connection) throws
    -> [MigrationError]
  {
    var refusals: [MigrationError] = []
    for key in desired.foreignKeys
    where key.table.asciiCaseFolded != desired.name.asciiCaseFolded {
      guard let keys = try parentKeys(of: key.table, in: db) else { continue }
      let wanted = key.parentColumns.isEmpty ? keys.primaryKey : key.parentColumns
      let folded = Set(wanted.map(\.asciiCaseFolded))
      guard wanted.isEmpty || !keys.unique.contains(folded) else { continue }
      refusals.append(
        .foreignKeyMismatch(
          table: desired.name, child: desired.name, parent: key.table,
          columns: key.parentColumns))
    }
    return refusals
  }

  /// The primary key of `table` on `db` and the column sets a foreign key may reference
  /// (that key, and each unique index that is not partial); `nil` when there is no such
  /// table.
  private static func parentKeys(of table: String, in db: Connection) throws -> (
    primaryKey: [String], unique: Set<Set<ExactText>>
  )? {
    let columns = try db.query(
      "SELECT name, pk FROM pragma_table_info(?, 'main')", [table]
    ).map { (try $0.get(String.self, at: 0), try $0.get(Int.self, at: 1)) }
    guard !columns.isEmpty else { return nil }
    let primaryKey = columns.filter { $0.1 > 0 }.sorted { $0.1 < $1.1 }.map(\.0)
    var unique: Set<Set<ExactText>> = []
    if !primaryKey.isEmpty { unique.insert(Set(primaryKey.map(\.asciiCaseFolded))) }
    let indexes = try db.query(
      "SELECT name FROM pragma_index_list(?, 'main') WHERE \"unique\" = 1 AND partial = 0", [table]
    ).map { try $0.get(String.self, at: 0) }
    for index in indexes {
      let names = try db.query(
        "SELECT name FROM pragma_index_info(?, 'main')", [index]
      ).map { try $0.get(String?.self, at: 0) }
      // An index on an expression has a NULL name: no foreign key can reference it.
      guard !names.contains(nil) else { continue }
      unique.insert(Set(names.compactMap { $0?.asciiCaseFolded }))
    }
    return (primaryKey, unique)
  }
}
