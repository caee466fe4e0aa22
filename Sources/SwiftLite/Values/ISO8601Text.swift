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
    return withMilliseconds.format(Date(timeIntervalSince1970: milliseconds / 1000))
  }

  /// Parses the stored form, and the same form without fractional seconds.
  static func parse(_ text: String) -> Date? {
    if let date = try? withMilliseconds.parse(text) { return date }
    return try? withoutFraction.parse(text)
  }
}
