/// The steps of SQLite's documented table rebuild for one diff, keeping every row
/// (<https://sqlite.org/lang_altertable.html#otheralter>, "Making Other Kinds Of Table Schema
/// Changes"). Each function below builds the steps of one part of that procedure and quotes
/// it. Steps 1, 2, 11 and 12 (pausing foreign keys, the transaction, committing) belong to
/// applying a plan: see ``AutoMigration/apply(_:in:)``.
///
/// Building the steps reads the schema (the tables that reference this one, its triggers),
/// never the rows, and changes nothing.
struct TableRebuild {
  /// The differences the rebuild carries out.
  let diff: SchemaDiff
  /// Columns whose unconvertible values may become NULL.
  let lossy: Set<String>
  /// The connection read from.
  let db: Connection

  var table: String { diff.desired.name }
  var quotedTable: String { SQLIdentifier.quote(table) }
  /// The new table's name until it takes the old one.
  private var temporary: String { "swiftlite_new_" + table }

  /// A rebuild of `diff`'s table.
  init(_ diff: SchemaDiff, lossy: Set<String>, in db: Connection) {
    self.diff = diff
    self.lossy = lossy
    self.db = db
  }

  /// The steps, in order. What they would refuse is found by ``refusals(checkingValues:)``;
  /// the steps check it again while they run.
  /// - Throws: `SQLiteError` when reading the schema fails.
  func steps() throws -> [MigrationPlan.Step] {
    let desired = diff.desired
    let children = try SchemaInspector(db).tablesReferencing(table)
    var (steps, sources) = try renameReferencedColumnsInPlace(children: children)
    // A STRICT table refuses a value that does not convert at the INSERT itself, before
    // the checks below could report it as a lossy change (or set it to NULL when that is
    // permitted): retyped values are converted in a table that is not STRICT first.
    let staged = desired.isStrict && retyped.contains { $0.acceptedClasses != nil }
    let converting = staged ? "swiftlite_stage_" + table : temporary
    let keptRowID = try keptRowIDColumn()
    steps.append(staged ? createConversionTable(converting) : createNewTable())
    steps.append(copyRows(sources, into: converting, keptRowID: keptRowID))
    steps += checkConversions(sources, in: converting)
    if staged {
      steps += moveConvertedRows(sources, from: converting, keptRowID: keptRowID)
    }
    steps += carryAutoIncrementSequence()
    let triggers = try rememberTriggers()
    steps.append(dropOldTable())
    steps.append(renameNewTable())
    steps += recreateIndexesAndTriggers(triggers)
    steps += checkForeignKeys(children: children)
    return steps
  }

  /// The columns whose SQL type changes; each value is checked to convert.
  var retyped: [ColumnDefinition] {
    diff.changes.compactMap { change in
      guard case .columnRetyped(let name, _, _) = change else { return nil }
      return diff.desired.column(named: name)
    }
  }

  /// The columns made NOT NULL whose NULLs take their default.
  private var backfilled: Set<String> {
    Set(
      diff.changes.compactMap { change in
        guard case .nullabilityChanged(let name, _, true) = change else { return nil }
        return name
      })
  }

  // MARK: Before the procedure

