/// Whether an operation on a model only reads, or may write.
@usableFromInline enum ModelAccess {
  /// `find`, `findAll`, `count`, `exists`: never changes the file, not even the schema.
  case read
  /// `save`, `insert`, `update`, `createTable`: may create or migrate the table first,
  /// when SwiftLite manages it and the policy allows.
  case write
  /// `delete`: may migrate the table first, but a missing table has nothing to delete and
  /// is not created.
  case delete
}

// Who owns a model's table, decided once per connection: a table SwiftLite created (it has
// a row in the record table) is managed and migrated with the model; any other existing
// table is mapped, checked to fit and never changed; a missing table is created by the
// first write.
extension Connection {
  /// The model's table for an operation, checked against the model once per connection.
  /// - Returns: `nil` when reading a table that does not exist yet (a read creates nothing).
  /// - Throws: ``ModelError``, ``MigrationError`` or `SQLiteError`.
  // The table found again inline, the rest out of line: a use of the model used last
  // pays a few loads and no frame of the large function below.
  @usableFromInline @inline(__always) func modelTable<M: Model>(
    _ model: M.Type, target: String?, for access: ModelAccess
  ) throws
    -> ModelTable?
  {
    // A model's own table (no target) is found without building its name: `tableName` is
    // read once per connection.
    if target == nil, let table = quickAttachment(of: ModelTable.self, for: ObjectIdentifier(model))
    {
      return table
    }
    return try findModelTable(model, target: target, for: access)
  }

  /// ``modelTable(_:target:for:)`` for a table not found in the quick attachment.
  @inline(never) private func findModelTable<M: Model>(
    _ model: M.Type, target: String?, for access: ModelAccess
  ) throws
    -> ModelTable?
  {
    let owner = ObjectIdentifier(model)
    if target == nil, let table = quickAttachment(of: ModelTable.self, for: owner) {
      return table
    }
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    let key = AttachmentKey(type: owner, name: name)
    let tables = attachments(of: ModelTable.self)
    if let table = tables.value(for: key) {
      if target == nil { setQuickAttachment(table, for: owner) }
      return table
    }
    // Checked before under a state of the file confirmed unchanged since: made as then,
    // without describing the table.
    let blueprints = ModelTableBlueprints.of(self)
    if let blueprint = blueprints.confirmedBlueprint(for: key, in: self) {
      let table = ModelTable(blueprint)
      tables.set(table, for: key)
      if target == nil { setQuickAttachment(table, for: owner) }
      return table
    }
    let desired = try TableSchema(model, table: name)
    // A model's own mapping is checked before anything is created.
    let slots = try ModelTable.mappedSlots(model, properties: desired.columns.map(\.name))
    let mapping: TableMapping
    // Everything below is decided from this one read of the schema (a migration reads
    // again inside its transaction).
    let stored = try SchemaCatalogue.describe(name, expecting: desired, in: self)
    // A TEMP table of the same name would take every statement of the model, which name
    // no schema: its rows would go where the file never keeps them. Making one is a write,
    // so a table checked before is described again, and seen here.
    if let hiding = stored.hiddenBy {
      throw ModelError.incompatibleTable(
        model: String(describing: model), table: name,
        problems: [
          "a TEMP " + hiding.type + " of this connection has the same name and hides it from"
            + " SQL that names no schema (temp." + SQLIdentifier.quote(hiding.name) + ")"
        ])
    }
    // Checked before on this connection, and described now as then: made as then.
    if let blueprint = blueprints.blueprint(for: key, describedBy: stored, in: self) {
      let table = ModelTable(blueprint)
      tables.set(table, for: key)
      if target == nil { setQuickAttachment(table, for: owner) }
      return table
    }
    // Whether what is decided below depends on the description alone (see
    // `ModelTableBlueprints`).
    var keepsBlueprint = false
    switch ownership(stored, policy: M.schemaPolicy) {
    case .missing:
      if M.schemaPolicy == .mapped { throw ModelError.tableNotFound(table: name) }
      // A table renamed with its model is there under an earlier name: it is migrated, never
      // taken for missing (a read would find no rows, a write would start a new table).
      if name.hasSameBytes(as: M.tableName),
        let old = try AutoMigration.hasPreviousTable(name, M.previousTableNames, in: self)
      {
        let refusal = reasonNotToMigrate(model, name, access: access)
        if let refusal {
          throw MigrationError.needsMigration(
            table: name, changes: [SchemaChange.tableRenamed(from: old, to: name).description],
            reason: refusal)
        }
        try applyMigration(model, table: name, stored: stored)
        let renamed = try SchemaCatalogue.describe(name, in: self)
        mapping =
          renamed.record?.isAdopted == true
          ? try TableMapping(
            model: String(describing: model), desired: desired, declaredKey: M.primaryKey,
            stored: renamed)
          : TableMapping(managed: desired)
        break
      }
      guard access == .write else { return nil }  // nothing to read or delete
      guard automaticMigration, !preparedTables.contains(name) else {
        throw ModelError.tableNotFound(table: name)
      }
      try applyMigration(model, table: name, stored: stored)
      mapping = TableMapping(managed: desired)
    case .managed:
      // Deciding reads no row values (a read-first launch scans nothing); the migration,
      // when this use may run it, plans again and refuses with every refusal.
      let plan = try AutoMigration.plan(
        for: model, table: name, adopting: false, stored: stored, checkingValues: false,
        in: self)
      // A plan with no schema change only completes SwiftLite's record of the table:
      // reads go on without it; the first write records it.
      if plan.strategy != .none {
        let refusal = reasonNotToMigrate(model, name, access: access)
        if let refusal {
          // A refused change is reported first: migrating would not get past it.
          try plan.checkCanApply()
          throw MigrationError.needsMigration(table: name, changes: plan.changes, reason: refusal)
        }
      }
      let migrates = !plan.isEmpty && access != .read
      keepsBlueprint = plan.isEmpty && desired.fullTextIndexes.isEmpty
      if migrates { try applyMigration(model, table: name, stored: stored) }
      // An adopted table keeps its own spelling of names and the columns the model lacks
      // (a migration keeps a table adopted, or not).
      if stored.record?.isAdopted == true {
        mapping = try TableMapping(
          model: String(describing: model), desired: desired, declaredKey: M.primaryKey,
          stored: migrates ? SchemaCatalogue.describe(name, in: self) : stored)
      } else {
        mapping = TableMapping(managed: desired)
      }
    case .mapped:
      mapping = try TableMapping(
        model: String(describing: model), desired: desired, declaredKey: M.primaryKey,
        stored: stored)
      try checkDeclaredForeignKeys(model, table: name, reported: stored.schema?.foreignKeys ?? [])
      keepsBlueprint = true
    }
    let table = ModelTable(model, mapping: mapping, slots: slots)
    tables.set(table, for: key)
    if keepsBlueprint { blueprints.keep(table.blueprint, for: key, describedBy: stored, in: self) }
    if target == nil { setQuickAttachment(table, for: owner) }
    return table
  }

