import Foundation

/// Dates as SQLite's date and time functions write and read them.
///
/// Written: `YYYY-MM-DD HH:MM:SS.SSS` in UTC, what `strftime('%Y-%m-%d %H:%M:%f', ...)`
/// writes, so stored dates compare and sort as text with `datetime()`, `CURRENT_TIMESTAMP`
/// and date literals. The calendar is the proleptic Gregorian one, as SQLite counts:
/// Foundation's Gregorian calendar turns Julian before 1582-10-15, which would write
/// 1526-05-01 for the day SQLite calls 1526-05-11. So the text is computed here, from the
/// count of days since 1970.
///
/// Read: the time-value formats 2 to 10 of SQLite's date functions
/// (<https://sqlite.org/lang_datefunc.html>), parsed by SQLite's own rules so that a text
/// reads as the instant `julianday()` gives it:
///
/// - `YYYY-MM-DD`, `YYYY-MM-DD HH:MM`, `YYYY-MM-DD HH:MM:SS`, `YYYY-MM-DD HH:MM:SS.SSS`,
///   with a space or `T` between date and time (the ISO-8601 form this library wrote
///   before, `2023-11-14T22:13:20.500Z`, is one of them);
/// - `HH:MM`, `HH:MM:SS`, `HH:MM:SS.SSS`, on the date 2000-01-01;
/// - each time optionally followed by `Z` or `±HH:MM`: the value is converted to UTC.
///
/// As in SQLite: any number of fraction digits, counted to the nearest millisecond (the
/// digits past it are added back to the `Date`, as far as a `Double` holds them, so that
/// microseconds read are written back); the hour may be 24 and the day up to 31 in any month, rolling over into the next day or
/// month (`2021-02-30` is 2021-03-02); a year may be 0000 or negative (`-0044-03-15`);
/// whitespace may precede the time zone and follow the value. SQLite's other inputs,
/// `now` and a bare Julian day number as text, are not dates here.
enum SQLiteDateText {
  /// The accepted forms, for error messages.
  static let acceptedForms =
    "YYYY-MM-DD, YYYY-MM-DD HH:MM, YYYY-MM-DD HH:MM:SS, YYYY-MM-DD HH:MM:SS.SSS "
    + "(a space or T between date and time), HH:MM, HH:MM:SS or HH:MM:SS.SSS, "
    + "each time optionally followed by Z or ±HH:MM"

  private static let millisecondsPerDay: Int64 = 86_400_000
  /// 1970-01-01 00:00:00 as SQLite counts time: milliseconds since the Julian day 0.
  private static let unixEpochJulianMilliseconds: Int64 = 210_866_760_000_000
  /// The largest instant SQLite's date functions accept, 9999-12-31 23:59:59.999.
  private static let maxJulianMilliseconds: Int64 = 464_269_060_799_999

  // MARK: Writing

  /// `2026-11-30 01:44:41.123`, the instant `milliseconds` after 1970 in UTC. The caller
  /// checks that the year is within 1...9999.
  static func format(millisecondsSince1970 total: Int64) -> String {
    // Floor division, before 1970 too.
    var days = total / millisecondsPerDay
    var inDay = total % millisecondsPerDay
    if inDay < 0 {
      inDay += millisecondsPerDay
      days -= 1
    }
    let (year, month, day) = civil(fromDays: days)
    return digits(year, 4) + "-" + digits(month, 2) + "-" + digits(day, 2) + " "
      + digits(inDay / 3_600_000, 2) + ":" + digits(inDay / 60_000 % 60, 2) + ":"
      + digits(inDay / 1000 % 60, 2) + "." + digits(inDay % 1000, 3)
  }

  private static func digits(_ value: Int64, _ count: Int) -> String {
    let text = String(value)
    return String(repeating: "0", count: max(0, count - text.count)) + text
  }

  /// The proleptic Gregorian date of a count of days since 1970-01-01 (H. Hinnant's
  /// `civil_from_days`).
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

  // MARK: Reading

  /// The instant a time value denotes, as SQLite's date functions read it; `nil` for text
  /// they reject (return NULL for).
  static func parse(_ text: String) -> Date? {
    var text = text
    let instant = text.withUTF8 { Self.julianMilliseconds(of: $0) }
    guard let (milliseconds, beyond) = instant else { return nil }
    // Milliseconds divided once: the nearest Double, as a literal such as 1.123 is. Digits
    // past the millisecond, which SQLite rounds away, are kept (as far as a Double holds
    // them) so that a date written with them is written back the same.
    return Date(
      timeIntervalSince1970: (Double(milliseconds - unixEpochJulianMilliseconds) + beyond) / 1000)
  }