  /// A renamed column that another table's foreign key names is renamed in place first:
  /// ALTER TABLE RENAME COLUMN rewrites those references (the rebuild alone would leave
  /// them naming a column that no longer exists). The copy then reads the new name, and
  /// the children's recorded definitions follow the rewrite, so they need no rebuild.
  /// - Returns: the steps, and the sources the copy reads after them.
  private func renameReferencedColumnsInPlace(children: [String]) throws -> (
    [MigrationPlan.Step], [SchemaDiff.ColumnSource]
  ) {
    let childKeys = try self.childKeys(children)
    let referenced = Set(childKeys.flatMap(\.columns).map(\.asciiCaseFolded))
    var steps: [MigrationPlan.Step] = []
    var renamedInPlace: [ExactText: String] = [:]
    let sources = diff.sources.map { column in
      let (target, source) = (column.target, column.source)
      guard source != target.name, referenced.contains(source.asciiCaseFolded) else {
        return column
      }
      steps.append(
        .init(
          "ALTER TABLE " + quotedTable + " RENAME COLUMN " + SQLIdentifier.quote(source)
            + " TO " + SQLIdentifier.quote(target.name),
          "rename column \(source) to \(target.name) in place, so that the foreign keys "
            + "referencing it follow"))
      renamedInPlace[source.asciiCaseFolded] = target.name
      return SchemaDiff.ColumnSource(target: target, source: target.name)
    }
    guard !renamedInPlace.isEmpty else { return (steps, sources) }
    for key in childKeys
    where key.columns.contains(where: { renamedInPlace[$0.asciiCaseFolded] != nil }) {
      func clause(_ columns: [String]) -> String {
        "REFERENCES " + SQLIdentifier.quote(key.parent) + " ("
          + columns.map(SQLIdentifier.quote).joined(separator: ", ") + ")"
      }
      steps.append(
        .init(
          "UPDATE " + SQLIdentifier.quote(AutoMigration.recordTable)
            + " SET definition = replace(definition, ?1, ?2) WHERE table_name = ?3 COLLATE NOCASE",
          "record that the foreign key of \(key.child) follows the rename",
          arguments: [
            .text(clause(key.columns)),
            .text(clause(key.columns.map { renamedInPlace[$0.asciiCaseFolded] ?? $0 })),
            .text(key.child),
          ]))
    }
    return (steps, sources)
  }

  // MARK: Steps 3 to 5: new table, content

  /// Step 4: "Use CREATE TABLE to construct a new table "new_X" that is in the desired
  /// revised format of table X. Make sure that the name "new_X" does not collide with any
  /// existing table name, of course."
  private func createNewTable() -> MigrationPlan.Step {
    .init(diff.desired.createTableSQL(as: temporary), "create the new table")
  }

  /// Step 4, for a STRICT table whose values change type: a table that is not STRICT, with
  /// the new columns, where the values are converted and checked before the STRICT one
  /// takes them.
  private func createConversionTable(_ name: String) -> MigrationPlan.Step {
    var loose = diff.desired
    loose.isStrict = false
    loose.autoIncrement = false
    loose.foreignKeys = []
    for index in loose.columns.indices where loose.columns[index].type == "ANY" {
      loose.columns[index].type = "BLOB"  // no affinity: values stay as they are
    }
    return .init(
      loose.createTableSQL(as: name), "create a table that is not STRICT to convert the values in")
  }

  /// A table whose key is not an INTEGER alias still numbers its rows (insert returns the
  /// rowid; an FTS table may point at it): the copy keeps each row's rowid, under a name
  /// that no column hides, rather than numbering the rows afresh. Empty when there is none
  /// to keep, else the name and a comma.
  private func keptRowIDColumn() throws -> String {
    guard !diff.desired.hasRowIDAlias,
      try db.scalar(
        Bool.self,
        "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ? COLLATE NOCASE",
        [table]) == false
    else { return "" }
    let taken = Set((diff.stored.columns + diff.desired.columns).map(\.name.asciiCaseFolded))
    return ["rowid", "_rowid_", "oid"].first { !taken.contains(ExactText($0)) }.map { $0 + ", " }
      ?? ""
  }

  /// Step 5: "Transfer content from X into new_X using a statement like: INSERT INTO new_X
  /// SELECT ... FROM X." One statement, renamed columns read under their old names, NULLs
  /// of a column made NOT NULL replaced by its default.
  private func copyRows(
    _ sources: [SchemaDiff.ColumnSource], into target: String, keptRowID: String
  ) -> MigrationPlan.Step {
    let backfilled = backfilled
    return .init(
      "INSERT INTO " + SQLIdentifier.quote(target) + " (" + keptRowID
        + sources.map { SQLIdentifier.quote($0.target.name) }.joined(separator: ", ")
        + ") SELECT " + keptRowID
        + sources.map { column in
          let quoted = SQLIdentifier.quote(column.source)
          guard backfilled.contains(column.target.name), let value = column.target.defaultSQL
          else { return quoted }
          return "coalesce(" + quoted + ", " + value + ")"
        }.joined(separator: ", ")
        + " FROM " + quotedTable,
      "copy every row in one statement"
        + (diff.carriesRenames ? ", carrying renamed columns across" : ""))
  }

