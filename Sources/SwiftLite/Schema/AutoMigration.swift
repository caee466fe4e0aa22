import Foundation

/// Compares a model's schema with its stored table and brings the table in line, keeping
/// every row.
///
/// - Only nullable or defaulted columns added (and indexes changed): `ALTER TABLE ... ADD
///   COLUMN`, `CREATE INDEX` / `DROP INDEX`.
/// - Anything else (columns removed, renamed or retyped, constraints, primary key, foreign
///   keys): SQLite's documented rebuild (<https://sqlite.org/lang_altertable.html#otheralter>):
///   create the new table, copy every row in one `INSERT ... SELECT` carrying renamed columns
///   across, drop the old table, rename the new one, recreate indexes and triggers, and run
///   `PRAGMA foreign_key_check`.
///
/// A plan is applied in one transaction (a savepoint when one is already open): a failure at
/// any step leaves the table and its rows as they were. Data is never dropped silently: a
/// removed column with values, a new NOT NULL column without a default, or a type change
/// that cannot convert every value is refused with a ``MigrationError`` saying how to permit it.
///
/// The differences found are ``SchemaChange`` values, listed in ``MigrationPlan/schemaChanges``.
///
/// Besides the pragmas, SwiftLite records the definition it last gave each table in
/// `swiftlite_schema`, to notice changes SQLite does not report (CHECK, COLLATE, AUTOINCREMENT).
public enum AutoMigration {
  /// The table where SwiftLite records the definition it gave each model table.
  public static let recordTable = "swiftlite_schema"

  /// The plan that would bring `table` (default: the model's table) in line with `model`,
  /// with every change it refuses in ``MigrationPlan/refusals``. Reads the database (the
  /// rows a refusal concerns too); changes nothing.
  /// - Throws: ``ModelError`` for a model that cannot be mapped, `SQLiteError` when reading
  ///   the schema or the rows fails.
  static func plan<M: Model>(for model: M.Type, table: String? = nil, in db: Connection)
    throws -> MigrationPlan
  {
    try plan(for: model, table: table, adopting: false, in: db)
  }

  /// The plan for the model's table; for a table adopted before (or being adopted now),
  /// planned against the model laid over the table, so what the table has that the model
  /// does not declare is kept.
  /// - Parameters:
  ///   - stored: the table as just described on `db`, or `nil` to describe it.
  ///   - checkingValues: whether to read the values a retyped column would lose, or that
  ///     would not decode as a new Swift type (a plan applied right away checks them in its
  ///     steps).
  static func plan<M: Model>(
    for model: M.Type, table: String?, adopting: Bool, stored: TableDescription? = nil,
    checkingValues: Bool = true, in db: Connection
  ) throws -> MigrationPlan {
    var desired = try TableSchema(model, table: table)
    var kept: [String] = []
    let stored = try stored ?? SchemaCatalogue.describe(desired.name, expecting: desired, in: db)
    // The model's own table may have had other names (a per-target table keeps its name).
    if desired.name.hasSameBytes(as: M.tableName),
      let renaming = try renamePlan(
        desired, previousNames: M.previousTableNames, stored: stored, in: db,
        then: { db in try Self.plan(for: model, table: table, adopting: adopting, in: db) })
    {
      return renaming
    }
    let wasAdopted = stored.record?.isAdopted ?? false
    let adopted = adopting || wasAdopted
    if adopted { (desired, kept) = adoptedSchema(model, desired, stored) }
    var plan = try plan(
      to: desired, renamed: M.propertyRenames, droppable: M.droppableColumns,
      lossy: M.lossyConvertibleColumns, stored: stored, checkingValues: checkingValues, in: db)
    if plan.steps.contains(where: \.decodesRows) {
      plan.validator = rowValidator(for: model, desired)
      if let check = plan.decodeCheck {
        plan.refuse(try undecodable(model, check, desired, in: db))
        plan.rowsDecoded = check.complete
      }
    }
    if adopted {
      plan.kept = kept
      if !M.allowsRebuildingAdoptedTable, let refusal = adoptedRebuildRefusal(plan, stored) {
        plan.refuse([refusal])
      }
      if adopting, !wasAdopted, !plan.steps.isEmpty {
        plan.steps.append(adoptionRecordStep(desired.name))
      }
    }
    return plan
  }

  /// Decodes every row of the table as the model; the first value that does not decode
  /// throws ``MigrationError/valuesDoNotDecode(table:column:type:)`` naming its column.
  private static func rowValidator<M: Model>(for model: M.Type, _ desired: TableSchema)
    -> MigrationPlan.RowValidator
  {
    let sql =
      "SELECT " + desired.columns.map { SQLIdentifier.quote($0.name) }.joined(separator: ", ")
      + " FROM " + SQLIdentifier.quote(desired.name)
    return MigrationPlan.RowValidator { db in
      try decodeRows(M.self, sql, in: db) { column in
        let column = column ?? "?"
        throw MigrationError.valuesDoNotDecode(
          table: desired.name, column: column,
          type: desired.column(named: column)?.swiftType ?? "the model's type")
      }
    }
  }

