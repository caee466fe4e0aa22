import Foundation

/// How a `Date` is written into a column: one of the forms SQLite's date and time functions
/// read (<https://sqlite.org/lang_datefunc.html>), or Unix seconds.
///
/// Every form is read back, whatever the column declares (see `Date`'s conformance to
/// ``SQLiteValueConvertible``); the format decides only what is written. Declare one per
/// model column with ``ColumnConstraint/dateFormat(_:)``:
///
/// ```swift
/// import Foundation
///
/// struct Order: Model {
///   var id: Int64?
///   var day: Date        // stored as '2016-07-05'
///   static let primaryKey = ["id"]
///   static let columnConstraints: [String: [ColumnConstraint]] = ["day": [.dateFormat(.date)]]
/// }
/// let db = try Connection.inMemory()
/// try db.save(Order(id: 1, day: Date(timeIntervalSince1970: 1_467_676_800)))
/// let day = try db.scalar(String.self, "SELECT day FROM \"Order\"")  // "2016-07-05"
/// ```
///
/// Without a declaration a table SwiftLite creates gets ``dateTimeMilliseconds``; a table
/// another program made keeps the form its column already uses, one of these or another
/// text form, widened when a date needs it (see ``ColumnConstraint/dateFormat(_:)``). Text forms are in UTC, with days counted in the
/// proleptic Gregorian calendar as SQLite counts them; a form without milliseconds (or
/// without a time) drops them, as SQLite's `datetime()` and `date()` do. `Sendable`.
public enum SQLiteDateFormat: Sendable, Hashable, CaseIterable {
  /// TEXT `YYYY-MM-DD`, what `date()` writes: the day in UTC, the time of day dropped.
  case date
  /// TEXT `YYYY-MM-DD HH:MM:SS`, what `datetime()` and `CURRENT_TIMESTAMP` write.
  case dateTime
  /// TEXT `YYYY-MM-DD HH:MM:SS.SSS`, what `strftime('%Y-%m-%d %H:%M:%f', ...)` writes:
  /// ``standard``, the format of a table SwiftLite creates.
  case dateTimeMilliseconds
  /// TEXT `YYYY-MM-DDTHH:MM:SSZ`, ISO 8601 with `T` and `Z`.
  case iso8601
  /// TEXT `YYYY-MM-DDTHH:MM:SS.SSSZ`, ISO 8601 with `T`, milliseconds and `Z`.
  case iso8601Milliseconds
  /// INTEGER Unix seconds, what `unixepoch()` writes; the fraction of a second is dropped.
  case unixSeconds
  /// REAL Unix seconds, with the fraction.
  case unixSecondsReal

  /// ``dateTimeMilliseconds``: SQLite's own full-precision text, which sorts and compares
  /// with `datetime()`, `CURRENT_TIMESTAMP` and date literals.
  public static let standard = SQLiteDateFormat.dateTimeMilliseconds

  /// The storage class values of this format have: TEXT, INTEGER or REAL.
  public var storageClass: SQLiteValue.StorageClass {
    switch self {
    case .unixSeconds: return .integer
    case .unixSecondsReal: return .real
    default: return .text
    }
  }

  /// The value that stores `date` in this format.
  /// - Throws: `SQLiteError` (`.mismatch`) for a date that is not finite, or outside the
  ///   years 1 to 9999 in a text form (four digits cannot hold it) or beyond 64-bit
  ///   seconds as an INTEGER.
  public func value(for date: Date) throws -> SQLiteValue {
    let seconds = date.timeIntervalSince1970
    switch self {
    case .unixSecondsReal:
      guard seconds.isFinite else { throw SQLiteError.unstorableUnixDate }
      return .real(seconds)
    case .unixSeconds:
      // Rounded to the millisecond first, as the text forms are, then the second it falls in.
      let milliseconds = (seconds * 1000).rounded()
      guard milliseconds.isFinite, let whole = Int64(exactly: (milliseconds / 1000).rounded(.down))
      else { throw SQLiteError.unstorableUnixDate }
      return .integer(whole)
    default:
      // The text forms are cut from the standard one, which checks the years.
      let full = try date.sqliteValue()
      guard case .text(let text) = full else { return full }
      return .text(self.text(fromStandard: text))
    }
  }

  /// This format's text, cut from `YYYY-MM-DD HH:MM:SS.SSS`.
  private func text(fromStandard full: String) -> String {
    let day = full.prefix(10)
    let clock = full.dropFirst(11)
    switch self {
    case .date: return String(day)
    case .dateTime: return String(full.prefix(19))
    case .iso8601: return day + "T" + clock.prefix(8) + "Z"
    case .iso8601Milliseconds: return day + "T" + clock + "Z"
    default: return full
    }
  }

  /// The format a stored value is written in, or `nil` when it is in none of them: every
  /// INTEGER is ``unixSeconds`` and every finite REAL ``unixSecondsReal``; a text is in a
  /// format when that format writes exactly the same bytes for the instant the text denotes
  /// (so `2021-02-30`, which SQLite reads as March 2nd, is in none, and neither is a time
  /// with a zone offset or another number of fraction digits).
  public init?(of value: SQLiteValue) {
    switch value {
    case .integer:
      self = .unixSeconds
    case .real(let seconds):
      guard seconds.isFinite else { return nil }
      self = .unixSecondsReal
    case .text(let text):
      guard let date = SQLiteDateText.parse(text),
        case .text(let full) = try? date.sqliteValue()
      else { return nil }
      let bytes = Array(text.utf8)
      let candidates: [SQLiteDateFormat] = [
        .date, .dateTime, .dateTimeMilliseconds, .iso8601, .iso8601Milliseconds,
      ]
      guard
        let format = candidates.first(where: { Array($0.text(fromStandard: full).utf8) == bytes })
      else { return nil }
      self = format
    case .blob, .null:
      return nil
    }
  }
}

extension SQLiteError {
  static let unstorableUnixDate = SQLiteError(
    extendedCode: .mismatch,
    message: "a Date that is not finite, or beyond 64-bit Unix seconds, cannot be stored")
}