  /// Step 5, checked: every retyped value converted to its column's new type (or, when
  /// permitted, one that did not is set to NULL), and none was rounded on the way.
  private func checkConversions(_ sources: [SchemaDiff.ColumnSource], in converting: String)
    -> [MigrationPlan.Step]
  {
    let quotedConverting = SQLIdentifier.quote(converting)
    let currentSource = Dictionary(
      sources.map { ($0.target.name, $0.source) }, uniquingKeysWith: { a, _ in a })
    var steps: [MigrationPlan.Step] = []
    for column in retyped {
      guard let accepted = column.acceptedClasses else { continue }
      let wrongClass =
        " WHERE typeof(" + SQLIdentifier.quote(column.name) + ") NOT IN ("
        + accepted.map { "'\($0)'" }.joined(separator: ", ") + ")"
      let failure = MigrationError.lossyTypeChange(
        table: table, column: column.name, newType: column.type)
      if lossy.contains(column.name) {
        steps.append(
          .init(
            "UPDATE " + quotedConverting + " SET " + SQLIdentifier.quote(column.name) + " = NULL"
              + wrongClass,
            "set values of \(column.name) that are not \(column.type) to NULL (permitted)"))
        continue
      }
      steps.append(
        .init(
          "SELECT 1 FROM " + quotedConverting + wrongClass + " LIMIT 1",
          "check every value of \(column.name) converted to \(column.type)", failure: failure))
      // Some conversions keep the class but round: an integer above 2^53 made REAL, a
      // REAL made TEXT (15 significant digits). Compare with the old table's values.
      let source = currentSource[column.name] ?? column.name
      if let rounded = Self.roundingCondition(column, source: source) {
        steps.append(
          .init(
            "SELECT 1 FROM " + quotedTable + " WHERE " + rounded + " LIMIT 1",
            "check no value of \(column.name) is rounded by the change to \(column.type)",
            failure: failure))
      }
    }
    return steps
  }

  /// Steps 4 and 5 for a STRICT table, once its values are converted: the new table, and
  /// its content from the conversion table, which is then dropped.
  private func moveConvertedRows(
    _ sources: [SchemaDiff.ColumnSource], from converting: String, keptRowID: String
  ) -> [MigrationPlan.Step] {
    let names = sources.map { SQLIdentifier.quote($0.target.name) }.joined(separator: ", ")
    return [
      createNewTable(),
      .init(
        "INSERT INTO " + SQLIdentifier.quote(temporary) + " (" + keptRowID + names + ") SELECT "
          + keptRowID + names + " FROM " + SQLIdentifier.quote(converting),
        "copy the converted rows into the STRICT table"),
      .init("DROP TABLE " + SQLIdentifier.quote(converting), "drop the conversion table"),
    ]
  }

  /// Step 5, for AUTOINCREMENT: the content of X includes its row in `sqlite_sequence`.
  /// The new table's sequence starts from the largest copied key; a larger key once given
  /// and deleted since must not be given again (AUTOINCREMENT's promise).
  private func carryAutoIncrementSequence() -> [MigrationPlan.Step] {
    guard diff.desired.autoIncrement else { return [] }
    let names: [SQLiteValue] = [.text(table), .text(temporary)]
    return [
      .init(
        "UPDATE sqlite_sequence SET seq = max(seq, coalesce("
          + "(SELECT max(seq) FROM sqlite_sequence WHERE name = ?1), 0)) WHERE name = ?2",
        "carry the AUTOINCREMENT sequence over", arguments: names),
      .init(
        "INSERT INTO sqlite_sequence (name, seq) SELECT ?2, max(seq) FROM sqlite_sequence"
          + " WHERE name = ?1 AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?2)"
          + " HAVING count(*) > 0",
        "carry the AUTOINCREMENT sequence over (empty table)", arguments: names),
    ]
  }

  // MARK: Steps 6 to 10: swap the tables, rebuild what hangs on them, check