  /// The values the plan's decode check finds that do not decode as the model, read from
  /// the table as it is: one ``MigrationError/valuesDoNotDecode(table:column:type:)`` per
  /// column of `check` with such a value.
  private static func undecodable<M: Model>(
    _ model: M.Type, _ check: MigrationPlan.DecodeCheck, _ desired: TableSchema,
    in db: Connection
  ) throws -> [MigrationError] {
    var failed: [String] = []
    do {
      try decodeRows(model, check.sql, in: db) { column in
        guard let column, check.columns.contains(column), !failed.contains(column) else { return }
        failed.append(column)
        if failed.count == check.columns.count { throw DecodeCheckDone() }
      }
    } catch is DecodeCheckDone {}
    return failed.map { column in
      .valuesDoNotDecode(
        table: desired.name, column: column,
        type: desired.column(named: column)?.swiftType ?? "the model's type")
    }
  }

  /// Stands for the end of a decode check that found every column it looks for.
  private struct DecodeCheckDone: Error {}

  /// Decodes every row `sql` reads as the model, calling `failed` with the column (when
  /// known) of each row that does not decode.
  private static func decodeRows<M: Model>(
    _ model: M.Type, _ sql: String, in db: Connection, failed: (String?) throws -> Void
  ) throws {
    let decoder = RowDecoder(ignoredProperties: M.ignoredProperties)
    // A model with its own mapping is checked through it: that is how it will read.
    let mapped = M.self as? any RowMapped.Type
    var columns: ColumnMap?
    try db.forEachRow(sql) { row in
      do {
        if let mapped {
          let map = columns ?? ColumnMap(reading: mapped.mappedColumns, from: row.layout)
          columns = map
          try mapped.check(row, columns: map)
        } else {
          _ = try decoder.decode(M.self, from: row)
        }
      } catch let error as DecodingError {
        try failed(Self.column(of: error))
      }
    }
  }

  private static func column(of error: DecodingError) -> String? {
    switch error {
    case .typeMismatch(_, let context), .valueNotFound(_, let context),
      .dataCorrupted(let context):
      return context.codingPath.first?.stringValue
    case .keyNotFound(let key, _):
      return key.stringValue
    @unknown default:
      return nil
    }
  }

  /// The plan from the stored table to any desired schema.
  /// - Parameters:
  ///   - desired: the schema wanted; its name is the table's.
  ///   - renamed: new column name -> old column names, newest first.
  ///   - droppable: columns that may be dropped with their values.
  ///   - lossy: columns whose unconvertible values may become NULL.
  ///   - stored: the table as just described on `db`, or `nil` to describe it.
  ///   - checkingValues: whether to read the values a retyped column would lose.
  ///   - db: the connection.
  /// - Returns: the plan, with what it refuses in ``MigrationPlan/refusals``.
  /// - Throws: `SQLiteError`.
  static func plan(
    to desired: TableSchema, renamed: [String: [String]] = [:], droppable: Set<String> = [],
    lossy: Set<String> = [], stored description: TableDescription? = nil,
    checkingValues: Bool = true, in db: Connection
  ) throws -> MigrationPlan {
    // Read, compare (a pure diff of values), refuse what would lose data, choose the
    // strategy from the changes, then write the SQL for it. Features of the stored table
    // that the desired schema should keep belong in `desired` before the diff.
    let table = desired.name
    let description =
      try description ?? SchemaCatalogue.describe(table, expecting: desired, in: db)
    // The shortcut sees the table, not what hangs off it: a model with full-text indexes
    // has them compared as always.
    if desired.fullTextIndexes.isEmpty, isCurrent(description, for: desired) {
      return MigrationPlan(table: table, strategy: .none, changes: [], steps: [])
    }
    guard let stored = SchemaDiff.StoredTable(description, for: desired) else {
      var plan = createPlan(desired)
      plan.refuse(try foreignKeyRefusals(desired, in: db))
      return plan
    }
    let diff = SchemaDiff(
      from: stored, to: desired, renamed: renamed,
      parentKeys: try parentKeys(
        of: desired.foreignKeys + stored.schema.foreignKeys, desired, in: db))
    var refusals = try dataLossRefusals(diff, droppable: droppable, in: db)
    if checkingValues { refusals += try constraintRefusals(diff, in: db) }
    let fullText = try FullTextIndexMigration(desired, in: db)
    let changes = diff.changes + fullText.changes
    let strategy = MigrationPlan.Strategy(for: changes)
    let steps: [MigrationPlan.Step]
    var unchecked: [String] = []
    switch strategy {
    case .none where diff.recordIsCurrent:
      steps = []
    // With no change, the plan may still record the definition: for a table SwiftLite did
    // not create, or a record older than the Swift types.
    case .rebuild:
      let rebuild = TableRebuild(diff, lossy: lossy, in: db)
      let found = try rebuild.refusals(checkingValues: checkingValues)
      refusals += found.refusals + (try foreignKeyRefusals(desired, in: db))
      unchecked = found.unchecked
      steps =
        try rebuild.steps()
        + [decodeCheckStep(diff)].compactMap { $0 }
        + [recordStep(desired, definition: desired.createTableSQL())]
    default:
      steps =
        alterSteps(diff) + fullText.steps + [decodeCheckStep(diff)].compactMap { $0 }
        + [recordStep(desired, definition: diff.alteredDefinition)]
    }
    var plan = MigrationPlan(table: table, strategy: strategy, changes: changes, steps: steps)
    plan.refuse(refusals)
    plan.unchecked = unchecked
    if checkingValues { plan.decodeCheck = decodeCheck(diff) }
    if strategy == .rebuild {
      plan.freedPages = try TableRebuild.freedPages(rebuilding: table, in: db)
    }
    return plan
  }

