import SwiftLite

// Which date format a generated model declares for a column.
extension ModelGenerator {
  /// The format every non-NULL value of a column is in, when that is one of
  /// ``SQLiteDateFormat``'s; `nil` for an empty column, another form, or values in several
  /// formats. Without a declaration the model writes the form it finds in the column and
  /// never drops what that form cannot hold (see ``ColumnConstraint/dateFormat(_:)``),
  /// whereas a declared `.date` would drop the time of day the other rows have.
  func dateFormat(of column: String, in table: String) throws -> SQLiteDateFormat? {
    let quoted = SQLIdentifier.quote(column)
    var found: SQLiteDateFormat?
    for row in try db.query(
      "SELECT " + quoted + " FROM " + SQLIdentifier.quote(table) + " WHERE " + quoted
        + " IS NOT NULL")
    {
      // Text that is not UTF-8 is no date: no format.
      guard let value = try? row[0], let format = SQLiteDateFormat(of: value) else { return nil }
      if let found, found != format { return nil }
      found = format
    }
    return found
  }
}
