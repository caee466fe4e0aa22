/// Why an association (``BelongsTo``, ``HasMany``, ``HasOne``) cannot link its two tables,
/// or why a model's declared foreign key does not match its table.
///
/// An association's columns come from the child model's ``Model/foreignKeys`` when it
/// declares one to the parent's table, else from the foreign keys SQLite reports for the
/// child's table (`PRAGMA foreign_key_list`), read when the query runs on a connection. So
/// these errors are thrown by the query's terminal (`fetchAll`, `fetchCount`...), not when
/// the association or the query is built.
///
/// `Sendable` and `Hashable`, as its associated values are.
public enum RelationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// No foreign key of the child's table references the parent's table: the child model
  /// declares none (or none on `columns`), and SQLite reports none for the table.
  /// - child: the child's table; parent: the parent's table; columns: the association's
  ///   `using:` columns, or `nil`.
  case noForeignKey(child: String, parent: String, columns: [String]?)
  /// Several foreign keys of the child's table reference the parent's table and the
  /// association does not say which: the columns of each. Choose one with `using:`
  /// (`hasMany(Child.self, using: ["column"])`), or declare the one meant in the child's
  /// ``Model/foreignKeys``.
  case ambiguousForeignKeys(child: String, parent: String, candidates: [[String]])
  /// A foreign key the model declares contradicts the foreign keys SQLite reports for the
  /// table it maps onto (other columns, another parent table, or other parent columns):
  /// the declared key, and the table's keys it was compared with. Thrown by the model's
  /// first use on a connection; fix the declaration, or remove it (the table's own keys
  /// then serve the associations).
  case foreignKeyMismatch(
    model: String, table: String, declared: ForeignKey, reported: [ForeignKey])

  /// A sentence naming the tables and what to do.
  public var description: String {
    switch self {
    case .noForeignKey(let child, let parent, let columns):
      let named = columns.map { " on (" + $0.joined(separator: ", ") + ")" } ?? ""
      return "no foreign key\(named) of table \(child) references table \(parent): the child "
        + "model declares none in foreignKeys and SQLite reports none for \(child); declare "
        + "one (ForeignKey([\"...\"], references: \"\(parent)\")), or add REFERENCES to the table"
    case .ambiguousForeignKeys(let child, let parent, let candidates):
      return "several foreign keys of table \(child) reference table \(parent): "
        + candidates.map(Self.list).joined(separator: ", ")
        + "; choose one with using: [\"...\"], or declare the one meant in foreignKeys"
    case .foreignKeyMismatch(let model, let table, let declared, let reported):
      return "\(model) declares the foreign key \(Self.describe(declared)) but table \(table) "
        + "has " + reported.map(Self.describe).joined(separator: " and ")
        + "; declare the table's key, or declare none (the table's keys are then used)"
    }
  }

  /// `(a, b)`.
  private static func list(_ columns: [String]) -> String {
    "(" + columns.joined(separator: ", ") + ")"
  }

  /// `(a) -> parent(b)`, or `(a) -> parent` for the parent's primary key.
  private static func describe(_ key: ForeignKey) -> String {
    list(key.columns) + " -> " + key.table
      + (key.parentColumns.isEmpty ? " (its primary key)" : list(key.parentColumns))
  }
}
