import Foundation

/// Why an automatic migration was refused or failed. In every case the table and its rows
/// are left exactly as they were.
public enum MigrationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The model no longer has a column that still holds values in `rows` rows.
  case wouldLoseData(table: String, column: String, rows: Int)
  /// A new NOT NULL column has no default, and the table already has rows.
  case notNullWithoutDefault(table: String, column: String)
  /// Some stored values cannot convert to the column's new type.
  case lossyTypeChange(table: String, column: String, newType: String)
  /// A property's Swift type changed (within one storage class, `String` to `[String]`,
  /// `Int` to `Bool`, an enum that lost a case) and some stored values do not decode as
  /// the new type.
  case valuesDoNotDecode(table: String, column: String, type: String)
  /// Existing rows violate a constraint of the new schema (unique, not null, check, key):
  /// found while planning (NULLs under a new NOT NULL, duplicates under a new UNIQUE or
  /// key: a refusal of the plan), or while the migration runs (rolled back).
  case constraintViolated(table: String, step: String, message: String)
  /// After the rebuild, rows point at missing parents.
  case foreignKeyViolation(table: String)
  /// The table must be created or migrated, but the connection is read-only (for example
  /// inside `DatabaseQueue.read`).
  case readOnlyConnection(table: String, strategy: String)
  /// The table has child tables (or references itself) and must be rebuilt with foreign
  /// keys off, which SQLite allows only outside a transaction.
  case mustRunOutsideTransaction(table: String)
  /// The table SwiftLite manages differs from the model, and this operation may not
  /// migrate it: a read (reads never change the schema), a model whose policy is
  /// ``SchemaPolicy/createOnly``, or a connection with automatic migration off.
  case needsMigration(table: String, changes: [String], reason: String)
  /// The table exists but SwiftLite did not create it, so it never changes it: the model
  /// is mapped onto it as it is. Adopt it with `adopt(_:)` to have it migrated.
  case notManaged(table: String)
  /// Migrating this adopted table needs a rebuild, which writes its CREATE statement anew,
  /// and the statement it has holds clauses SQLite cannot report (listed), so the rebuild
  /// would drop them. `changes` names the schema changes that need the rebuild (their
  /// ``SchemaChange/description``).
  case rebuildWouldDropConstraints(table: String, changes: [String], clauses: [String], sql: String)
  /// The table must be rebuilt, and triggers on it (named, each with SQLite's message) do
  /// not compile against its new columns: recreated as they are, they would fail every
  /// later write. Refused when planning, before anything is written.
  case triggersWouldNotCompile(table: String, triggers: [String], messages: [String])
  /// The plan refuses more than one change (each listed, with its fix); nothing was
  /// written. A plan with exactly one refusal throws that refusal's own case instead, so
  /// `catch MigrationError.wouldLoseData` still sees it: ``refusals`` lists them in both.
  case refused(table: String, refusals: [MigrationRefusal])
  /// The model's table was renamed (its `previousTableNames` list `previousName`), and the
  /// file has a table under both names: which one holds the rows cannot be told, so neither
  /// is changed.
  case tableRenameConflict(table: String, previousName: String)
  /// A foreign key of `child` references `columns` of `parent` (its primary key when
  /// empty), and after the migration of `table` those columns would not be `parent`'s
  /// primary key or a unique index of it, or not exist: SQLite would then fail every
  /// write of `child` with "foreign key mismatch". `table` is the child when its own model
  /// names columns the parent does not have (a parent's column renamed, and the child's
  /// model not updated), or the parent when its migration removes a column a child's key
  /// names. Refused when planning, before anything is written.
  case foreignKeyMismatch(table: String, child: String, parent: String, columns: [String])

  /// A sentence naming the table, the column and how to permit the change (for a
  /// refusal, its ``MigrationRefusal/reason`` then its ``MigrationRefusal/fix``).
  public var description: String {
    switch self {
    case .wouldLoseData, .notNullWithoutDefault, .lossyTypeChange, .valuesDoNotDecode,
      .rebuildWouldDropConstraints, .triggersWouldNotCompile, .tableRenameConflict,
      .foreignKeyMismatch,
      .refused:
      return refusalParts.map { $0.reason + "; " + $0.fix } ?? ""
    case .constraintViolated(let table, let step, let message):
      return "\(table): existing rows violate the new schema (\(message)) during: \(step)"
    case .foreignKeyViolation(let table):
      return "\(table): after the migration some rows reference missing parent rows"
    case .readOnlyConnection(let table, let strategy):
      return "\(table) must be created or migrated (\(strategy)) before it can be read, and "
        + "this connection is read-only: call createTable(for:) in a write first, or use Repository"
    case .mustRunOutsideTransaction(let table):
      return "\(table) is referenced by foreign keys (of other tables or its own), so its "
        + "rebuild must run outside a transaction (foreign keys can only be paused there)"
    case .needsMigration(let table, let changes, let reason):
      return "\(table) differs from the model (" + changes.joined(separator: "; ")
        + ") and \(reason): call migrate(_:) (or run your migrations) first"
    case .notManaged(let table):
      return "\(table) was not created by SwiftLite, so SwiftLite does not change it; the "
        + "model reads and writes it as it is. To have it migrated, adopt it: "
        + "adoptionPlan(for:) shows what that would do, adopt(_:) does it"
    }
  }
}

extension MigrationError: LocalizedError {
  /// The same text as `description`, so `localizedDescription` shows it on every platform.
  public var errorDescription: String? { description }
}
