import Foundation

/// Named schema migrations for apps that migrate explicitly: applied in the order they were
/// registered, each at most once, each in its own IMMEDIATE transaction, and recorded by name
/// in the table ``recordTable``.
///
/// ```swift
/// import SwiftLite
///
/// struct Note: Model {
///   var id: Int64?
///   var text: String
///   static let primaryKey = ["id"]
/// }
///
/// var migrator = Migrator()
/// migrator.register("create user") { db in
///   try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
/// }
/// migrator.register("user email") { db in
///   try db.execute("ALTER TABLE user ADD COLUMN email TEXT")
/// }
/// migrator.registerModels("notes", Note.self)  // creates or migrates Note's table
/// let db = try Connection(path: "app.sqlite")
/// try migrator.migrate(db)  // or migrate(dbQueue), or await migrate(dbQueue)
/// ```
///
/// - **Names, not numbers.** A migration is known by its name, so two branches that each add
///   one merge without renumbering. Registering a name twice is a programmer error, reported
///   as ``MigratorError/duplicateName(_:)`` by every method that reads the database, before
///   anything runs (not a crash at registration). Names are compared by their UTF-8 bytes, as
///   the database records them: "caf\u{E9}" and "cafe\u{301}" are two names.
/// - **Unknown migrations are refused.** A database that records a migration this migrator
///   does not know (a newer app ran on it) gets ``MigratorError/unknownAppliedMigrations(_:)``
///   before anything runs.
/// - **One transaction per migration.** A migration that throws is rolled back and reported
///   as ``MigratorError/migrationFailed(name:underlying:)``; the ones applied before it in the
///   same ``migrate(_:upTo:)-(Connection,_)`` call stay applied, and the later ones do not run.
/// - **Foreign keys** follow SQLite's procedure for schema changes
///   (<https://sqlite.org/lang_altertable.html#otheralter>): when the connection enforces
///   them, enforcement is turned off before the transaction (it cannot change inside one),
///   `PRAGMA foreign_key_check` runs before the commit (a violation rolls the migration back
///   with ``MigratorError/foreignKeyViolation(migration:tables:)``), and enforcement is turned
///   back on afterwards, whether the migration succeeded or not. ``ForeignKeyChecks/immediate``
///   keeps enforcement on for a migration instead.
/// - **Reading never writes.** ``appliedMigrations(_:)-(Connection)`` and
///   ``pendingMigrations(_:)-(Connection)`` do not create ``recordTable``; the first
///   migration applied does, in its own transaction.
///
/// - **Model steps replay their recorded shape.** A migrator given ``snapshots`` (the
///   files `SwiftLiteTesting` records, shipped as a resource) applies, for each model step of
///   ``registerModels(_:_:)``, the tables recorded for that step: the shape the models had
///   when the step was written, with the renames declared then (a recorded table equal to
///   its model as compiled now goes through the model, with every check the model path
///   makes; no other table is taken from today's models). A fresh install and an
///   upgrade from any earlier release then run the same history, and an SQL step written
///   against an older shape finds that shape. Every model step must have a snapshot: one
///   missing makes every method that reads the database throw
///   ``MigrationSnapshotError/missingSnapshots(_:)`` before anything runs. Without snapshots
///   (`snapshots == nil`, as before they existed), a model step applies the models as
///   compiled now, so its result depends on the app's version: keep that only for a history
///   where each model appears in one step, or each step has its own model type. A model that
///   changed without a new step is reported by ``checkSnapshots()`` (call it in debug
///   builds) and by `SwiftLiteTesting` in tests; at run time its first write migrates its
///   table as for any model (unless automatic migration is off).
///
/// A migration closure receives the connection inside the migration's transaction. It may
/// use savepoints but must not begin, commit or roll back a transaction itself.
///
/// `Migrator` is `Sendable` (a value of names and `@Sendable` closures), so it can be a
/// `static let` and be used from any thread or task. The `Connection` handed to a closure is
/// not `Sendable`: do not keep it.
public struct Migrator: Sendable {
  /// How foreign keys are enforced while one migration runs.
  public enum ForeignKeyChecks: Sendable {
    /// Enforcement is turned off for the migration and every foreign key is checked once,
    /// with `PRAGMA foreign_key_check`, before the commit: the migration may drop, rebuild
    /// and rename tables that others reference. The default.
    case deferred
    /// Enforcement stays on while the migration runs: each statement is checked as it runs
    /// (`ON DELETE` actions fire), and a table that others reference cannot be rebuilt.
    /// `PRAGMA foreign_key_check` still runs before the commit.
    case immediate
  }

