// What a rebuild refuses, found while planning and before anything is written: triggers that
// would not compile against the new columns, and values that would not convert to a
// column's new SQL type. The rebuild's steps check both again while they run.
extension TableRebuild {
  /// Stands for the end of a check in a savepoint, to roll it back.
  private struct Done: Error {}

  /// The rebuild's refusals: ``MigrationError/triggersWouldNotCompile(table:triggers:messages:)``
  /// and, when `checkingValues`, one ``MigrationError/lossyTypeChange(table:column:newType:)``
  /// per retyped column with a value that would not convert (or be rounded), unless the
  /// column may lose them, and one
  /// ``MigrationError/foreignKeyMismatch(table:child:parent:columns:)`` per foreign key of
  /// another table naming a column the rebuild removes. Reads the rows; writes only TEMP
  /// tables, rolled back.
  /// - Returns: the refusals, and what could not be checked on this connection (one that
  ///   cannot write its TEMP schema), one line each.
  /// - Throws: `SQLiteError` when reading fails.
  func refusals(checkingValues: Bool) throws -> (refusals: [MigrationError], unchecked: [String]) {
    var refusals: [MigrationError] = []
    var unchecked: [String] = []
    if checkingValues {
      for column in retyped where !lossy.contains(column.name) {
        switch try loses(column) {
        case true?:
          refusals.append(
            .lossyTypeChange(table: table, column: column.name, newType: column.type))
        case nil:
          unchecked.append(
            "whether every value of \(column.name) converts to \(column.type) (only rounding "
              + "was checked)")
        case false?:
          break
        }
      }
    }
    let triggers = try rememberTriggers()
    switch try TriggerCompileCheck.failures(of: triggers, on: diff.desired, in: db) {
    case let failures? where !failures.isEmpty:
      refusals.append(
        .triggersWouldNotCompile(
          table: table, triggers: failures.map(\.trigger), messages: failures.map(\.message)))
    case nil where triggers.contains(where: { $0.sql.hasPrefix("CREATE TRIGGER ") }):
      unchecked.append(
        "whether the triggers " + triggers.map(\.name).joined(separator: ", ")
          + " compile against the new columns")
    default:
      break
    }
    refusals += try removedKeyColumnRefusals()
    return (refusals, unchecked)
  }

  /// The condition (over the old table's `source` column) of a value that keeps its class
  /// but is rounded by the change to `column`'s type: an integer above 2^53 made REAL, a
  /// REAL made TEXT (15 significant digits). `nil` for other types.
  static func roundingCondition(_ column: ColumnDefinition, source: String) -> String? {
    let source = SQLIdentifier.quote(source)
    switch column.type {
    case "REAL": return "typeof(\(source)) = 'integer' AND CAST(\(source) AS REAL) <> \(source)"
    case "TEXT":
      return "typeof(\(source)) = 'real' AND CAST(CAST(\(source) AS TEXT) AS REAL) <> \(source)"
    default: return nil
    }
  }

  /// Whether a stored value of `column` would not convert to its new type, or be rounded.
  /// The values not already of an accepted class are inserted into a TEMP table with the
  /// new type, as the rebuild's copy converts them, and their classes read back; the
  /// savepoint is rolled back. On a connection that cannot write its TEMP schema, only the
  /// rounding is checked here: `nil` when it finds none (the rebuild checks the rest while
  /// it runs).
  private func loses(_ column: ColumnDefinition) throws -> Bool? {
    guard let accepted = column.acceptedClasses else { return false }
    let source =
      diff.sources.first { $0.target.name == column.name }?.source ?? column.name
    if let rounded = Self.roundingCondition(column, source: source),
      try db.queryFirst(
        "SELECT 1 FROM " + quotedTable + " WHERE " + rounded + " LIMIT 1") != nil
    {
      return true
    }
    let classes = accepted.map { "'\($0)'" }.joined(separator: ", ")
    let check = "temp.swiftlite_conversion_check"
    var loses = false
    do {
      try db.savepoint("swiftlite_conversion_check") { db in
        try db.execute(
          "CREATE TEMP TABLE swiftlite_conversion_check (\"value\" " + column.type + ")")
        try db.execute(
          "INSERT INTO " + check + " SELECT " + SQLIdentifier.quote(source) + " FROM "
            + quotedTable + " WHERE typeof(" + SQLIdentifier.quote(source) + ") NOT IN ("
            + classes + ")")
        loses =
          try db.queryFirst(
            "SELECT 1 FROM " + check + " WHERE typeof(\"value\") NOT IN (" + classes + ") LIMIT 1")
          != nil
        throw Done()
      }
    } catch is Done {
      return loses
    } catch let error as SQLiteError where error.code == .readOnly {
      return nil
    }
    return loses
  }
}
