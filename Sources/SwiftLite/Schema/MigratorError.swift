import Foundation

/// Why a ``Migrator`` refused to run or a migration failed.
///
/// The refusals (`duplicateName`, `unknownTarget`, `unknownAppliedMigrations`,
/// `insideTransaction`, `readOnlyDatabase`, `cannotReclaimSpace`) are thrown before anything runs. A failed migration
/// (`migrationFailed`, `foreignKeyViolation`) is rolled back: the database is as it was before
/// that migration, and the migrations applied before it in the same call stay applied.
///
/// `Sendable`: the wrapped error is too (every Swift `Error` is).
public enum MigratorError: Error, Sendable, CustomStringConvertible {
  /// Two migrations were registered under this name. Names identify migrations in the
  /// database, so each must be unique; nothing was run.
  case duplicateName(String)
  /// `migrate(upTo:)` named a migration that was never registered; nothing was run.
  case unknownTarget(String)
  /// The database records migrations this migrator does not know (a newer version of the
  /// app ran on it, or a branch's migration was dropped), in the order they were applied.
  /// Nothing was run.
  case unknownAppliedMigrations([String])
  /// The connection is inside a transaction: foreign key enforcement can only be paused
  /// outside one, and each migration needs a transaction of its own. Nothing was run.
  case insideTransaction
  /// The migration `name` failed and was rolled back; `underlying` is the error thrown by
  /// its closure, or by SQLite while beginning or committing its transaction.
  case migrationFailed(name: String, underlying: any Error)
  /// Once the migration `migration` had run, rows of `tables` referenced missing parent rows
  /// (`PRAGMA foreign_key_check`); it was rolled back.
  case foreignKeyViolation(migration: String, tables: [String])
  /// The database was opened read-only with these migrations pending (the app was
  /// upgraded, but this open cannot write): open it read-write once, or open it with the
  /// version of the app that wrote it. Nothing was run.
  case readOnlyDatabase(pending: [String])
  /// A migrator with ``Migrator/reclaimsSpace`` cannot `VACUUM` here (a pool's readers are
  /// open); nothing was run.
  case cannotReclaimSpace(reason: String)

  /// A sentence naming the migration or the names at fault.
  public var description: String {
    switch self {
    case .duplicateName(let name):
      return "migration \"\(name)\" is registered more than once; give each migration its own name"
    case .unknownTarget(let name):
      return "migrate(upTo:) names \"\(name)\", which is not a registered migration"
    case .unknownAppliedMigrations(let names):
      return "the database has applied migrations this app does not know: "
        + names.map { "\"\($0)\"" }.joined(separator: ", ")
        + " (a newer version of the app ran on it, or their registration was removed)"
    case .insideTransaction:
      return "migrations cannot run inside a transaction (foreign keys can only be paused "
        + "outside one); commit or roll back first"
    case .migrationFailed(let name, let underlying):
      return "migration \"\(name)\" failed and was rolled back: \(underlying)"
    case .foreignKeyViolation(let migration, let tables):
      return "migration \"\(migration)\" was rolled back: rows of "
        + tables.joined(separator: ", ") + " reference missing parent rows"
    case .readOnlyDatabase(let pending):
      return "the database is open read-only and needs the migrations "
        + pending.map { "\"\($0)\"" }.joined(separator: ", ")
        + "; open it read-write once to apply them"
    case .cannotReclaimSpace(let reason):
      return "the migrator reclaims space with VACUUM after migrating, which cannot run now: "
        + reason
    }
  }
}

extension MigratorError: LocalizedError {
  /// The same text as `description`, so `localizedDescription` shows it on every platform.
  public var errorDescription: String? { description }
}
