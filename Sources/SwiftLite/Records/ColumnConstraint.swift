/// A constraint on one model column, declared in ``Model/columnConstraints``.
public enum ColumnConstraint: Sendable, Hashable {
  /// `UNIQUE`.
  case unique
  /// `NOT NULL` even for an optional property (`true`), or nullable for a non-optional
  /// one (`false`).
  case notNull(Bool)
  /// `DEFAULT <value>`; SwiftLite writes the value as an SQL literal. Also the value that
  /// migration gives existing rows when the column is added.
  ///
  /// With ``notNull(_:)`` `true` on an optional property, `nil` leaves the column to its
  /// default: an insert (or `save` of a new row) stores the default, and an update keeps
  /// the value the row has. (A nullable column stores NULL for `nil`, default or not.)
  case `default`(SQLiteValue)
  /// `DEFAULT <expression>`: SQL you write, put into `CREATE TABLE` as written, such as
  /// `CURRENT_TIMESTAMP`, `CURRENT_DATE` or a parenthesized expression
  /// (`"(strftime('%s', 'now'))"`: SQLite requires the parentheses around anything but a
  /// literal or `CURRENT_*`). Each row gets the expression's value when it is inserted, and
  /// so do existing rows when migration adds the column (by a rebuild: SQLite's
  /// `ADD COLUMN` refuses such defaults). `nil` leaves a NOT NULL column to it, as for
  /// ``default(_:)``:
  ///
  /// ```swift
  /// import Foundation
  ///
  /// struct Note: Model {
  ///   var id: Int64?
  ///   var createdAt: Date?   // nil on insert: SQLite's CURRENT_TIMESTAMP
  ///   static let primaryKey = ["id"]
  ///   static let columnConstraints: [String: [ColumnConstraint]] = [
  ///     "createdAt": [.notNull(true), .defaultExpression("CURRENT_TIMESTAMP")]
  ///   ]
  /// }
  /// let db = try Connection.inMemory()
  /// let note = try db.insertAndFetch(Note(id: nil, createdAt: nil))  // note.createdAt is set
  /// ```
  case defaultExpression(String)
  /// `CHECK (<expression>)`: SQL you write, such as `"age >= 0"`.
  case check(String)
  /// `COLLATE <name>`, such as `NOCASE`.
  case collate(String)
  /// How a `Date` property is written (not an SQL constraint: it is SwiftLite's, and
  /// decides the column's type when SwiftLite creates it: INTEGER for
  /// ``SQLiteDateFormat/unixSeconds``, REAL for ``SQLiteDateFormat/unixSecondsReal``, else
  /// TEXT). Every format is read back whatever the declaration.
  ///
  /// A declared format writes what it declares, dropping what it cannot hold (the time of
  /// day for ``SQLiteDateFormat/date``).
  ///
  /// Without it, a table SwiftLite created writes ``SQLiteDateFormat/standard``; a table
  /// another program made (mapped, or adopted) writes the form its column already uses:
  /// the form of the column's first non-NULL value (in the table's order), read once per
  /// connection at the model's first write there. That is INTEGER or REAL Unix seconds, or
  /// a text form SQLite reads with a day: `T` or a space before the time, minutes, seconds
  /// or 1 to 9 fraction digits, then nothing, `Z`, or a fixed offset such as `+02:00` (the
  /// time is written at that offset). A date that form cannot hold is written in the
  /// nearest form that holds it, to the millisecond (or the form's digits beyond): a time
  /// of day where the form is a day, `YYYY-MM-DD HH:MM:SS`; seconds where it has minutes,
  /// `HH:MM:SS`; a fraction where it has fewer digits, `.SSS`; a fraction in INTEGER
  /// seconds, REAL seconds. When the column is empty or that value is in no such form, a
  /// format that loses nothing: ``SQLiteDateFormat/unixSecondsReal`` in a column of INTEGER
  /// or REAL affinity (which stores whole seconds as INTEGER), else the standard format. So
  /// a plain `save` or `update` of a row read unchanged writes back the same bytes in a
  /// column that uses one form, and loses nothing in a column of several; there,
  /// `update(_:from:)`, which writes only what changed, keeps the other rows' forms too.
  case dateFormat(SQLiteDateFormat)
}