  /// Step 3: "Remember the format of all indexes, triggers, and views associated with table
  /// X. [...] SELECT type, sql FROM sqlite_schema WHERE tbl_name='X'." Indexes come from
  /// the desired schema, and views are left to name the table again after the rename: only
  /// the triggers are remembered.
  ///
  /// The triggers of the table's declared full-text indexes are not remembered: the
  /// rebuild writes them anew for the new columns.
  func rememberTriggers() throws -> [(name: String, sql: String)] {
    let fullText = Set(diff.desired.fullTextIndexes.flatMap(\.triggerNames).map(\.asciiCaseFolded))
    return try db.query(
      "SELECT name, sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE"
        + " AND sql IS NOT NULL",
      [table]
    ).map { (try $0.get(String.self, at: 0), try $0.get(String.self, at: 1)) }
      .filter { !fullText.contains($0.name.asciiCaseFolded) }
  }

  /// Step 6: "Drop the old table X: DROP TABLE X."
  private func dropOldTable() -> MigrationPlan.Step {
    .init("DROP TABLE " + quotedTable, "drop the old table")
  }

  /// Step 7: "Change the name of new_X to X using: ALTER TABLE new_X RENAME TO X."
  private func renameNewTable() -> MigrationPlan.Step {
    .init(
      "ALTER TABLE " + SQLIdentifier.quote(temporary) + " RENAME TO " + quotedTable,
      "give the new table the old name")
  }

  /// Step 8: "Use CREATE INDEX, CREATE TRIGGER, and CREATE VIEW to reconstruct indexes,
  /// triggers, and views associated with table X." Step 9 ("If any views refer to table X
  /// in a way that is affected by the schema change, then drop those views [...]") is
  /// checked for triggers: statements that touch no row compile them against the new
  /// columns.
  /// The declared full-text indexes are recreated over the new columns, each with its
  /// triggers, and index every row again.
  private func recreateIndexesAndTriggers(_ triggers: [(name: String, sql: String)])
    -> [MigrationPlan.Step]
  {
    let desired = diff.desired
    var steps: [MigrationPlan.Step] = desired.indexes.map {
      .init(desired.createIndexSQL($0), "create index \($0.name)")
    }
    steps += FullTextIndexMigration.rebuildSteps(desired)
    steps += triggers.map { .init($0.sql, "recreate trigger \($0.name)") }
    guard !triggers.isEmpty else { return steps }
    // A trigger is compiled only with a statement that fires it: one naming a removed
    // or renamed column would let the migration commit and every later write fail.
    // Statements that touch no row compile them now, inside the transaction.
    let names = desired.columns.map { SQLIdentifier.quote($0.name) }
    steps += [
      .init(
        "INSERT INTO " + quotedTable + " (" + names.joined(separator: ", ") + ") SELECT "
          + names.joined(separator: ", ") + " FROM " + quotedTable + " WHERE 0",
        "check the recreated INSERT triggers compile against the new columns"),
      .init(
        "UPDATE " + quotedTable + " SET " + names.map { $0 + " = " + $0 }.joined(separator: ", ")
          + " WHERE 0",
        "check the recreated UPDATE triggers compile against the new columns"),
      .init(
        "DELETE FROM " + quotedTable + " WHERE 0",
        "check the recreated DELETE triggers compile against the new columns"),
    ]
    return steps
  }

  /// Step 10: "If foreign key constraints were originally enabled then run PRAGMA
  /// foreign_key_check to verify that the schema change did not break any foreign key
  /// constraints." Run whether or not they were: for the table, and for the tables that
  /// reference it, whose rows must still find their parent (a changed primary key, say,
  /// would strand them).
  private func checkForeignKeys(children: [String]) -> [MigrationPlan.Step] {
    let failure = MigrationError.foreignKeyViolation(table: table)
    return [
      .init("PRAGMA foreign_key_check(" + quotedTable + ")", "check foreign keys", failure: failure)
    ]
      + children.filter { $0 != table }.map { child in
        .init(
          "PRAGMA foreign_key_check(" + SQLIdentifier.quote(child) + ")",
          "check the foreign keys of \(child), which references \(table)", failure: failure)
      }
  }
}
