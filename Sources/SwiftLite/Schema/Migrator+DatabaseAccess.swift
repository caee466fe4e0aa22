// A migrator over a DatabaseQueue or a DatabasePool: the same checks and transactions as
// on a Connection, run on the writing connection outside any transaction
// (`writeWithoutTransaction`).
extension Migrator {
  /// Applies the pending migrations on the writing connection, as ``migrate(_:upTo:)`` does
  /// on a `Connection`, blocking the caller until done.
  ///
  /// Called from inside one of the queue's or pool's own `write` closures, it throws
  /// ``MigratorError/insideTransaction`` (that closure's transaction is open).
  /// - Returns: the names of the migrations applied by this call, in order.
  /// - Throws: as ``migrate(_:upTo:)``.
  @discardableResult
  public func migrate(_ database: some DatabaseAccess, upTo target: String? = nil) throws
    -> [String]
  {
    try database.writeWithoutTransaction { db in try migrate(db, upTo: target) }
  }

  /// Like ``migrate(_:upTo:)``, suspending the task instead of blocking it: while the writer
  /// is busy, the task waits without holding a thread; the migrations run on the writer's own
  /// thread. A task cancelled before they start throws `CancellationError`, and none runs.
  /// - Returns: the names of the migrations applied by this call, in order.
  /// - Throws: as ``migrate(_:upTo:)``; `CancellationError`.
  @discardableResult
  public func migrate(_ database: some DatabaseAccess, upTo target: String? = nil) async throws
    -> [String]
  {
    try await database.writeWithoutTransaction { db in try self.migrate(db, upTo: target) }
  }

  /// The migrations the database records as applied, read in a `read` of the queue or pool.
  /// - Throws: as ``appliedMigrations(_:)``.
  public func appliedMigrations(_ database: some DatabaseAccess) throws -> [String] {
    try database.read { db in try appliedMigrations(db) }
  }

  /// The registered migrations not applied yet, read in a `read` of the queue or pool.
  /// - Throws: as ``pendingMigrations(_:)``.
  public func pendingMigrations(_ database: some DatabaseAccess) throws -> [String] {
    try database.read { db in try pendingMigrations(db) }
  }

  /// Whether some registered migration is not applied yet, read in a `read` of the queue or pool.
  /// - Throws: as ``pendingMigrations(_:)-9hjy1``.
  public func hasPendingMigrations(_ database: some DatabaseAccess) throws -> Bool {
    try database.read { db in try hasPendingMigrations(db) }
  }

  /// Like ``pendingMigrations(_:)``, suspending the task instead of blocking it.
  /// - Throws: as ``pendingMigrations(_:)``.
  public func pendingMigrations(_ database: some DatabaseAccess) async throws -> [String] {
    try await database.read { db in try self.pendingMigrations(db) }
  }
}

extension Migrator: DatabasePreparation {
  /// Applies the pending migrations, as ``migrate(_:upTo:)-9k0qi`` does.
  /// - Throws: ``MigratorError``.
  public func prepare(_ database: any DatabaseAccess) throws {
    try migrate(database)
  }
}
