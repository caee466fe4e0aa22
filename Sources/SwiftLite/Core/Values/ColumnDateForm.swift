import Foundation

/// How a model column writes its `Date`s: in the ``SQLiteDateFormat`` the model declares
/// (which drops what the format cannot hold, as the declaration asks), or in the form found
/// in the column (which never drops anything: see ``DateTextForm``). `Sendable`.
@usableFromInline enum ColumnDateForm: Sendable, Hashable {
  /// Declared by the model, or chosen for a column with nothing to learn from.
  case declared(SQLiteDateFormat)
  /// The text form of the column's first value.
  case text(DateTextForm)
  /// INTEGER Unix seconds found in the column: a date with a fraction of a second is
  /// written as REAL seconds instead, which keeps it.
  case wholeSeconds

  /// The form of a table SwiftLite creates.
  static let standard = ColumnDateForm.declared(.standard)

  /// The form a stored value is in; `nil` for a value that is no date or in a text form
  /// ``DateTextForm`` does not describe.
  init?(foundIn value: SQLiteValue) {
    switch value {
    case .integer: self = .wholeSeconds
    case .real(let seconds):
      guard seconds.isFinite else { return nil }
      self = .declared(.unixSecondsReal)
    case .text(let text):
      guard let form = DateTextForm(of: text) else { return nil }
      self = form == .standard ? .standard : .text(form)
    case .blob, .null:
      return nil
    }
  }

  /// Whether this writes what `Date.sqliteValue()` writes.
  var isStandard: Bool { self == .standard || self == .text(.standard) }

  /// The value that stores `date` in this form.
  /// - Throws: `SQLiteError` (`.mismatch`) for a date this form cannot store (not finite,
  ///   outside the years 1 to 9999 in a text form, beyond 64-bit seconds).
  @usableFromInline func value(for date: Date) throws -> SQLiteValue {
    switch self {
    case .declared(let format):
      return try format.value(for: date)
    case .text(let form):
      return .text(try form.text(for: date))
    case .wholeSeconds:
      let seconds = try SQLiteDateFormat.unixSeconds.value(for: date)
      let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
      guard case .integer(let whole) = seconds, Double(whole) * 1000 != milliseconds else {
        return seconds
      }
      return try SQLiteDateFormat.unixSecondsReal.value(for: date)
    }
  }
}
