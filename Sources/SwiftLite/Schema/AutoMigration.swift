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
/// Besides the pragmas, SwiftLite records the definition it last gave each table in
/// `swiftlite_schema`, to notice changes SQLite does not report (CHECK, COLLATE, AUTOINCREMENT).
public enum AutoMigration {
  /// The table where SwiftLite records the definition it gave each model table.
  public static let recordTable = "swiftlite_schema"

  /// The plan that would bring `table` (default: the model's table) in line with `model`.
  /// Reads the database; changes nothing.
  /// - Throws: ``ModelError`` for a model that cannot be mapped, ``MigrationError`` when the
  ///   change would lose data, `SQLiteError` when reading the schema fails.
  public static func plan<M: Model>(for model: M.Type, table: String? = nil, in db: Connection)
    throws -> MigrationPlan
  {
    let desired = try TableSchema(model, table: table)
    var plan = try plan(
      to: desired, renamed: M.renamedProperties, droppable: M.droppableColumns,
      lossy: M.lossyConvertibleColumns, in: db)
    if plan.steps.contains(where: \.decodesRows) {
      plan.validator = rowValidator(for: model, desired)
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
      let decoder = RowDecoder(ignoredProperties: M.ignoredProperties)
      try db.forEachRow(sql) { row in
        do {
          _ = try decoder.decode(M.self, from: row)
        } catch let error as DecodingError {
          let column = Self.column(of: error) ?? "?"
          throw MigrationError.valuesDoNotDecode(
            table: desired.name, column: column,
            type: desired.column(named: column)?.swiftType ?? "the model's type")
        }
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
  ///   - renamed: new column name -> old column name.
  ///   - droppable: columns that may be dropped with their values.
  ///   - lossy: columns whose unconvertible values may become NULL.
  ///   - db: the connection.
  /// - Throws: ``MigrationError`` when the change would lose data; `SQLiteError`.
  public static func plan(
    to desired: TableSchema, renamed: [String: String] = [:], droppable: Set<String> = [],
    lossy: Set<String> = [], in db: Connection
  ) throws -> MigrationPlan {
    let table = desired.name
    let quotedTable = SQLIdentifier.quote(table)
    let definition = desired.createTableSQL()
    let inspector = SchemaInspector(db)
    let desiredTypes = swiftTypesText(desired)
    func recordStep(_ definition: String) -> MigrationPlan.Step {
      MigrationPlan.Step(
        "INSERT INTO " + SQLIdentifier.quote(recordTable)
          + " (table_name, definition, swift_types) VALUES (?, ?, ?)"
          + " ON CONFLICT (table_name) DO UPDATE SET definition = excluded.definition,"
          + " swift_types = excluded.swift_types",
        "record the definition SwiftLite gave the table",
        arguments: [.text(table), .text(definition), desiredTypes.map(SQLiteValue.text) ?? .null])
    }

    guard let stored = try inspector.schema(of: table) else {
      let steps =
        [MigrationPlan.Step(definition, "create the table")]
        + desired.indexes.map { .init(desired.createIndexSQL($0), "create index \($0.name)") }
        + [recordStep(definition)]
      return MigrationPlan(
        table: table, strategy: .create, changes: ["table \(table) does not exist"], steps: steps)
    }
    let record = try recordedDefinition(of: table, in: db)
    let recordedTypes = try recordedSwiftTypes(of: table, in: db)

    // Which stored column feeds each desired column.
    var changes: [String] = []
    var rebuildReasons: [String] = []
    var sources: [(target: ColumnDefinition, source: String)] = []
    var added: [ColumnDefinition] = []
    let storedNames = Set(stored.columns.map(\.name))
    // SQLite's names ignore ASCII case: a stored column whose name differs only in case
    // is the same column, renamed (userID -> userId), not one removed and one added.
    let storedByFoldedName = Dictionary(
      stored.columns.map { ($0.name.asciiCaseFolded, $0.name) }, uniquingKeysWith: { a, _ in a })
    let desiredFoldedNames = Set(desired.columns.map(\.name.asciiCaseFolded))
    func renamedSource(of name: String) -> String? {
      if let declared = renamed[name], let old = storedByFoldedName[declared.asciiCaseFolded],
        !desiredFoldedNames.contains(old.asciiCaseFolded)
      {
        return old
      }
      return storedByFoldedName[name.asciiCaseFolded]
    }
    for column in desired.columns {
      if storedNames.contains(column.name) {
        sources.append((column, column.name))
      } else if let old = renamedSource(of: column.name) {
        sources.append((column, old))
        changes.append("column \(old) renamed to \(column.name)")
        rebuildReasons.append("rename")
      } else {
        added.append(column)
        changes.append("column \(column.name) added")
      }
    }
    let used = Set(sources.map(\.source))
    let removed = stored.columns.filter { !used.contains($0.name) }
    for column in removed {
      changes.append("column \(column.name) removed")
      rebuildReasons.append("remove")
    }

    var retyped: [ColumnDefinition] = []
    var backfilled: Set<String> = []
    for (target, source) in sources {
      guard let old = stored.column(named: source) else { continue }
      if old.type != target.type {
        changes.append("column \(target.name) type changed from \(old.type) to \(target.type)")
        retyped.append(target)
      }
      let isKey = desired.hasRowIDAlias && target.name == desired.primaryKey.first
      if old.isNotNull != target.isNotNull && !isKey {
        // A column made NOT NULL with a default takes the default where it held NULL, as
        // the rows of a new column do (the copy writes NULL explicitly otherwise, and fails).
        let backfills = target.isNotNull && target.defaultSQL.map { $0 != "NULL" } == true
        if backfills { backfilled.insert(target.name) }
        changes.append(
          "column \(target.name) "
            + (target.isNotNull
              ? "became NOT NULL" + (backfills ? " (NULLs take its default)" : "")
              : "became nullable"))
        rebuildReasons.append("not null")
      }
      if old.isUnique != target.isUnique {
        changes.append(
          "column \(target.name) " + (target.isUnique ? "became UNIQUE" : "is no longer UNIQUE"))
        rebuildReasons.append("unique")
      }
      if old.defaultSQL != target.defaultSQL {
        changes.append("column \(target.name) default changed")
        rebuildReasons.append("default")
      }
    }
    if !retyped.isEmpty { rebuildReasons.append("type") }
    let sourceOf = Dictionary(
      sources.map { ($0.target.name, $0.source) }, uniquingKeysWith: { a, _ in a })
    if desired.primaryKey.map({ sourceOf[$0] ?? $0 }) != stored.primaryKey {
      changes.append(
        "primary key changed from (\(stored.primaryKey.joined(separator: ", "))) to (\(desired.primaryKey.joined(separator: ", ")))"
      )
      rebuildReasons.append("primary key")
    }
    let desiredKeys = desired.foreignKeys.map { key in
      ForeignKey(
        key.columns.map { sourceOf[$0] ?? $0 }, references: key.table, key.parentColumns,
        onDelete: key.onDelete, onUpdate: key.onUpdate)
    }
    if Set(desiredKeys) != Set(stored.foreignKeys) {
      changes.append("foreign keys changed")
      rebuildReasons.append("foreign keys")
    }
    if desired.isStrict != stored.isStrict {
      changes.append(desired.isStrict ? "table became STRICT" : "table is no longer STRICT")
      rebuildReasons.append("strict")
    }
    // The order of columns is not a reason to rebuild: the definitions are compared, and
    // recorded, with the columns in the order the table has them (added ones last, as
    // ADD COLUMN puts them).
    let storedPosition = Dictionary(
      stored.columns.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { a, _ in a })
    var withoutAdded = desired
    withoutAdded.columns.removeAll { column in added.contains { $0.name == column.name } }
    withoutAdded.columns.sort {
      (storedPosition[$0.name] ?? .max) < (storedPosition[$1.name] ?? .max)
    }
    var inStoredOrder = withoutAdded
    inStoredOrder.columns += added
    if let record {
      if rebuildReasons.isEmpty && record != withoutAdded.createTableSQL() {
        changes.append("column constraints changed (CHECK, COLLATE or AUTOINCREMENT)")
        rebuildReasons.append("constraints")
      }
    } else if rebuildReasons.isEmpty
      && (desired.autoIncrement
        || desired.columns.contains { $0.check != nil || $0.collation != nil })
    {
      // A table SwiftLite did not create (no record): the pragmas cannot tell whether it
      // has the CHECK, COLLATE or AUTOINCREMENT the model declares. Unless its CREATE
      // statement is the one SwiftLite would write, rebuild it so that it does, rather than
      // record what may not be true.
      let storedSQL = try db.scalar(
        String.self,
        "SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ? COLLATE NOCASE", [table])
      if storedSQL != withoutAdded.createTableSQL() {
        changes.append(
          "CHECK, COLLATE or AUTOINCREMENT declared by the model, unverifiable on a table "
            + "SwiftLite did not create")
        rebuildReasons.append("constraints")
      }
    }
    let cannotAdd = added.filter { column in
      column.isUnique || desired.primaryKey.contains(column.name)
        || (column.isNotNull && (column.defaultSQL == nil || column.defaultSQL == "NULL"))
    }
    if !cannotAdd.isEmpty { rebuildReasons.append("added column needs a rebuild") }

    // Never lose data silently.
    let hasRows =
      try db.scalar(Bool.self, "SELECT EXISTS (SELECT 1 FROM " + quotedTable + ")") ?? false
    for column in removed where !droppable.contains(column.name) {
      let rows =
        try db.scalar(
          Int.self,
          "SELECT count(*) FROM " + quotedTable + " WHERE " + SQLIdentifier.quote(column.name)
            + " IS NOT NULL") ?? 0
      if rows > 0 {
        throw MigrationError.wouldLoseData(table: table, column: column.name, rows: rows)
      }
    }
    for column in added
    where column.isNotNull && (column.defaultSQL ?? "NULL") == "NULL" && hasRows {
      if desired.hasRowIDAlias && column.name == desired.primaryKey.first { continue }
      throw MigrationError.notNullWithoutDefault(table: table, column: column.name)
    }

    // A Swift type may change within one storage class (String to [String], Int to Bool,
    // an enum that lost a case): SQLite sees nothing, but rows would stop decoding. The
    // types recorded last time tell; every row is then decoded before committing.
    var validation: MigrationPlan.Step?
    if let recordedTypes, let old = decodeSwiftTypes(recordedTypes) {
      var changedTypes: [String] = []
      for (target, source) in sources {
        guard let was = old[source], let now = target.swiftType, was != now else { continue }
        if stored.column(named: source)?.type == target.type {
          // A change of SQL type is already listed; this one SQLite cannot see.
          changes.append("column \(target.name) Swift type changed from \(was) to \(now)")
        }
        changedTypes.append(target.name)
      }
      if !changedTypes.isEmpty {
        validation = .init(
          "SELECT * FROM " + quotedTable,
          "check every row decodes as the model (" + changedTypes.joined(separator: ", ")
            + " changed Swift type)", decodesRows: true)
      }
    }

    // Indexes: the model is the truth for the indexes on its table.
    let storedIndexes = Set(stored.indexes)
    let desiredIndexes = Set(desired.indexes)
    let indexesToDrop = stored.indexes.filter { !desiredIndexes.contains($0) }
    let indexesToCreate = desired.indexes.filter { !storedIndexes.contains($0) }
    changes += indexesToDrop.map { "index \($0.name) removed" }
    changes += indexesToCreate.map { "index \($0.name) added" }

    var steps: [MigrationPlan.Step] = []
    let strategy: MigrationPlan.Strategy
    if rebuildReasons.isEmpty {
      steps += added.map {
        .init(
          "ALTER TABLE " + quotedTable + " ADD COLUMN " + desired.columnSQL($0),
          "add column \($0.name)")
      }
      steps += indexesToDrop.map {
        .init("DROP INDEX " + SQLIdentifier.quote($0.name), "drop index \($0.name)")
      }
      steps += indexesToCreate.map { .init(desired.createIndexSQL($0), "create index \($0.name)") }
      let alteredDefinition = inStoredOrder.createTableSQL()
      if steps.isEmpty && record == alteredDefinition
        && (recordedTypes == nil || recordedTypes == desiredTypes)
      {
        return MigrationPlan(table: table, strategy: .none, changes: [], steps: [])
      }
      if let validation { steps.append(validation) }
      steps.append(recordStep(alteredDefinition))
      strategy = steps.count > 1 ? .alter : .none
    } else {
      strategy = .rebuild
      steps = try rebuildSteps(
        from: stored, to: desired, sources: sources, added: added, retyped: retyped,
        backfilled: backfilled, lossy: lossy, carriesRenames: rebuildReasons.contains("rename"),
        in: db)
      if let validation { steps.append(validation) }
      steps.append(recordStep(definition))
    }
    return MigrationPlan(table: table, strategy: strategy, changes: changes, steps: steps)
  }

}
