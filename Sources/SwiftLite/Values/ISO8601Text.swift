import Foundation

/// Dates as SwiftLite stores them: ISO-8601, UTC, millisecond precision.
enum ISO8601Text {
  private static let withMilliseconds = Date.ISO8601FormatStyle(
    includingFractionalSeconds: true, timeZone: .gmt)
  private static let withoutFraction = Date.ISO8601FormatStyle(
    includingFractionalSeconds: false, timeZone: .gmt)

  /// `2026-11-30T01:44:41.123Z`, the date rounded to the nearest millisecond.
  static func format(_ date: Date) -> String {
    let milliseconds = (date.timeIntervalSince1970 * 1000).rounded()
    // The formatter truncates the binary fraction (.123 is stored as .12299...), so it
    // writes the whole seconds and the milliseconds are appended as an exact integer.
    guard let total = Int64(exactly: milliseconds) else {
      return withMilliseconds.format(Date(timeIntervalSince1970: milliseconds / 1000))
    }
    let seconds = total >= 0 ? total / 1000 : (total - 999) / 1000  // floor, before 1970 too
    let fraction = Int(total - seconds * 1000)
    var text = withoutFraction.format(Date(timeIntervalSince1970: Double(seconds)))
    guard text.hasSuffix("Z") else {
      return withMilliseconds.format(Date(timeIntervalSince1970: milliseconds / 1000))
    }
    text.removeLast()
    let digits = String(fraction)
    return text + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
  }

  /// Parses the stored form, and the same form without fractional seconds.
  static func parse(_ text: String) -> Date? {
    if let date = try? withMilliseconds.parse(text) { return date }
    return try? withoutFraction.parse(text)
  }
}
