/// A constraint on one model column, declared in ``Model/columnConstraints``.
public enum ColumnConstraint: Sendable, Hashable {
  /// `UNIQUE`.
  case unique
  /// `NOT NULL` even for an optional property (`true`), or nullable for a non-optional
  /// one (`false`).
  case notNull(Bool)
  /// `DEFAULT <value>`; SwiftLite writes the value as an SQL literal. Also the value that
  /// migration gives existing rows when the column is added.
  case `default`(SQLiteValue)
  /// `CHECK (<expression>)`: SQL you write, such as `"age >= 0"`.
  case check(String)
  /// `COLLATE <name>`, such as `NOCASE`.
  case collate(String)
}