  /// The table where applied migrations are recorded:
  /// `swiftlite_migrations(name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL)`,
  /// `applied_at` being an ISO-8601 UTC time.
  public static let recordTable = "swiftlite_migrations"

  /// One registered migration.
  struct Migration: Sendable {
    let name: String
    let foreignKeyChecks: ForeignKeyChecks
    let body: @Sendable (Connection) throws -> Void
    /// For a model step: its models, in order.
    var models: [StepModel]?
  }

  /// The registered migrations, in registration order.
  private(set) var migrations: [Migration] = []
  /// The registered names, told apart by their bytes (see `pending(_:upTo:)`): kept as
  /// they are registered, so that reading the state does not hash every name again.
  private(set) var registeredNames: Set<ExactText> = []
  /// The first name registered a second time, in registration order, if any.
  private(set) var firstDuplicateName: String?
  /// The tables of the model steps' models (`preparedTables`), kept as they are registered.
  private(set) var modelTableNames: Set<String> = []

  /// The recorded shapes of the model steps, which the migrator applies instead of the
  /// models as compiled now; `nil` (the default) to apply the models as compiled now.
  public var snapshots: MigrationSnapshots?

  /// Whether a `migrate` call that applied a step ends with `VACUUM` when the file has free
  /// pages (a rebuild leaves the old table's pages free: see ``MigrationPlan/freedPages``),
  /// so that the file shrinks back. Default `false`.
  ///
  /// VACUUM rewrites the whole file: it takes about as long as copying it, needs as much
  /// free disk space again, and holds the write lock meanwhile, which is why it is asked
  /// for, not done by default. It may renumber the rowids of tables without an
  /// `INTEGER PRIMARY KEY`; the full-text indexes over such tables are rebuilt after it.
  /// Over a ``DatabasePool`` whose readers are open, `migrate` refuses with
  /// ``MigratorError/cannotReclaimSpace(reason:)`` before anything runs (launch preparation
  /// runs before any reader opens).
  public var reclaimsSpace = false

  /// A migrator with no migrations and no snapshots: its model steps apply the models as
  /// compiled now.
  public init() {}

  /// A migrator with no migrations yet, whose model steps apply the shapes recorded in
  /// `snapshots`.
  public init(snapshots: MigrationSnapshots) {
    self.snapshots = snapshots
  }

  /// A migrator with no migrations yet, whose model steps apply the shapes recorded in the
  /// snapshot files of `directory` (see ``MigrationSnapshots/init(directory:)``).
  /// - Throws: ``MigrationSnapshotError`` for a file that is not a snapshot.
  public init(snapshots directory: URL) throws {
    self.snapshots = try MigrationSnapshots(directory: directory)
  }

  /// The names of the registered migrations, in registration order.
  public var names: [String] { migrations.map(\.name) }

  // MARK: Registering

  /// Registers a migration, to run after those registered before it.
  ///
  /// ```swift
  /// var migrator = Migrator()
  /// migrator.register("create user") { db in
  ///   try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
  /// }
  ///
  /// migrator.register("add user.email") { db in
  ///   try db.execute("ALTER TABLE user ADD COLUMN email TEXT")
  /// }
  /// try migrator.migrate(Connection(path: "app.sqlite"))  // each step once, whatever the runs
  /// ```
  /// - Parameters:
  ///   - name: the name recorded in the database once the migration is applied; never
  ///     rename or remove a migration that has shipped. A name registered twice makes every
  ///     later call that reads the database throw ``MigratorError/duplicateName(_:)``.
  ///   - foreignKeyChecks: how foreign keys are enforced while it runs; `.deferred` by default.
  ///   - migrate: the work, on the connection, inside the migration's transaction.
  public mutating func register(
    _ name: String, foreignKeyChecks: ForeignKeyChecks = .deferred,
    _ migrate: @escaping @Sendable (Connection) throws -> Void
  ) {
    append(Migration(name: name, foreignKeyChecks: foreignKeyChecks, body: migrate))
  }

