import Dispatch

// A migrator over a DatabaseQueue: the same checks and transactions as on a Connection,
// run on the queue's connection outside any transaction (`writeWithoutTransaction`).
extension Migrator {
  /// Applies the pending migrations on the queue's connection, as
  /// ``migrate(_:upTo:)-(Connection,_)`` does on a `Connection`, blocking the caller until
  /// done.
  ///
  /// Called from inside one of the queue's own `write` closures, it throws
  /// ``MigratorError/insideTransaction`` (that closure's transaction is open).
  /// - Returns: the names of the migrations applied by this call, in order.
  /// - Throws: as ``migrate(_:upTo:)-(Connection,_)``.
  @discardableResult
  public func migrate(_ dbQueue: DatabaseQueue, upTo target: String? = nil) throws -> [String] {
    try dbQueue.writeWithoutTransaction { db in try migrate(db, upTo: target) }
  }

  /// Like ``migrate(_:upTo:)-4owcz``, suspending the task instead of blocking it. A dispatch
  /// worker thread, not one of the task's, waits for the queue.
  /// - Returns: the names of the migrations applied by this call, in order.
  /// - Throws: as ``migrate(_:upTo:)-(Connection,_)``.
  @discardableResult
  public func migrate(_ dbQueue: DatabaseQueue, upTo target: String? = nil) async throws
    -> [String]
  {
    try await withCheckedThrowingContinuation { continuation in
      DispatchQueue.global().async {
        continuation.resume(with: Result { try self.migrate(dbQueue, upTo: target) })
      }
    }
  }

  /// The migrations the database records as applied, read in a `read` of the queue.
  /// - Throws: as ``appliedMigrations(_:)-(Connection)``.
  public func appliedMigrations(_ dbQueue: DatabaseQueue) throws -> [String] {
    try dbQueue.read { db in try appliedMigrations(db) }
  }

  /// The registered migrations not applied yet, read in a `read` of the queue.
  /// - Throws: as ``pendingMigrations(_:)-(Connection)``.
  public func pendingMigrations(_ dbQueue: DatabaseQueue) throws -> [String] {
    try dbQueue.read { db in try pendingMigrations(db) }
  }

  /// Whether some registered migration is not applied yet, read in a `read` of the queue.
  /// - Throws: as ``pendingMigrations(_:)-(Connection)``.
  public func hasPendingMigrations(_ dbQueue: DatabaseQueue) throws -> Bool {
    try dbQueue.read { db in try hasPendingMigrations(db) }
  }

  /// Like ``pendingMigrations(_:)-7c15d``, suspending the task instead of blocking it.
  /// - Throws: as ``pendingMigrations(_:)-(Connection)``.
  public func pendingMigrations(_ dbQueue: DatabaseQueue) async throws -> [String] {
    try await dbQueue.read { db in try self.pendingMigrations(db) }
  }
}
