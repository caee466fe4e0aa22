// A table renamed with its model (`Model.previousTableNames`): the table a file has under an
// earlier name is renamed in place, keeping its rows, indexes and triggers, then migrated
// as any other. The rest of the plan is made against the renamed table, in a savepoint
// rolled back at once, so that it is the plan the migration will run.
extension AutoMigration {
  /// The plan that renames the table `desired` names from one of `previousNames`, then does
  /// what `planRest` plans once it is renamed; `nil` when no such table is to be renamed.
  /// On a connection that cannot write (a read), the plan lists the rename alone, and says in
  /// its `unchecked` that the rest was not planned.
  /// - Parameters:
  ///   - desired: the schema wanted, under the table's new name.
  ///   - previousNames: the table's earlier names, newest first.
  ///   - stored: the table under its new name, as just described on `db`.
  ///   - planRest: the plan for the renamed table.
  /// - Returns: a plan refusing ``MigrationError/tableRenameConflict(table:previousName:)``
  ///   when the file has both tables.
  /// - Throws: ``MigrationError/notManaged(table:)`` when the old table is not one
  ///   SwiftLite manages, what `planRest` throws, `SQLiteError`.
  static func renamePlan(
    _ desired: TableSchema, previousNames: [String], stored: TableDescription, in db: Connection,
    then planRest: (Connection) throws -> MigrationPlan
  ) throws -> MigrationPlan? {
    guard !previousNames.isEmpty else { return nil }
    let found: TableDescription?
    do {
      found = try renamedTable(desired.name, previousNames, stored: stored, in: db)
    } catch let conflict as MigrationError {
      guard case .tableRenameConflict = conflict else { throw conflict }
      // A refusal of the plan, listed with any other: a dry run shows it, migrate throws it.
      var plan = MigrationPlan(table: desired.name, strategy: .none, changes: [], steps: [])
      plan.refuse([conflict])
      return plan
    }
    guard let old = found else { return nil }
    let oldName = old.storedName ?? old.name
    let steps = try renameSteps(from: old, to: desired, in: db)
    var rest: MigrationPlan?
    do {
      try db.savepoint { db in
        do {
          for step in steps { try execute(step, in: db) }
        } catch {
          throw RenameUnavailable()
        }
        throw PlannedAfterRename(plan: try planRest(db))
      }
    } catch let planned as PlannedAfterRename {
      rest = planned.plan
    } catch is RenameUnavailable {
      rest = nil
    }
    let change = SchemaChange.tableRenamed(from: oldName, to: desired.name)
    guard let rest else {
      // Nothing after the rename was planned: the plan must not look complete.
      var plan = MigrationPlan(
        table: desired.name, strategy: .alter, changes: [change], steps: steps)
      plan.unchecked = [
        "the changes after renaming \(oldName) to \(desired.name), and their refusals "
          + "(this connection cannot write, even in a savepoint rolled back)"
      ]
      return plan
    }
    var plan = MigrationPlan(
      table: desired.name, strategy: rest.strategy == .none ? .alter : rest.strategy,
      changes: [change] + rest.schemaChanges, steps: steps + rest.steps,
      validator: rest.validator)
    plan.kept = rest.kept
    plan.freedPages = rest.freedPages
    plan.refusals = rest.refusals
    plan.unchecked = rest.unchecked
    return plan
  }

  /// The plan of the renamed table, carried out of the savepoint that is rolled back.
  private struct PlannedAfterRename: Error {
    let plan: MigrationPlan
  }

  /// The rename could not run on this connection (it cannot write).
  private struct RenameUnavailable: Error {}

  /// The table under one of `previousNames` that becomes `table`, or `nil`.
  private static func renamedTable(
    _ table: String, _ previousNames: [String], stored: TableDescription, in db: Connection
  ) throws -> TableDescription? {
    for name in previousNames where name.asciiCaseFolded != table.asciiCaseFolded {
      let old = try SchemaCatalogue.describe(name, in: db)
      guard old.isTable else { continue }
      if stored.kind != .missing {
        throw MigrationError.tableRenameConflict(
          table: stored.storedName ?? table, previousName: old.storedName ?? name)
      }
      guard old.record != nil else {
        throw MigrationError.notManaged(table: old.storedName ?? name)
      }
      return old
    }
    return nil
  }