  /// Adds a migration after the others, noting its name and its models' tables.
  private mutating func append(_ migration: Migration) {
    if !registeredNames.insert(ExactText(migration.name)).inserted && firstDuplicateName == nil {
      firstDuplicateName = migration.name
    }
    for model in migration.models ?? [] { modelTableNames.insert(model.tableName) }
    migrations.append(migration)
  }

  /// Registers a model step of `models`, in order.
  private mutating func registerModelStep(_ name: String, _ models: [StepModel]) {
    var migration = Migration(name: name, foreignKeyChecks: .deferred) { db in
      try Self.migrateEach(models.map { model in (model.tableName, { try model.migrate(db) }) })
    }
    migration.models = models
    append(migration)
  }

  #if compiler(>=6.2)
    /// Registers a migration that creates the tables of `models`, or migrates them to match
    /// the models (as ``Connection/migrate(_:target:)`` does), in the order given.
    ///
    /// ```swift
    /// struct Person: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }
    /// struct Pet: Model { var id: Int64?; var ownerID: Int64; static let primaryKey = ["id"] }
    /// var migrator = Migrator()
    ///
    /// migrator.registerModels("v2", Person.self, Pet.self)
    /// ```
    /// With ``snapshots``, the step applies the tables recorded for it: the shape the models
    /// had when the step was written, whatever they are now. Without, it brings the tables
    /// to the models *as compiled now*: an early step naming a model creates its current
    /// shape, and a later one naming it again finds nothing to do, so an SQL step between
    /// them written against the older shape fails on a fresh install.
    /// - Parameters:
    ///   - name: as for ``register(_:foreignKeyChecks:_:)``.
    ///   - models: the model types, whose tables are created or migrated in this order.
    public mutating func registerModels<each M: Model & SendableMetatype>(
      _ name: String, _ models: repeat (each M).Type
    ) {
      var entries: [StepModel] = []
      repeat entries.append(StepModel((each M).self))
      registerModelStep(name, entries)
    }
  #else
    /// Registers a migration that creates the tables of `models`, or migrates them to match
    /// the models (as ``Connection/migrate(_:target:)`` does), in the order given.
    /// - Parameters:
    ///   - name: as for ``register(_:foreignKeyChecks:_:)``.
    ///   - models: the model types, whose tables are created or migrated in this order.
    public mutating func registerModels<each M: Model>(
      _ name: String, _ models: repeat (each M).Type
    ) {
      var entries: [StepModel] = []
      repeat entries.append(StepModel((each M).self))
      registerModelStep(name, entries)
    }
  #endif

  // MARK: Migrating

