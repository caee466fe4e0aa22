// Adoption: taking a table SwiftLite did not create under management, keeping everything it
// has that the model does not declare.
extension AutoMigration {
  /// The schema to plan an adopted (or being adopted) table against: the model's, keeping
  /// what the table (as `stored` describes it) has that the model does not declare.
  static func adoptedSchema<M: Model>(
    _ model: M.Type, _ desired: TableSchema, _ stored: TableDescription
  ) -> (TableSchema, kept: [String]) {
    guard let schema = stored.tableSchema else { return (desired, []) }
    var (result, kept) = desired.keeping(
      schema, droppable: M.droppableColumns, renamed: M.propertyRenames)
    let clauses = unreportedClauses(of: stored).clauses
    if !clauses.isEmpty {
      kept.append(
        "the " + clauses.joined(separator: ", ") + " clauses of its CREATE statement "
          + "(SQLite does not report them; they stay while the table is not rebuilt)")
    }
    return (result, kept)
  }

  /// The refusal of a rebuild that would drop what SQLite cannot report of the table as
  /// another program made it (CHECK and COLLATE clauses, constraint names, AUTOINCREMENT),
  /// naming the changes that need the rebuild; `nil` when the plan does not rebuild or the
  /// table has no such clause. The caller decides whether the model permits it.
  static func adoptedRebuildRefusal(_ plan: MigrationPlan, _ stored: TableDescription)
    -> MigrationError?
  {
    guard plan.strategy == .rebuild else { return nil }
    let (clauses, sql) = unreportedClauses(of: stored)
    guard !clauses.isEmpty else { return nil }
    return .rebuildWouldDropConstraints(
      table: plan.table, changes: plan.schemaChanges.filter(\.needsRebuild).map(\.description),
      clauses: clauses, sql: sql)
  }

  /// The kinds of clause in the table's CREATE statement (as `stored` describes it) that
  /// SQLite's pragmas do not report (so a rebuild from the pragmas would lose them), and
  /// the statement. None for a statement SwiftLite wrote itself (it is its record, byte
  /// for byte).
  static func unreportedClauses(of stored: TableDescription) -> (clauses: [String], sql: String) {
    guard stored.isTable, let sql = stored.sql else { return ([], "") }
    if let definition = stored.record?.definition, definition.utf8.elementsEqual(sql.utf8) {
      return ([], sql)
    }
    // A word search, not a parse: it may see a clause in a name or a string, and then
    // errs on the side of keeping the table.
    let text = sql.uppercased()
    let clauses = ["CHECK", "COLLATE", "CONSTRAINT", "AUTOINCREMENT", "GENERATED"].filter {
      text.contains($0)
    }
    return (clauses, sql)
  }

  /// The step that marks the table as adopted in SwiftLite's record.
  static func adoptionRecordStep(_ table: String) -> MigrationPlan.Step {
    MigrationPlan.Step(
      "UPDATE " + SQLIdentifier.quote(recordTable)
        + " SET origin = 'adopted' WHERE table_name = ? COLLATE NOCASE",
      "record that the table is adopted: what it has that the model does not declare is kept",
      arguments: [.text(table)])
  }
}