  /// Milliseconds since the Julian day 0, as SQLite computes them, and what the text's
  /// fraction digits hold past the millisecond that SQLite rounds to (0 for three digits
  /// or fewer), in milliseconds between -0.5 and 0.5; or `nil`.
  private static func julianMilliseconds(
    of bytes: UnsafeBufferPointer<UInt8>
  ) -> (Int64, Double)? {
    // SQLite reads the text as a C string: it ends at the first NUL, as here.
    func byte(_ position: Int) -> UInt8 { position < bytes.count ? bytes[position] : 0 }
    func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (0x09...0x0D).contains(byte) }
    /// `count` digits at `start` whose value lies in `range`.
    func number(_ start: Int, _ count: Int, _ range: ClosedRange<Int64>) -> Int64? {
      var value: Int64 = 0
      for position in start..<(start + count) {
        let digit = byte(position)
        guard isDigit(digit) else { return nil }
        value = value * 10 + Int64(digit - 0x30)
      }
      return range.contains(value) ? value : nil
    }
    /// `HH:MM[:SS[.fraction]]` then an optional zone, then the end: milliseconds into the
    /// day (before the zone is applied) and the zone's offset in minutes.
    func time(at start: Int) -> (milliseconds: Int64, offset: Int64, beyond: Double)? {
      guard let hour = number(start, 2, 0...24), byte(start + 2) == UInt8(ascii: ":"),
        let minute = number(start + 3, 2, 0...59)
      else { return nil }
      var position = start + 5
      var seconds = 0.0
      var fractionDigits = 0
      if byte(position) == UInt8(ascii: ":") {
        guard let whole = number(position + 1, 2, 0...59) else { return nil }
        position += 3
        seconds = Double(whole)
        if byte(position) == UInt8(ascii: "."), isDigit(byte(position + 1)) {
          // Accumulated in a Double and scaled once, as SQLite does.
          var fraction = 0.0
          var scale = 1.0
          position += 1
          while isDigit(byte(position)) {
            fraction = fraction * 10 + Double(byte(position) - 0x30)
            scale *= 10
            position += 1
            fractionDigits += 1
          }
          seconds += fraction / scale
          // Past about 308 digits both overflow and the quotient is NaN, for which SQLite
          // answers NULL: no date.
          guard seconds.isFinite else { return nil }
        }
      }
      while isSpace(byte(position)) { position += 1 }
      var offset: Int64 = 0
      switch byte(position) {
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        let sign: Int64 = byte(position) == UInt8(ascii: "-") ? -1 : 1
        guard let hours = number(position + 1, 2, 0...14),
          byte(position + 3) == UInt8(ascii: ":"),
          let minutes = number(position + 4, 2, 0...59)
        else { return nil }
        offset = sign * (hours * 60 + minutes)
        position += 6
      case UInt8(ascii: "Z"), UInt8(ascii: "z"):
        position += 1
      default:
        break
      }
      while isSpace(byte(position)) { position += 1 }
      guard byte(position) == 0 else { return nil }
      let rounded = Int64(seconds * 1000 + 0.5)
      let beyond = fractionDigits > 3 ? seconds * 1000 - Double(rounded) : 0
      let milliseconds = hour * 3_600_000 + minute * 60_000 + rounded
      return (milliseconds, offset, beyond)
    }

    var year: Int64 = 2000
    var month: Int64 = 1
    var day: Int64 = 1
    var clock: (milliseconds: Int64, offset: Int64, beyond: Double)?
    let sign: Int64 = byte(0) == UInt8(ascii: "-") ? -1 : 1
    let start = sign < 0 ? 1 : 0
    if let y = number(start, 4, 0...9999), byte(start + 4) == UInt8(ascii: "-"),
      let m = number(start + 5, 2, 1...12), byte(start + 7) == UInt8(ascii: "-"),
      let d = number(start + 8, 2, 1...31)
    {
      (year, month, day) = (sign * y, m, d)
      var position = start + 10
      while isSpace(byte(position)) || byte(position) == UInt8(ascii: "T") { position += 1 }
      if byte(position) != 0 {
        guard let parsed = time(at: position) else { return nil }
        clock = parsed
      }
    } else {
      guard let parsed = time(at: 0) else { return nil }
      clock = parsed
    }
    // SQLite's computeJD (Meeus' algorithm, with C's truncating division).
    guard year >= -4713 else { return nil }
    if month <= 2 {
      year -= 1
      month += 12
    }
    let a = year / 100
    let b = 2 - a + a / 4
    let x1 = 36_525 * (year + 4716) / 100
    let x2 = 306_001 * (month + 1) / 10_000
    // (x1 + x2 + day + b - 1524.5) days, in milliseconds.
    var julian = (x1 + x2 + day + b) * millisecondsPerDay - 131_716_800_000
    if let clock { julian += clock.milliseconds - clock.offset * 60_000 }
    guard julian >= 0, julian <= maxJulianMilliseconds else { return nil }
    return (julian, clock?.beyond ?? 0)
  }
}
