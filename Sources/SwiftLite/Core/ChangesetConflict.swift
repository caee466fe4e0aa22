import Foundation

/// A change of a changeset that could not be applied as it stands, handed to the conflict
/// handler of ``Connection/apply(_:onConflict:)``, which answers with a ``Resolution``.
///
/// See <https://sqlite.org/session/c_changeset_conflict.html> for the kinds. Values are the
/// table's columns in order (``columns`` names them, as the receiving table declares them);
/// an entry is `nil` where the changeset holds no value: the old values of columns an
/// UPDATE did not change, and every old value but the key's in a patchset.
///
/// A conflict is a value (`Sendable`): it may be kept, logged or thrown.
public struct ChangesetConflict: Sendable, Hashable {
  /// What went wrong.
  public enum Kind: String, Sendable, Hashable {
    /// An UPDATE or DELETE found the row by its key, but other columns do not hold the
    /// values the change expected ("before" values): someone else changed the row.
    /// ``ChangesetConflict/current`` holds the row as it is.
    case data
    /// An UPDATE or DELETE found no row with its key.
    case notFound
    /// An INSERT found a row with the same key. ``ChangesetConflict/current`` holds it.
    case conflict
    /// The change breaks a UNIQUE, CHECK or NOT NULL constraint.
    case constraint
    /// Once every change was made, foreign keys point nowhere: asked once, at the end,
    /// without a table or values (see ``ChangesetConflict/foreignKeyConflicts``).
    case foreignKey
  }

  /// What to do about a conflict.
  public enum Resolution: String, Sendable, Hashable {
    /// Skip this change and go on with the next one (for ``Kind/foreignKey``: commit the
    /// changes anyway, violations included).
    case omit
    /// Make the change win: the row found is updated or deleted (``Kind/data``), or
    /// replaced (``Kind/conflict``). Valid for those two kinds only; any other kind
    /// answered with it rolls everything back and throws
    /// ``ChangesetError/invalidResolution(_:kind:table:)``.
    case replace
    /// Roll every change back; the apply throws ``ChangesetError/aborted(kind:table:)``.
    case abort
  }

  /// The kind of conflict.
  public let kind: Kind
  /// The table of the change; `nil` for ``Kind/foreignKey``.
  public let table: String?
  /// The change; `nil` for ``Kind/foreignKey``.
  public let operation: Changeset.Operation?
  /// The receiving table's column names, in order; empty for ``Kind/foreignKey``.
  public let columns: [String]
  /// Which columns are the primary key, in column order.
  public let primaryKey: [Bool]
  /// The values before the change (UPDATE and DELETE), or `nil`.
  public let old: [SQLiteValue?]?
  /// The values after the change (INSERT and UPDATE), or `nil`.
  public let new: [SQLiteValue?]?
  /// The row now in the database that the change collides with: for ``Kind/data`` and
  /// ``Kind/conflict`` only, `nil` otherwise.
  public let current: [SQLiteValue?]?
  /// For ``Kind/foreignKey``, the number of foreign key violations; 0 otherwise.
  public let foreignKeyConflicts: Int

  /// Whether SQLite accepts `resolution` for this conflict's kind.
  public func allows(_ resolution: Resolution) -> Bool {
    resolution != .replace || kind == .data || kind == .conflict
  }

  /// The old value of a column, or `nil` when the change holds none (or no such column).
  public func old(_ column: String) -> SQLiteValue? { value(column, in: old) }
  /// The new value of a column, or `nil` when the change holds none (or no such column).
  public func new(_ column: String) -> SQLiteValue? { value(column, in: new) }
  /// The value of a column in the row found in the database, or `nil`.
  public func current(_ column: String) -> SQLiteValue? { value(column, in: current) }

  private func value(_ column: String, in values: [SQLiteValue?]?) -> SQLiteValue? {
    guard let values,
      let index = columns.firstIndex(where: { $0.caseInsensitiveCompare(column) == .orderedSame }),
      index < values.count
    else { return nil }
    return values[index]
  }
}
