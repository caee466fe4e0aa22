/// What ``AutoMigration`` would do to bring a table in line with a model: a list of SQL
/// steps, each with its reason, and every change it refuses (``refusals``), each with its
/// fix. Print it or inspect it before applying (a dry run): a plan with refusals cannot be
/// applied (``canApply``), and `migrate` throws them, writing nothing.
///
/// ```swift
/// struct PersonV1: Model { var id: Int64?; var name: String; static let primaryKey = ["id"]; static let tableName = "Person" }
/// struct Person: Model { var id: Int64?; var name: String; var email: String?; static let primaryKey = ["id"] }
/// let db = try Connection.inMemory()
/// try db.save(PersonV1(id: 1, name: "Ann"))  // the table as an earlier release made it
///
/// let plan = try db.migrationPlan(for: Person.self)
/// print(plan)          // the steps, in order, with their SQL, then any refusals
/// if plan.canApply { try db.migrate(Person.self) }
/// ```
///
/// `Sendable`: values only.
public struct MigrationPlan: Sendable, CustomStringConvertible {
  /// How the table changes.
  public enum Strategy: String, Sendable {
    /// The table already matches the model.
    case none
    /// The table does not exist yet.
    case create
    /// Only the table renamed, columns added and/or indexes changed: `ALTER TABLE ... RENAME
    /// TO`, `ALTER TABLE ... ADD COLUMN`, `CREATE INDEX`.
    case alter
    /// SQLite's documented rebuild: new table, copy, drop, rename, indexes, checks.
    case rebuild

    /// The strategy the changes call for: none for no change, a rebuild when one of them
    /// needs it, else ALTER TABLE and CREATE / DROP INDEX.
    init(for changes: [SchemaChange]) {
      if changes.isEmpty {
        self = .none
      } else if changes.contains(where: { if case .tableCreated = $0 { true } else { false } }) {
        self = .create
      } else if changes.contains(where: \.needsRebuild) {
        self = .rebuild
      } else {
        self = .alter
      }
    }
  }

  /// One step: its SQL and why it is there.
  public struct Step: Sendable, CustomStringConvertible {
    /// The SQL to run.
    public let sql: String
    /// Why, in words.
    public let reason: String
    /// Values bound to the SQL's parameters.
    let arguments: [SQLiteValue]
    /// For a check: the query must return no row, else this error is thrown.
    let failure: MigrationError?
    /// For a check that every row decodes as the model (run by the plan's validator).
    let decodesRows: Bool
    /// For the rename of the table to its new name: run as SQLite renames since 3.26, so
    /// that triggers, views and other tables' foreign keys name the table anew.
    let renamesTable: Bool

    init(
      _ sql: String, _ reason: String, arguments: [SQLiteValue] = [],
      failure: MigrationError? = nil,
      decodesRows: Bool = false, renamesTable: Bool = false
    ) {
      self.sql = sql
      self.reason = reason
      self.arguments = arguments
      self.failure = failure
      self.decodesRows = decodesRows
      self.renamesTable = renamesTable
    }

    /// `reason` then the SQL.
    public var description: String { reason + "\n     " + sql }
  }

