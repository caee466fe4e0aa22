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
  /// How a `Date` property is written (not an SQL constraint: it is SwiftLite's, and
  /// decides the column's type when SwiftLite creates it: INTEGER for
  /// ``SQLiteDateFormat/unixSeconds``, REAL for ``SQLiteDateFormat/unixSecondsReal``, else
  /// TEXT). Every format is read back whatever the declaration.
  ///
  /// Without it, a table SwiftLite created writes ``SQLiteDateFormat/standard``; a table
  /// another program made (mapped, or adopted) writes the format its column already uses:
  /// the format of the column's first non-NULL value (in the table's order), read once per
  /// connection at the model's first write there; when the column is empty or that value is
  /// in none of ``SQLiteDateFormat``'s forms, a format that loses nothing:
  /// ``SQLiteDateFormat/unixSecondsReal`` in a column of INTEGER or REAL affinity (which
  /// stores whole seconds as INTEGER), else the standard format. So a plain `save`
  /// or `update` of a row read unchanged writes back the same bytes in a column that uses one
  /// format; for a column of mixed formats, `update(_:from:)` writes only what changed.
  case dateFormat(SQLiteDateFormat)
}
