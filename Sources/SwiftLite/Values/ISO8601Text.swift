import Foundation

/// Dates as SwiftLite stores them: ISO-8601, UTC, millisecond precision.
///
/// The calendar is the proleptic Gregorian one, as ISO-8601 and SQLite's date functions
/// count: Foundation's Gregorian calendar turns Julian before 1582-10-15, which would write
/// 1526-05-01 for the day SQLite calls 1526-05-11. So the stored form is written and read
/// here, from the count of days since 1970.
enum ISO8601Text {
  private static let withMilliseconds = Date.ISO8601FormatStyle(
    includingFractionalSeconds: true, timeZone: .gmt)
  private static let withoutFraction = Date.ISO8601FormatStyle(
    includingFractionalSeconds: false, timeZone: .gmt)

  private static let millisecondsPerDay: Int64 = 86_400_000

  /// `2026-11-30T01:44:41.123Z`, the date rounded to the nearest millisecond.
  static func format(_ date: Date) -> String {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    guard let total = Int64(exactly: milliseconds) else {
      return withMilliseconds.format(Date(timeIntervalSince1970: milliseconds / 1000))
    }
    // Floor division, before 1970 too.
    var days = total / millisecondsPerDay
    var inDay = total % millisecondsPerDay
    if inDay < 0 {
      inDay += millisecondsPerDay
      days -= 1
    }
    let (year, month, day) = civil(fromDays: days)
    guard (1...9999).contains(year) else {
      return withMilliseconds.format(Date(timeIntervalSince1970: milliseconds / 1000))
    }
    return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2) + "T"
      + digits(inDay / 3_600_000, 2) + ":" + digits(inDay / 60_000 % 60, 2) + ":"
      + digits(inDay / 1000 % 60, 2) + "." + digits(inDay % 1000, 3) + "Z"
  }

  /// Parses the stored form, and the same form without fractional seconds (or with any
  /// number of fractional digits). Other ISO-8601 forms, such as those with a UTC offset,
  /// are read by Foundation.
  static func parse(_ text: String) -> Date? {
    let bytes = Array(text.utf8)
    // YYYY-MM-DDTHH:MM:SS, then [.fraction] and Z.
    let shape =
      bytes.count >= 20 && bytes[4] == 0x2D && bytes[7] == 0x2D && bytes[10] == 0x54
      && bytes[13] == 0x3A && bytes[16] == 0x3A && bytes.last == 0x5A
    guard shape else {
      if let date = try? withMilliseconds.parse(text) { return date }
      return try? withoutFraction.parse(text)
    }
    func number(_ range: Range<Int>) -> Int64? {
      var value: Int64 = 0
      for byte in bytes[range] {
        guard (0x30...0x39).contains(byte) else { return nil }
        value = value * 10 + Int64(byte - 0x30)
      }
      return value
    }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      year >= 1, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
      hour < 24, minute < 60, second < 60
    else { return nil }
    // Nothing, or a point and 1 to 9 digits, between the seconds and the Z.
    let fraction = 19..<(bytes.count - 1)
    var nanoseconds: Int64 = 0
    if !fraction.isEmpty {
      guard bytes[19] == 0x2E, (2...10).contains(fraction.count),
        let value = number(20..<fraction.upperBound)
      else { return nil }
      nanoseconds = value
      for _ in fraction.count..<10 { nanoseconds *= 10 }
    }
    let seconds =
      days(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second
    if nanoseconds % 1_000_000 == 0 {
      // Milliseconds divided once: the nearest Double, as a literal such as 1.123 is.
      return Date(timeIntervalSince1970: Double(seconds * 1000 + nanoseconds / 1_000_000) / 1000)
    }
    return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
  }

  private static func digits(_ value: Int64, _ count: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, count - text.count)) + text
  }

  private static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }

  /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
  private static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let year = month <= 2 ? year - 1 : year
    let era = (year >= 0 ? year : year - 399) / 400
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The proleptic Gregorian date of a count of days since 1970-01-01 (`civil_from_days`).
  private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra =
      (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let shiftedMonth = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
    let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
