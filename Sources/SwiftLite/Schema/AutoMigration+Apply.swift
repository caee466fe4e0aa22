import Foundation

// Applying plans: in one transaction, with foreign keys paused for a rebuild, and (for
// `migrate`) planned again once the write lock is held.
extension AutoMigration {
  /// Applies a plan in one transaction (a savepoint inside an open one). A rebuild runs
  /// with foreign key enforcement paused when outside a transaction, as SQLite's procedure
  /// requires, and checks foreign keys before committing.
  ///
  /// The plan's checks (no values in a dropped column, ...) were made when it was planned;
  /// ``migrate(_:table:in:)`` plans again inside the write transaction, so nothing another
  /// connection wrote in between can be lost.
  /// - Throws: ``MigrationError`` for a plan with refusals (before anything is written) or
  ///   a failed step; `SQLiteError` for other failures. Nothing is changed when it throws.
  static func apply(_ plan: MigrationPlan, in db: Connection) throws {
    try plan.checkCanApply()
    guard !plan.isEmpty else { return }
    // Planned before the transaction: the rows may have changed since they were decoded.
    var plan = plan
    plan.rowsDecoded = false
    _ = try run(expecting: plan.strategy, table: plan.table, in: db) { _ in plan }
  }

  /// Brings `table` (default: the model's table) in line with `model`: plans, then plans
  /// again and applies inside one IMMEDIATE transaction (a savepoint inside an open one),
  /// so the checks that keep data safe hold for the data the migration actually copies.
  /// - Returns: the plan that was applied (empty when nothing was needed).
  /// - Throws: ``ModelError``, ``MigrationError`` (a plan's refusals, all of them, before
  ///   anything is written) or `SQLiteError`; nothing changes then.
  @discardableResult
  static func migrate<M: Model>(_ model: M.Type, table: String? = nil, in db: Connection)
    throws -> MigrationPlan
  {
    try migrate(model, table: table, adopting: false, in: db)
  }

  /// As ``migrate(_:table:in:)``; `adopting` takes a table SwiftLite did not create under
  /// management (see `Connection.adopt(_:)`).
  /// - Parameter stored: the table as just described on `db`, or `nil` to describe it; the
  ///   plan applied is made again from what the transaction reads.
  static func migrate<M: Model>(
    _ model: M.Type, table: String?, adopting: Bool, stored: TableDescription? = nil,
    in db: Connection
  ) throws -> MigrationPlan {
    // The first plan chooses how to run (foreign keys paused for a rebuild) and reads no
    // values; the one applied reads them with the write lock held. A refused plan is
    // thrown with every refusal, values included.
    let first = try plan(
      for: model, table: table, adopting: adopting, stored: stored, checkingValues: false,
      in: db)
    if !first.canApply {
      try plan(for: model, table: table, adopting: adopting, in: db).checkCanApply()
      try first.checkCanApply()
    }
    guard !first.isEmpty else { return first }
    return try run(expecting: first.strategy, table: first.table, in: db) { db in
      try plan(for: model, table: table, adopting: adopting, in: db)
    }
  }

  /// Brings the table of a recorded schema (a model step's snapshot) in line with it, as
  /// ``migrate(_:table:in:)`` does for a model: plans, then plans again and applies inside
  /// one write transaction. A table adopted before keeps what it has that the snapshot does
  /// not declare, and is not rebuilt over clauses SQLite cannot report.
  /// - Returns: the plan that was applied (empty when nothing was needed).
  /// - Throws: ``MigrationError`` or `SQLiteError`; nothing changes then.
  @discardableResult
  static func migrate(to table: SchemaSnapshot.Table, in db: Connection) throws -> MigrationPlan {
    let planTable = { (db: Connection, checkingValues: Bool) throws -> MigrationPlan in
      var desired = table.schema
      let stored = try SchemaCatalogue.describe(desired.name, in: db)
      let adopted = stored.record?.isAdopted ?? false
      var kept: [String] = []
      if adopted, let storedSchema = stored.schema {
        (desired, kept) = desired.keeping(
          storedSchema, droppable: Set(table.droppableColumns), renamed: table.columnRenames)
      }
      var plan = try plan(
        to: desired, renamed: table.columnRenames, droppable: Set(table.droppableColumns),
        lossy: Set(table.lossyConvertibleColumns), checkingValues: checkingValues, in: db)
      if adopted {
        plan.kept = kept
        if let refusal = adoptedRebuildRefusal(plan, stored) { plan.refuse([refusal]) }
      }
      return plan
    }
    let makePlan = { (db: Connection, checkingValues: Bool) throws -> MigrationPlan in
      let stored = try SchemaCatalogue.describe(table.name, in: db)
      if let plan = try renamePlan(
        table.schema, previousNames: table.previousNames, stored: stored, in: db,
        then: { try planTable($0, checkingValues) })
      {
        return plan
      }
      return try planTable(db, checkingValues)
    }
    let first = try makePlan(db, false)
    if !first.canApply {
      try makePlan(db, true).checkCanApply()
      try first.checkCanApply()
    }
    guard !first.isEmpty else { return first }
    return try run(expecting: first.strategy, table: first.table, in: db) { db in
      try makePlan(db, true)
    }
  }