  /// The model's table for a write, created or migrated first when needed.
  @inline(__always)
  func writableModelTable<M: Model>(_ model: M.Type, target: String?) throws -> ModelTable {
    // A write never gets `nil`: a missing table is created or reported.
    guard let table = try modelTable(model, target: target, for: .write) else {
      throw ModelError.tableNotFound(table: target.map { M.tableName(target: $0) } ?? M.tableName)
    }
    return table
  }

  /// Forgets what this connection checked about a model's table, so its next use looks again.
  func forgetModelTable<M: Model>(_ model: M.Type, table name: String) {
    setQuickAttachment(ModelTable?.none, for: ObjectIdentifier(model))
    let key = AttachmentKey(type: ObjectIdentifier(model), name: name)
    attachments(of: ModelTable.self).remove(key)
    ModelTableBlueprints.of(self).forget(key)
  }

  /// Who owns a table.
  enum Ownership {
    /// There is no such table.
    case missing
    /// SwiftLite created (or adopted) it and records it: it is migrated with the model.
    case managed
    /// Another program made it: the model maps onto it as it is.
    case mapped
  }

  /// Who owns `table`: reads the schema and SwiftLite's record of the table (in one
  /// statement, see ``SchemaCatalogue``). A record that no longer describes the table
  /// (another program made it again) does not make it managed.
  func ownership(of table: String, policy: SchemaPolicy = .automatic) throws -> Ownership {
    ownership(try SchemaCatalogue.describe(table, in: self), policy: policy)
  }

  /// Who owns the table `stored` describes.
  func ownership(_ stored: TableDescription, policy: SchemaPolicy = .automatic) -> Ownership {
    switch stored.kind {
    case .missing: return .missing
    case .view: return .mapped
    case .table: return policy == .mapped || stored.record == nil ? .mapped : .managed
    }
  }

  /// Creates or migrates a managed table (described by `stored`, just read); on a
  /// read-only connection, says so in terms of the model rather than SQLite's "attempt to
  /// write a readonly database".
  private func applyMigration<M: Model>(
    _ model: M.Type, table: String, stored: TableDescription
  ) throws {
    do {
      _ = try AutoMigration.migrate(
        model, table: table, adopting: false, stored: stored, in: self)
    } catch let error as SQLiteError where error.code == .readOnly {
      let plan = try AutoMigration.plan(for: model, table: table, in: self)
      throw MigrationError.readOnlyConnection(table: table, strategy: plan.strategy.rawValue)
    }
  }

  /// Why this use of `model`'s table `name` may not migrate it, or `nil` when it may.
  private func reasonNotToMigrate<M: Model>(_ model: M.Type, _ name: String, access: ModelAccess)
    -> String?
  {
    if access == .read { return "reads never change the schema" }
    if M.schemaPolicy == .createOnly { return "the model's schemaPolicy is .createOnly" }
    if !automaticMigration { return "automatic migration is off on this connection" }
    if preparedTables.contains(name) {
      return "the preparation given when the database opened covers this table, so a write "
        + "does not migrate it: for a change of the model, register a new model step; "
        + "inside a migration step, write this table with SQL for the shape it has at "
        + "that step (a model has today's shape, which a fresh install reaches only "
        + "at the last step)"
    }
    return nil
  }
}