  /// Applies the pending migrations in registration order, each in its own IMMEDIATE
  /// transaction, recording each by name when it commits.
  ///
  /// The checks come first, and nothing runs when one fails: duplicate names, an unknown
  /// `target`, a model step without a snapshot (given ``snapshots``), migrations the database
  /// records but this migrator does not know, an open transaction. A migration already
  /// recorded by another connection in the meantime is skipped (checked again once its
  /// transaction holds the write lock).
  ///
  /// Model tables already used on this connection are checked against their models again
  /// on their next use.
  /// - Parameters:
  ///   - db: a connection outside any transaction.
  ///   - target: the last migration to apply (those registered after it stay pending), or
  ///     `nil` for all. Useful to test an upgrade path from an older schema.
  /// - Returns: the names of the migrations applied by this call, in order.
  /// - Throws: ``MigratorError``: `duplicateName`, `unknownTarget`, `unknownAppliedMigrations`
  ///   or `insideTransaction` with nothing changed (and ``MigrationSnapshotError`` when a
  ///   model step has no snapshot); `migrationFailed` (wrapping what the
  ///   migration or SQLite threw) or `foreignKeyViolation` when a migration was rolled back,
  ///   the earlier ones of the call staying applied. `SQLiteError` when reading the state or
  ///   setting `PRAGMA foreign_keys` fails.
  @discardableResult
  public func migrate(_ db: Connection, upTo target: String? = nil) throws -> [String] {
    if db.isInTransaction { throw MigratorError.insideTransaction }
    let pending = try pending(db, upTo: target)
    guard !pending.isEmpty else { return [] }
    // Cached model tables may describe a schema the migrations change (or a rollback undid).
    defer { db.removeAllAttachments() }
    var applied: [String] = []
    for migration in pending {
      if try apply(migration, in: db) { applied.append(migration.name) }
    }
    if reclaimsSpace && !applied.isEmpty { try Self.reclaimSpace(in: db) }
    return applied
  }

  // MARK: Internals

  /// Applies one migration with foreign keys handled as SQLite documents.
  /// - Returns: `false` when another connection had applied it in the meantime.
  private func apply(_ migration: Migration, in db: Connection) throws -> Bool {
    let enforcing = try db.foreignKeysEnabled()
    let pauses = enforcing && migration.foreignKeyChecks == .deferred
    if pauses { try db.setForeignKeysEnabled(false) }
    let ran: Bool
    do {
      ran = try db.transaction(.immediate) { db in
        try db.execute(Self.createRecordTableSQL)
        let quoted = SQLIdentifier.quote(Self.recordTable)
        if try db.scalar(
          Bool.self, "SELECT EXISTS (SELECT 1 FROM " + quoted + " WHERE name = ?)",
          [migration.name]) == true
        {
          return false
        }
        // What a migration does to the tables SwiftLite manages is SwiftLite's own change:
        // they stay managed (their CREATE statements are recorded again afterwards).
        let managed = try AutoMigration.managedTables(in: db)
        do {
          try run(migration, in: db)
          guard db.isInTransaction else {
            throw SQLiteError.misuse(
              "the migration ended its transaction (COMMIT or ROLLBACK); use savepoints")
          }
        } catch {
          throw MigratorError.migrationFailed(name: migration.name, underlying: error)
        }
        if enforcing { try Self.checkForeignKeys(after: migration.name, in: db) }
        if !managed.isEmpty { try AutoMigration.recordTableSQL(of: managed, in: db) }
        try db.run(
          "INSERT INTO " + quoted
            + " (name, applied_at) VALUES (?, strftime('%Y-%m-%d %H:%M:%f', 'now'))",
          [migration.name])
        return true
      }
    } catch {
      if pauses { try? db.setForeignKeysEnabled(true) }
      if error is MigratorError { throw error }
      // BEGIN, COMMIT or the bookkeeping failed: still this migration's failure.
      throw MigratorError.migrationFailed(name: migration.name, underlying: error)
    }
    if pauses { try db.setForeignKeysEnabled(true) }
    return ran
  }

  private static let createRecordTableSQL =
    "CREATE TABLE IF NOT EXISTS " + SQLIdentifier.quote(recordTable)
    + " (name TEXT PRIMARY KEY NOT NULL, applied_at TEXT NOT NULL)"

  /// Throws ``MigratorError/foreignKeyViolation(migration:tables:)`` naming the tables whose
  /// rows reference missing parents.
  private static func checkForeignKeys(after name: String, in db: Connection) throws {
    var tables: [String] = []
    try db.forEachRow("PRAGMA foreign_key_check") { row in
      let table = try row.get(String.self, "table")
      if !tables.contains(table) { tables.append(table) }
    }
    if !tables.isEmpty {
      throw MigratorError.foreignKeyViolation(migration: name, tables: tables)
    }
  }
}
