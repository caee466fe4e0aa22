// Adoption: taking an existing table under SwiftLite's management on purpose.
extension Connection {
  /// What adopting the model's existing table would do, without doing it: the changes the
  /// model asks for, and everything the table has that the model does not declare (foreign
  /// keys, indexes, DEFAULTs, declared type names, columns), which adoption keeps.
  ///
  /// For a table that differs from the model only in what the model does not declare (its
  /// declared type names, say), the plan only records the table: no rebuild.
  ///
  /// What adoption would refuse is listed in the plan's ``MigrationPlan/refusals``, each with
  /// its fix: a change that would lose data, or a rebuild of a table whose CHECK or COLLATE
  /// clauses SQLite cannot report
  /// (``MigrationError/rebuildWouldDropConstraints(table:changes:clauses:sql:)``, naming the
  /// changes that need the rebuild). Reads only; writes nothing to the file.
  /// - Throws: ``ModelError/tableNotFound(table:)``; ``ModelError/incompatibleTable(model:table:problems:)``
  ///   when the model does not fit the table; `SQLiteError` when reading fails.
  public func adoptionPlan<M: Model>(for model: M.Type, target: String? = nil) throws
    -> MigrationPlan
  {
    let (name, stored) = try adoptable(model, target: target)
    return try AutoMigration.plan(
      for: model, table: name, adopting: true, stored: stored, in: self)
  }

  /// Takes the model's existing table under management, in one transaction: from now on
  /// SwiftLite migrates it when the model changes, keeping what the table had that the
  /// model does not declare. A table SwiftLite already manages is migrated as usual.
  /// - Returns: the plan that was applied.
  /// - Throws: as ``adoptionPlan(for:target:)``, and the plan's refusals as
  ///   ``Connection/migrate(_:target:)`` throws them; nothing changes then.
  @discardableResult
  public func adopt<M: Model>(_ model: M.Type, target: String? = nil) throws -> MigrationPlan {
    let (name, stored) = try adoptable(model, target: target)
    forgetModelTable(model, table: name)
    return try AutoMigration.migrate(
      model, table: name, adopting: true, stored: stored, in: self)
  }

  /// The table's name and description, after checking it exists and the model fits it.
  private func adoptable<M: Model>(_ model: M.Type, target: String?) throws
    -> (String, TableDescription)
  {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    let stored = try SchemaCatalogue.describe(name, in: self)
    switch ownership(stored) {
    case .missing:
      throw ModelError.tableNotFound(table: name)
    case .managed:
      break
    case .mapped:
      if stored.kind == .view {
        throw ModelError.writeRefused(
          table: name, reason: "it is a view: SwiftLite maps models onto it but cannot adopt it")
      }
      _ = try TableMapping(
        model: String(describing: model), desired: TableSchema(model, table: name),
        declaredKey: M.primaryKey, adding: true, stored: stored)
    }
    return (name, stored)
  }
}
