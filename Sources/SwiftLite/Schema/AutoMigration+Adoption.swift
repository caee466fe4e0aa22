// Adoption: taking a table SwiftLite did not create under management, keeping everything it
// has that the model does not declare.
extension AutoMigration {
  /// Whether SwiftLite's record says the table was adopted rather than created.
  static func isAdopted(_ table: String, in db: Connection) throws -> Bool {
    try record(of: table, in: db)?.isAdopted ?? false
  }

  /// The schema to plan an adopted (or being adopted) table against: the model's, keeping
  /// what the table has that the model does not declare.
  static func adoptedSchema<M: Model>(
    _ model: M.Type, _ desired: TableSchema, in db: Connection
  ) throws -> (TableSchema, kept: [String]) {
    guard let stored = try SchemaInspector(db).schema(of: desired.name) else {
      return (desired, [])
    }
    var (schema, kept) = desired.keeping(
      stored, droppable: M.droppableColumns, renamed: M.renamedProperties)
    let clauses = try unreportedClauses(of: desired.name, in: db).clauses
    if !clauses.isEmpty {
      kept.append(
        "the " + clauses.joined(separator: ", ") + " clauses of its CREATE statement "
          + "(SQLite does not report them; they stay while the table is not rebuilt)")
    }
    return (schema, kept)
  }

  /// Refuses a rebuild that would drop what SQLite cannot report of the table as another
  /// program made it (CHECK and COLLATE clauses, constraint names, AUTOINCREMENT), unless
  /// the model permits it.
  static func checkAdoptedRebuild<M: Model>(
    _ model: M.Type, _ plan: MigrationPlan, in db: Connection
  ) throws {
    guard plan.strategy == .rebuild, !M.allowsRebuildingAdoptedTable else { return }
    let (clauses, sql) = try unreportedClauses(of: plan.table, in: db)
    guard !clauses.isEmpty else { return }
    throw MigrationError.rebuildWouldDropConstraints(table: plan.table, clauses: clauses, sql: sql)
  }

  /// The kinds of clause in the table's CREATE statement that SQLite's pragmas do not
  /// report (so a rebuild from the pragmas would lose them), and the statement. None for a
  /// statement SwiftLite wrote itself (it is its record).
  static func unreportedClauses(of table: String, in db: Connection) throws
    -> (clauses: [String], sql: String)
  {
    guard
      let sql = try db.scalar(
        String.self,
        "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE",
        [table])
    else { return ([], "") }
    if try recordedDefinition(of: table, in: db)?.hasSameBytes(as: sql) == true {
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
