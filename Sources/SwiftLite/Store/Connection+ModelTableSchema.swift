import Foundation

// A model's table on a connection: created, planned, migrated or dropped on purpose.
// (Reads and writes do the creating and migrating themselves on first use.)
extension Connection {
  /// Creates the model's table when it is missing, or migrates it when SwiftLite manages it
  /// and it differs from the model; for a table SwiftLite did not create, checks that the
  /// model fits it, changing nothing. Writes do this on first use; call it to do it at a
  /// time of your choosing.
  /// - Throws: ``ModelError`` (``ModelError/incompatibleTable(model:table:problems:)`` for an
  ///   existing table the model does not fit), ``MigrationError`` or `SQLiteError`; nothing
  ///   changes then.
  public func createTable<M: Model>(for model: M.Type, target: String? = nil) throws {
    _ = try writableModelTable(model, target: target)
  }

  /// The plan that would bring the model's table in line with the model, without applying
  /// it (a dry run): every change, every step, and every change it refuses with its fix
  /// (``MigrationPlan/refusals``; ``MigrationPlan/canApply`` is `false` then). Reads the
  /// schema and the rows the refusals concern; writes nothing to the file.
  /// - Throws: ``MigrationError/notManaged(table:)`` for a table SwiftLite did not create
  ///   (see ``adoptionPlan(for:target:)``); ``ModelError`` for a model that cannot be
  ///   mapped; `SQLiteError` when reading fails. A refusal is not thrown: it is in the plan.
  public func migrationPlan<M: Model>(for model: M.Type, target: String? = nil) throws
    -> MigrationPlan
  {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    let stored = try SchemaCatalogue.describe(
      name, expecting: TableSchema(model, table: name), in: self)
    if ownership(stored) == .mapped { throw MigrationError.notManaged(table: name) }
    return try AutoMigration.plan(
      for: model, table: name, adopting: false, stored: stored, in: self)
  }

  /// Whether the model's table is missing, or managed by SwiftLite and different from the
  /// model (also when the migration would be refused: see ``migrationPlan(for:target:)``).
  /// A table SwiftLite did not create never needs migration: it is used as it is.
  /// - Throws: as ``migrationPlan(for:target:)``, except for unmanaged tables.
  public func needsMigration<M: Model>(_ model: M.Type, target: String? = nil) throws -> Bool {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    let stored = try SchemaCatalogue.describe(
      name, expecting: TableSchema(model, table: name), in: self)
    if ownership(stored) == .mapped { return false }
    // A plan whose only step completes the record of a matching table changes no schema.
    return try AutoMigration.plan(
      for: model, table: name, adopting: false, stored: stored, in: self
    )
    .strategy != .none
  }

  /// Creates or migrates the model's table now, in one transaction, whatever the model's
  /// ``Model/schemaPolicy`` and ``automaticMigration`` say (this is the explicit call).
  /// - Returns: the plan that was applied (empty when nothing was needed).
  /// - Throws: ``MigrationError/notManaged(table:)`` for a table SwiftLite did not create;
  ///   the plan's refusals, all of them, before anything is written (the refusal's own
  ///   ``MigrationError`` case for one, ``MigrationError/refused(table:refusals:)`` for
  ///   more; ``MigrationError/refusals`` lists them either way); ``ModelError``, another
  ///   ``MigrationError`` or `SQLiteError`; nothing changes then.
  @discardableResult
  public func migrate<M: Model>(_ model: M.Type, target: String? = nil) throws -> MigrationPlan {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    let stored = try SchemaCatalogue.describe(
      name, expecting: TableSchema(model, table: name), in: self)
    if ownership(stored) == .mapped { throw MigrationError.notManaged(table: name) }
    forgetModelTable(model, table: name)
    return try AutoMigration.migrate(model, table: name, adopting: false, stored: stored, in: self)
  }

  /// Drops the model's table and every row in it.
  /// - Throws: `SQLiteError` (for example a foreign key from another table).
  public func dropTable<M: Model>(for model: M.Type, target: String? = nil) throws {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    try savepoint { db in
      try db.execute("DROP TABLE IF EXISTS " + SQLIdentifier.quote(name))
      try AutoMigration.forgetRecord(of: name, in: db)
    }
    forgetModelTable(model, table: name)
  }
}