  /// Runs the plan `makePlan` returns inside one write transaction, with foreign keys
  /// paused beforehand when the `expected` strategy is a rebuild and no transaction is open.
  private static func run(
    expecting expected: MigrationPlan.Strategy, table: String, in db: Connection,
    plan makePlan: @escaping (Connection) throws -> MigrationPlan
  ) throws -> MigrationPlan {
    // Rebuild step 1 (https://sqlite.org/lang_altertable.html#otheralter): "If foreign key
    // constraints are enabled, disable them using PRAGMA foreign_keys=OFF." Step 12: "If
    // foreign keys constraints were originally enabled, reenable them now" (the defer).
    let enforcing = try db.foreignKeysEnabled()
    var pausedForeignKeys = false
    if expected == .rebuild, enforcing, !db.isInTransaction {
      try db.setForeignKeysEnabled(false)
      pausedForeignKeys = true
    }
    defer {
      if pausedForeignKeys { _ = try? db.setForeignKeysEnabled(true) }
    }
    // Views and triggers that name the table fail the rename of the new table once the old
    // one is dropped ("error in view v: no such table"); renaming as before SQLite 3.26
    // leaves them alone, and they name the table again once the rename is done.
    var setLegacyAlterTable = false
    if try db.scalar(Bool.self, "PRAGMA legacy_alter_table") == false {
      try db.execute("PRAGMA legacy_alter_table = ON")
      setLegacyAlterTable = true
    }
    defer {
      if setLegacyAlterTable { _ = try? db.execute("PRAGMA legacy_alter_table = OFF") }
    }
    let body = { (db: Connection) throws -> MigrationPlan in
      try createRecordTable(in: db)
      let plan = try makePlan(db)
      // Planned again with the write lock held: what it refuses now is thrown before any
      // step runs.
      try plan.checkCanApply()
      if plan.strategy == .rebuild, enforcing, !pausedForeignKeys {
        // Dropping the old table with foreign keys on deletes from it: rows of other tables
        // that reference it, and rows of the copy when the table references itself, would
        // be cascaded away or block the drop.
        if try !SchemaInspector(db).tablesReferencing(plan.table).isEmpty {
          throw MigrationError.mustRunOutsideTransaction(table: plan.table)
        }
      }
      for step in plan.steps {
        if step.decodesRows {
          // Planned in this transaction, the plan decoded these rows already.
          if !plan.rowsDecoded { try plan.validator?.run(db) }
          continue
        }
        if let failure = step.failure {
          if try db.queryFirst(step.sql) != nil { throw failure }
          continue
        }
        do {
          try execute(step, in: db)
        } catch let error as SQLiteError where error.isConstraintViolation {
          // SQLite names the rebuild's copy (or conversion table), which the user never
          // made: the rows are the table's.
          var message = error.message
          for prefix in ["swiftlite_new_", "swiftlite_stage_"] {
            message = message.replacingOccurrences(of: prefix + plan.table, with: plan.table)
          }
          throw MigrationError.constraintViolated(
            table: plan.table, step: step.reason, message: message)
        }
      }
      // Remember the CREATE statement as SwiftLite leaves it, and those of the tables
      // whose foreign keys a column renamed in place rewrote.
      var changed = [plan.table]
      if plan.steps.contains(where: { $0.sql.contains(" RENAME COLUMN ") || $0.renamesTable }) {
        changed += try SchemaInspector(db).tablesReferencing(plan.table)
      }
      try recordTableSQL(of: changed, in: db)
      return plan
    }
    // Rebuild step 2: "Start a transaction." Step 11: "Commit the transaction started in
    // step 2." (A savepoint inside a transaction already open; a throw rolls back.)
    if db.isInTransaction { return try db.savepoint(nil, body) }
    return try db.transaction(.immediate, body)
  }
}
