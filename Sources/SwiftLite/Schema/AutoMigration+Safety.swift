// The checks that keep data: a plan never loses a value silently. They read the rows the
// change concerns; the rebuild adds its own checks of converted values.
extension AutoMigration {
  /// Refuses a change that would lose data: a removed column that still holds values (unless
  /// `droppable`), or a new NOT NULL column without a default on a table that has rows.
  /// - Throws: ``MigrationError/wouldLoseData(table:column:rows:)``,
  ///   ``MigrationError/notNullWithoutDefault(table:column:)``; `SQLiteError`.
  static func checkKeepsData(_ diff: SchemaDiff, droppable: Set<String>, in db: Connection)
    throws
  {
    let desired = diff.desired
    let table = desired.name
    let quotedTable = SQLIdentifier.quote(table)
    // Read only when a column needs it: a table checked against an unchanged model runs
    // no statement here.
    var rows: Bool?
    func hasRows() throws -> Bool {
      if let rows { return rows }
      let found =
        try db.scalar(Bool.self, "SELECT EXISTS (SELECT 1 FROM " + quotedTable + ")") ?? false
      rows = found
      return found
    }
    for column in diff.removed where !droppable.contains(column.name) {
      let rows =
        try db.scalar(
          Int.self,
          "SELECT count(*) FROM " + quotedTable + " WHERE " + SQLIdentifier.quote(column.name)
            + " IS NOT NULL") ?? 0
      if rows > 0 {
        throw MigrationError.wouldLoseData(table: table, column: column.name, rows: rows)
      }
    }
    for column in diff.added where column.isNotNull && (column.defaultSQL ?? "NULL") == "NULL" {
      if desired.hasRowIDAlias && column.name == desired.primaryKey.first { continue }
      if try hasRows() {
        throw MigrationError.notNullWithoutDefault(table: table, column: column.name)
      }
    }
  }

  /// The step that decodes every row as the model before committing, when a column's Swift
  /// type changed: SQLite cannot tell whether the stored values still decode.
  static func decodeCheckStep(_ diff: SchemaDiff) -> MigrationPlan.Step? {
    guard !diff.swiftTypeChanges.isEmpty else { return nil }
    return MigrationPlan.Step(
      "SELECT * FROM " + SQLIdentifier.quote(diff.desired.name),
      "check every row decodes as the model ("
        + diff.swiftTypeChanges.joined(separator: ", ") + " changed Swift type)",
      decodesRows: true)
  }
}