  /// Whether the file has a table under one of `previousNames` that would become `table`:
  /// for a read, which never renames, to tell a renamed table from a missing one.
  static func hasPreviousTable(_ table: String, _ previousNames: [String], in db: Connection)
    throws -> String?
  {
    for name in previousNames where name.asciiCaseFolded != table.asciiCaseFolded {
      let old = try SchemaCatalogue.describe(name, in: db)
      if old.isTable, old.record != nil { return old.storedName ?? name }
    }
    return nil
  }

  /// Dropping the full-text indexes named after the old table (the new name's replace
  /// them), renaming the table, and moving SwiftLite's record of it to the new name.
  private static func renameSteps(
    from old: TableDescription, to desired: TableSchema, in db: Connection
  ) throws -> [MigrationPlan.Step] {
    let oldName = old.storedName ?? old.name
    var steps: [MigrationPlan.Step] = []
    // An index with the default name follows the table's name: the old one's content is
    // the old table, which no longer exists. (One with a name of its own keeps the name;
    // its statement names the old table, so the plan recreates it.)
    for index in desired.fullTextIndexes
    where index.name.hasSameBytes(as: FullTextIndex.defaultName(table: desired.name)) {
      let previous = FullTextIndex(table: oldName, columns: index.columns)
      let exists = try db.scalar(
        Bool.self,
        "SELECT EXISTS (SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?"
          + " COLLATE NOCASE)", [previous.name])
      guard exists == true else { continue }
      steps += previous.dropSQL.map {
        .init(
          $0, "drop full-text index \(previous.name) of the old name (\(index.name) replaces it)")
      }
    }
    steps.append(
      .init(
        "ALTER TABLE " + SQLIdentifier.quote(oldName) + " RENAME TO "
          + SQLIdentifier.quote(desired.name),
        "rename table \(oldName) to \(desired.name), keeping its rows, indexes and triggers",
        renamesTable: true))
    if let row = old.recordRow {
      let quoted = SQLIdentifier.quote(recordTable)
      // The definition recorded names the table: it names the new one, as SwiftLite would
      // write it now. The CREATE statement recorded is written again once the plan ran.
      var definition = row.definition
      for name in [row.tableName, oldName] {
        let prefix = "CREATE TABLE " + SQLIdentifier.quote(name) + " ("
        if definition.hasPrefix(prefix) {
          definition =
            "CREATE TABLE " + SQLIdentifier.quote(desired.name) + " ("
            + definition.dropFirst(prefix.count)
          break
        }
      }
      steps.append(
        .init(
          "DELETE FROM " + quoted + " WHERE table_name = ?1 COLLATE NOCASE",
          "forget a stale record under the new name", arguments: [.text(desired.name)]))
      steps.append(
        .init(
          "UPDATE " + quoted + " SET table_name = ?1, definition = ?2, table_sql = NULL"
            + " WHERE table_name = ?3",
          "move SwiftLite's record of the table to its new name",
          arguments: [.text(desired.name), .text(definition), .text(row.tableName)]))
      // SQLite renames the table in other tables' foreign keys: so do the definitions
      // SwiftLite recorded for them, else each would look changed and be rebuilt.
      for name in Set([row.tableName, oldName]).sorted() {
        steps.append(
          .init(
            "UPDATE " + quoted + " SET definition = replace(definition, ?1, ?2)"
              + " WHERE instr(definition, ?1) > 0",
            "name the new table in the recorded foreign keys of the tables that reference it",
            arguments: [
              .text(" REFERENCES " + SQLIdentifier.quote(name) + " "),
              .text(" REFERENCES " + SQLIdentifier.quote(desired.name) + " "),
            ]))
      }
    }
    return steps
  }

  /// Runs one step of a plan that changes the schema (not a check).
  static func execute(_ step: MigrationPlan.Step, in db: Connection) throws {
    if step.renamesTable {
      // Renamed as SQLite does since 3.26, whatever the connection's setting: triggers,
      // views and the foreign keys of other tables then name the table anew.
      let legacy = try db.scalar(Bool.self, "PRAGMA legacy_alter_table") == true
      if legacy { try db.execute("PRAGMA legacy_alter_table = OFF") }
      defer { if legacy { _ = try? db.execute("PRAGMA legacy_alter_table = ON") } }
      try db.execute(step.sql)
    } else if step.arguments.isEmpty {
      try db.execute(step.sql)
    } else {
      try db.run(step.sql, StatementArguments(step.arguments))
    }
  }
}