  /// The primary key of each table that `keys` reference without naming parent columns:
  /// `desired`'s own for a key to itself, else the table's as it is on `db`.
  private static func parentKeys(
    of keys: [ForeignKey], _ desired: TableSchema, in db: Connection
  ) throws -> [ExactText: [String]] {
    var found: [ExactText: [String]] = [:]
    for key in keys where key.parentColumns.isEmpty {
      let name = key.table.asciiCaseFolded
      guard found[name] == nil else { continue }
      if name == desired.name.asciiCaseFolded {
        found[name] = desired.primaryKey
      } else {
        found[name] = try SchemaCatalogue.describe(key.table, in: db).schema?.primaryKey ?? []
      }
    }
    return found
  }

  /// Whether the table is exactly what `desired` creates and SwiftLite's record says so,
  /// so that the diff would find nothing: its CREATE statement is the one `desired` writes
  /// (the description was read expecting it), the record still describes it and holds that
  /// statement and the Swift types `desired` has, and its indexes are the ones `desired`
  /// declares. The common case of a table's first use, decided without diffing.
  private static func isCurrent(_ stored: TableDescription, for desired: TableSchema) -> Bool {
    guard stored.expectedSchema == desired, let sql = stored.sql, let record = stored.record,
      record.definition.hasSameBytes(as: sql)
    else { return false }
    switch (record.swiftTypes, swiftTypesText(desired)) {
    case (nil, nil): break
    case (let recorded?, let wanted?) where recorded.hasSameBytes(as: wanted): break
    default: return false
    }
    return Set(stored.schema?.indexes ?? []) == Set(desired.indexes)
  }

  /// Creating the table: the table, its indexes, and its record.
  private static func createPlan(_ desired: TableSchema) -> MigrationPlan {
    let definition = desired.createTableSQL()
    let steps =
      [MigrationPlan.Step(definition, "create the table")]
      + desired.indexes.map { .init(desired.createIndexSQL($0), "create index \($0.name)") }
      + desired.fullTextIndexes.flatMap {
        $0.creationSteps(keyColumns: desired.fullTextKeyColumns, indexRows: false)
      }
      + [recordStep(desired, definition: definition)]
    return MigrationPlan(
      table: desired.name, strategy: .create, changes: [.tableCreated(table: desired.name)],
      steps: steps)
  }

  /// Altering the table in place: columns added, then indexes dropped and created.
  private static func alterSteps(_ diff: SchemaDiff) -> [MigrationPlan.Step] {
    let desired = diff.desired
    let quotedTable = SQLIdentifier.quote(desired.name)
    var steps: [MigrationPlan.Step] = []
    var dropped: [TableSchema.IndexDefinition] = []
    var created: [TableSchema.IndexDefinition] = []
    for change in diff.changes {
      switch change {
      case .columnAdded(let column):
        steps.append(
          .init(
            "ALTER TABLE " + quotedTable + " ADD COLUMN " + desired.columnSQL(column),
            "add column \(column.name)"))
      case .indexRemoved(let index): dropped.append(index)
      case .indexAdded(let index): created.append(index)
      default: break
      }
    }
    steps += dropped.map {
      .init("DROP INDEX " + SQLIdentifier.quote($0.name), "drop index \($0.name)")
    }
    steps += created.map { .init(desired.createIndexSQL($0), "create index \($0.name)") }
    return steps
  }
}
