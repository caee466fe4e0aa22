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
    try database.writeWithoutTransaction { db in
      try migrate(db, of: database, upTo: target)
    }
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
    try await database.writeWithoutTransaction { db in
      try self.migrate(db, of: database, upTo: target)
    }
  }

  /// The migrations of either form of `migrate(_:upTo:)` on `database`'s writing connection
  /// `db`: a pool with readers open cannot reclaim space (VACUUM needs every other connection
  /// closed), so that is refused before any migration runs.
  private func migrate(_ db: Connection, of database: some DatabaseAccess, upTo target: String?)
    throws -> [String]
  {
    if reclaimsSpace, let pool = database as? DatabasePool, pool.readerCount > 0,
      try !pending(db, upTo: target).isEmpty
    {
      throw MigratorError.cannotReclaimSpace(
        reason: "the DatabasePool has \(pool.readerCount) reader connection(s) open; "
          + "migrate at launch (DatabasePool(path:preparation:)), before the first read")
    }
    return try migrate(db, upTo: target)
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
  /// Applies the pending migrations, as ``migrate(_:upTo:)-9k0qi`` does. On a read-only
  /// database, applies nothing and checks that nothing is pending.
  /// - Throws: ``MigratorError``; ``MigratorError/readOnlyDatabase(pending:)`` when the
  ///   database is read-only and migrations are pending.
  public func prepare(_ database: any DatabaseAccess) throws {
    try database.writeWithoutTransaction { db in
      if db.isReadOnly {
        let pending = try pendingMigrations(db)
        if !pending.isEmpty { throw MigratorError.readOnlyDatabase(pending: pending) }
        return
      }
      try migrate(db)
    }
  }

  /// The tables of the models its model steps register (``registerModels(_:_:)``): once
  /// a database opened with this migrator as its preparation, their schema changes only
  /// through the migrator, never by a model's first write.
  public var preparedTables: Set<String> { modelTableNames }
}
