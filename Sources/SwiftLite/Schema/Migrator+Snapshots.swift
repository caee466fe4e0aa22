// Model steps and their snapshots: what a model step registers, what it would record now,
// and what it applies given snapshots.
extension Migrator {
  /// One model of a model step: its table as compiled now, and the migration to it.
  struct StepModel: Sendable {
    /// The model's table as compiled now, with its renames and permissions.
    let table: @Sendable () throws -> SchemaSnapshot.Table
    /// Creates or migrates the model's table to the model as compiled now.
    let migrate: @Sendable (Connection) throws -> Void
    /// The model's table name.
    let tableName: String
    /// The plan that would bring the model's table to the model as compiled now.
    let plan: @Sendable (Connection) throws -> MigrationPlan

    #if compiler(>=6.2)
      init<M: Model & SendableMetatype>(_ model: M.Type) {
        table = { try SchemaSnapshot.Table(model: M.self) }
        migrate = { db in try AutoMigration.migrate(M.self, in: db) }
        tableName = M.tableName
        plan = { db in try AutoMigration.plan(for: M.self, in: db) }
      }
    #else
      init<M: Model>(_ model: M.Type) {
        table = { try SchemaSnapshot.Table(model: M.self) }
        migrate = { db in try AutoMigration.migrate(M.self, in: db) }
        tableName = M.tableName
        plan = { db in try AutoMigration.plan(for: M.self, in: db) }
      }
    #endif
  }

  /// The names of the model steps (those of ``registerModels(_:_:)``), in registration order.
  public var modelStepNames: [String] {
    migrations.filter { $0.models != nil }.map(\.name)
  }

  /// The tables of the model step `step` as its models are compiled *now*, or `nil` when
  /// `step` is not a model step. For recording and checking snapshots in tests
  /// (`SwiftLiteTesting`); a migrator with ``snapshots`` applies a recorded table, and goes
  /// through the model only where the two are equal.
  /// - Throws: ``ModelError`` when a model cannot be mapped.
  public func currentModelTables(ofStep step: String) throws -> [SchemaSnapshot.Table]? {
    try migrations.first { $0.name == step }?.models?.map { try $0.table() }
  }

  /// Checks, without touching any database, that every model step has a snapshot and that
  /// each model as compiled now equals the snapshot of the last step that registers its
  /// table. For an app's debug builds, which a library cannot tell from release builds:
  ///
  /// ```swift
  /// struct Note: Model { var id: Int64?; var title: String; static let primaryKey = ["id"] }
  /// var recording = Migrator()
  /// recording.registerModels("v1", Note.self)
  /// // What SwiftLiteTesting's MigrationSnapshotCheck records into the app's snapshot files:
  /// let v1 = SchemaSnapshot(step: "v1", tables: try recording.currentModelTables(ofStep: "v1")!)
  /// var migrator = Migrator(snapshots: try MigrationSnapshots([v1]))
  /// migrator.registerModels("v1", Note.self)
  ///
  /// #if DEBUG
  ///   try migrator.checkSnapshots()  // a model changed without a new step: stop here
  /// #endif
  /// ```
  ///
  /// `SwiftLiteTesting`'s `MigrationSnapshotCheck` makes the same check in tests, with
  /// each difference spelled out, and records snapshots. A migrator without ``snapshots``
  /// passes.
  /// - Throws: ``MigrationSnapshotError/missingSnapshots(_:)``,
  ///   ``MigrationSnapshotError/modelsChanged(_:)``; ``ModelError`` when a model cannot be
  ///   mapped.
  public func checkSnapshots() throws {
    guard let snapshots else { return }
    let missing = modelStepNames.filter { snapshots[$0] == nil }
    if !missing.isEmpty { throw MigrationSnapshotError.missingSnapshots(missing) }
    var last: [String: (step: String, table: SchemaSnapshot.Table)] = [:]
    for step in modelStepNames {
      for table in try currentModelTables(ofStep: step) ?? [] {
        last[table.name.lowercased()] = (step, table)
      }
    }
    var changed: [String: String] = [:]
    for (_, entry) in last {
      let recorded = snapshots[entry.step]?.tables.first {
        $0.name.lowercased() == entry.table.name.lowercased()
      }
      let format = snapshots[entry.step]?.formatVersion ?? SchemaSnapshot.currentFormatVersion
      if recorded?.schema != entry.table.recordable(inFormat: format).schema {
        changed[entry.table.name] = entry.step
      }
    }
    if !changed.isEmpty { throw MigrationSnapshotError.modelsChanged(changed) }
  }

  /// Runs a migration's work. A model step given snapshots applies each table its snapshot
  /// records: through the model when the model as compiled now has exactly that table (so
  /// everything the model path checks, such as decoding every row after a change of Swift
  /// type, still happens), else from the recorded table alone.
  func run(_ migration: Migration, in db: Connection) throws {
    guard let models = migration.models, let snapshots else {
      try migration.body(db)
      return
    }
    guard let snapshot = snapshots[migration.name] else {
      throw MigrationSnapshotError.missingSnapshots([migration.name])
    }
    try Self.migrateEach(
      snapshot.tables.map { recorded in
        (
          recorded.name,
          {
            // A snapshot of format 1 holds no full-text indexes: a model whose table it
            // records otherwise exactly still goes through the model, which creates them.
            let format = snapshot.formatVersion
            if let model = models.first(where: {
              (try? $0.table())?.recordable(inFormat: format) == recorded
            }) {
              try model.migrate(db)
            } else {
              try AutoMigration.migrate(to: recorded, in: db)
            }
          }
        )
      })
  }

  /// Migrates each table of one model step in turn. A refused table does not keep the
  /// others from being planned: the step throws every refusal of every table at once (the
  /// refusal's own case for a single one, ``MigrationError/refused(table:refusals:)``
  /// naming the tables for more), and its transaction rolls back what the others did.
  static func migrateEach(_ tables: [(name: String, migrate: () throws -> Void)]) throws {
    var refused: [String] = []
    var refusals: [MigrationRefusal] = []
    for table in tables {
      do {
        try table.migrate()
      } catch let error as MigrationError where !error.refusals.isEmpty {
        refused.append(table.name)
        refusals += error.refusals
      }
    }
    if let error = MigrationError(table: refused.joined(separator: ", "), refusals: refusals) {
      throw error
    }
  }
}
