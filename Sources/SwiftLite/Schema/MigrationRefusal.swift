/// One change a migration plan refuses, found while planning, before anything is written:
/// the table, what it concerns, why, and what to do about it. ``MigrationPlan/refusals``
/// lists every refusal of a plan; a plan with any cannot be applied, and `migrate` throws
/// them (see ``MigrationError/refusals``).
///
/// ```swift
/// struct Person: Model {
///   var id: Int64?
///   var name: String
///   static let primaryKey = ["id"]
/// }
/// // The next release: `name` removed, `age` new, NOT NULL and without a default.
/// struct PersonV2: Model {
///   var id: Int64?
///   var age: Int
///   static let tableName = "Person"
///   static let primaryKey = ["id"]
/// }
/// let db = try Connection.inMemory()
/// try db.save(Person(id: nil, name: "Ann"))
/// let plan = try db.migrationPlan(for: PersonV2.self)
/// for refusal in plan.refusals { print(refusal.subject, "-", refusal.fix) }
/// // column name - add "name" to the model's droppableColumns to drop them, ...
/// // column age - make the property optional or declare .default(...) in columnConstraints
/// ```
///
/// `Sendable`: a value of strings.
public struct MigrationRefusal: Sendable, Hashable, CustomStringConvertible {
  /// The refusal as the error `migrate` throws when it is a plan's only one
  /// (``MigrationError/wouldLoseData(table:column:rows:)``, ...): to match on its kind.
  public let error: MigrationError
  /// The table concerned.
  public let table: String
  /// What it concerns: `column note`, `trigger(s) note_gone`, or the changes that need a
  /// rebuild.
  public let subject: String
  /// Why it is refused, in words, naming the table.
  public let reason: String
  /// What to do: add a default, declare the column droppable, convert the values first, ...
  public let fix: String

  /// The refusal `error` describes, or `nil` for an error found while applying a plan
  /// (and for ``MigrationError/refused(table:refusals:)``, which holds several).
  init?(_ error: MigrationError) {
    if case .refused = error { return nil }
    guard let parts = error.refusalParts else { return nil }
    self.error = error
    (table, subject, reason, fix) = parts
  }

  /// The reason, then the fix.
  public var description: String { reason + "; fix: " + fix }
}
