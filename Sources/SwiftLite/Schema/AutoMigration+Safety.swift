// The checks that keep data: a plan never loses a value silently. They read the rows the
// change concerns; the rebuild adds its own checks of converted values.
extension AutoMigration {
  /// Every change that would lose data, refused: each removed column that still holds
  /// values (unless `droppable`), each new NOT NULL column without a default on a table that
  /// has rows.
  /// - Returns: ``MigrationError/wouldLoseData(table:column:rows:)`` and
  ///   ``MigrationError/notNullWithoutDefault(table:column:)`` refusals, in column order.
  /// - Throws: `SQLiteError` when reading the rows fails.
  static func dataLossRefusals(_ diff: SchemaDiff, droppable: Set<String>, in db: Connection)
    throws -> [MigrationError]
  {
    var refusals: [MigrationError] = []
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
        refusals.append(.wouldLoseData(table: table, column: column.name, rows: rows))
      }
    }
    for column in diff.added where column.isNotNull && (column.defaultSQL ?? "NULL") == "NULL" {
      if desired.hasRowIDAlias && column.name == desired.primaryKey.first { continue }
      if try hasRows() {
        refusals.append(.notNullWithoutDefault(table: table, column: column.name))
      }
    }
    return refusals
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

  /// The values to decode while planning, when a column's Swift type changed within its
  /// SQL type: the query that reads the desired columns from the table as it is (renamed
  /// columns under their old names, added ones as their default), and the columns to
  /// report. A column whose SQL type changes too is left to the check that runs after the
  /// conversion (the conversion may change its values).
  ///
  /// `complete` when it reports every column whose Swift type changed: the rows it decodes
  /// are then the ones the migration writes.
  static func decodeCheck(_ diff: SchemaDiff) -> MigrationPlan.DecodeCheck? {
    var retyped = Set<String>()
    var backfilled = Set<String>()
    for change in diff.changes {
      switch change {
      case .columnRetyped(let name, _, _): retyped.insert(name)
      case .nullabilityChanged(let name, true, true): backfilled.insert(name)
      default: break
      }
    }
    let columns = Set(diff.swiftTypeChanges).subtracting(retyped)
    guard !columns.isEmpty else { return nil }
    let source = Dictionary(
      diff.sources.map { ($0.target.name, $0.source) }, uniquingKeysWith: { a, _ in a })
    // A row stops decoding at its first bad value: the other columns read as values of
    // their new type (a retyped one cast, a NOT NULL one added without a default a zero),
    // so that they hide no bad value of a column checked.
    let selected = diff.desired.columns.map { column in
      let value: String
      if let name = source[column.name] {
        let quoted = SQLIdentifier.quote(name)
        if retyped.contains(column.name) {
          value = "CAST(" + quoted + " AS " + column.type + ")"
        } else if backfilled.contains(column.name), let defaultSQL = column.defaultSQL {
          value = "coalesce(" + quoted + ", " + defaultSQL + ")"  // as the copy fills them
        } else {
          value = quoted
        }
      } else if let defaultSQL = column.defaultSQL {
        value = defaultSQL
      } else {
        value = column.isNotNull ? "CAST(0 AS " + column.type + ")" : "NULL"
      }
      return value + " AS " + SQLIdentifier.quote(column.name)
    }
    return MigrationPlan.DecodeCheck(
      sql: "SELECT " + selected.joined(separator: ", ") + " FROM "
        + SQLIdentifier.quote(diff.desired.name),
      columns: columns, complete: retyped.isDisjoint(with: diff.swiftTypeChanges))
  }

  /// Existing rows that a new constraint refuses, found by reading them: NULLs in a column
  /// made NOT NULL without a default, duplicates under a new UNIQUE constraint, unique
  /// index or primary key. One ``MigrationError/constraintViolated(table:step:message:)``
  /// per constraint, worded as SQLite words the failure. (A CHECK, and values that only
  /// collide once converted or collated anew, show while the migration runs.)
  /// - Throws: `SQLiteError` when reading the rows fails.
  static func constraintRefusals(_ diff: SchemaDiff, in db: Connection) throws
    -> [MigrationError]
  {
    let table = diff.desired.name
    let quotedTable = SQLIdentifier.quote(table)
    let source = Dictionary(
      diff.sources.map { ($0.target.name, $0.source) }, uniquingKeysWith: { a, _ in a })
    var refusals: [MigrationError] = []
    func refuse(_ step: String, _ kind: String, _ columns: [String]) {
      refusals.append(
        .constraintViolated(
          table: table, step: step,
          message: kind + " constraint failed: "
            + columns.map { table + "." + $0 }.joined(separator: ", ")))
    }
    func hasDuplicates(_ columns: [String]) throws -> Bool {
      let stored = columns.compactMap { source[$0].map(SQLIdentifier.quote) }
      guard !stored.isEmpty, stored.count == columns.count else { return false }
      return try db.queryFirst(
        "SELECT 1 FROM " + quotedTable + " WHERE "
          + stored.map { $0 + " IS NOT NULL" }.joined(separator: " AND ") + " GROUP BY "
          + stored.joined(separator: ", ") + " HAVING count(*) > 1 LIMIT 1") != nil
    }
    for change in diff.changes {
      switch change {
      case .nullabilityChanged(let name, true, false):
        guard let stored = source[name] else { continue }
        if try db.queryFirst(
          "SELECT 1 FROM " + quotedTable + " WHERE " + SQLIdentifier.quote(stored)
            + " IS NULL LIMIT 1") != nil
        {
          refuse("column \(name) became NOT NULL", "NOT NULL", [name])
        }
      case .uniqueChanged(let name, true):
        if try hasDuplicates([name]) { refuse("column \(name) became UNIQUE", "UNIQUE", [name]) }
      case .indexAdded(let index) where index.isUnique:
        if try hasDuplicates(index.columns) {
          refuse("create index \(index.name)", "UNIQUE", index.columns)
        }
      case .primaryKeyChanged(_, let columns):
        if try hasDuplicates(columns) { refuse(change.description, "UNIQUE", columns) }
      default:
        break
      }
    }
    return refusals
  }
}