  /// The table concerned.
  public let table: String
  /// How it changes.
  public let strategy: Strategy
  /// The changes found, in the order they are listed.
  public let schemaChanges: [SchemaChange]
  /// The changes found, one line each (column added, removed, renamed, ...): the
  /// descriptions of ``schemaChanges``.
  public var changes: [String] { schemaChanges.map(\.description) }
  /// The steps, in order. Applied in one transaction.
  public internal(set) var steps: [Step]
  /// For a table another program made, being adopted or adopted before: what it has that
  /// the model does not declare, which the plan keeps (declared types, DEFAULTs, foreign
  /// keys, indexes, columns), one line each.
  public internal(set) var kept: [String] = []
  /// For a rebuild, the pages the old table uses, which the rebuild leaves on the file's
  /// free list (counted with SQLite's `dbstat`; `nil` when SQLite was built without it; the
  /// old indexes' pages are freed too, and reused by the new indexes). The file keeps its size: SQLite reuses free pages for later writes, and
  /// `VACUUM` gives them back (``Migrator/reclaimsSpace``). `0` for other strategies.
  public internal(set) var freedPages: Int? = 0
  /// Every change the plan refuses, each with its fix (``MigrationRefusal``), found while
  /// planning: values a removed column holds, a new NOT NULL column without a default,
  /// values that would not convert to a new SQL type or decode as a new Swift type, NULLs
  /// under a new NOT NULL and duplicates under a new UNIQUE constraint, unique index or
  /// primary key, triggers that would not compile, a rebuild that would drop what SQLite
  /// cannot report of an adopted table. Empty when the plan can be applied. ``steps`` are
  /// still listed, to show what the plan would do once the refusals are fixed.
  ///
  /// Some failures show only while applying (rows that break a new CHECK or foreign key,
  /// values that collide only once converted): `migrate` then throws
  /// ``MigrationError/constraintViolated(table:step:message:)`` or
  /// ``MigrationError/foreignKeyViolation(table:)`` and rolls back.
  public internal(set) var refusals: [MigrationRefusal] = []
  /// What this plan could not check on its connection, one line each: a connection that
  /// cannot write even its TEMP schema (a read of ``DatabaseQueue`` or ``DatabasePool``
  /// runs with `PRAGMA query_only`) cannot compile triggers against the new columns or
  /// convert values the way the rebuild would. Applying the plan checks them, and rolls
  /// back when one fails; plan on a connection that can write for a complete dry run.
  public internal(set) var unchecked: [String] = []
  /// The columns whose values are decoded while planning (a Swift type changed, the SQL
  /// type did not), and the query that reads them from the table as it is.
  var decodeCheck: DecodeCheck?
  /// Whether planning decoded every row as the model, for every column whose Swift type
  /// changed: applied in the transaction it was planned in, the plan skips its own decode.
  var rowsDecoded = false

  /// A decode of the rows while planning: the query reading the table as the migration
  /// would write it, the columns reported, and whether they are all the columns whose
  /// Swift type changed.
  struct DecodeCheck {
    var sql: String
    var columns: Set<String>
    var complete: Bool
  }
  /// Decodes every row as the model, for a step that asks for it (a property's Swift type
  /// changed): throws ``MigrationError/valuesDoNotDecode(table:column:type:)``.
  var validator: RowValidator?

  /// The check that decodes every row as the model. It captures only the model's type and
  /// its schema, which are safe to share; a metatype is not `Sendable` to the compiler.
  final class RowValidator: @unchecked Sendable {
    let run: (Connection) throws -> Void
    init(_ run: @escaping (Connection) throws -> Void) { self.run = run }
  }

  /// A plan of `steps` for `table`.
  init(
    table: String, strategy: Strategy, changes: [SchemaChange], steps: [Step],
    validator: RowValidator? = nil
  ) {
    self.table = table
    self.strategy = strategy
    self.schemaChanges = changes
    self.steps = steps
    self.validator = validator
  }

  /// `true` when there is nothing to do (no step and no refusal).
  public var isEmpty: Bool { steps.isEmpty && refusals.isEmpty }

  /// Whether the plan can be applied: it refuses nothing.
  public var canApply: Bool { refusals.isEmpty }

  /// Throws the plan's refusals, if any: the refusal's own ``MigrationError`` case when
  /// there is one, ``MigrationError/refused(table:refusals:)`` when there are more.
  func checkCanApply() throws {
    if let error = MigrationError(table: table, refusals: refusals) { throw error }
  }

  /// Adds the refusals `errors` describe.
  mutating func refuse(_ errors: [MigrationError]) {
    refusals += errors.compactMap(MigrationRefusal.init)
  }

  /// A readable plan: the strategy, the changes, the numbered steps, then the refusals,
  /// each with its fix.
  public var description: String {
    guard !isEmpty else { return "Table \(table) matches the model: nothing to do." }
    var lines = [
      "Migration plan for \(table) (\(strategy.rawValue))"
        + (canApply ? ":" : ", refused (\(refusals.count)): it cannot be applied as it is:")
    ]
    lines += changes.map { "  - " + $0 }
    if !kept.isEmpty {
      lines.append("  keeps what the model does not declare:")
      lines += kept.map { "  = " + $0 }
    }
    for (number, step) in steps.enumerated() { lines.append("  \(number + 1). \(step)") }
    if let freedPages, freedPages > 0 {
      lines.append(
        "  frees \(freedPages) page(s) of the old table (the file keeps its "
          + "size until VACUUM)")
    }
    if !unchecked.isEmpty {
      lines.append("  not checked on this read-only connection (applying checks them):")
      lines += unchecked.map { "  ? " + $0 }
    }
    if !canApply {
      lines.append("  refused, nothing is written until each is fixed:")
      lines += refusals.map { "  ! " + $0.reason + "\n     fix: " + $0.fix }
    }
    return lines.joined(separator: "\n")
  }
}
