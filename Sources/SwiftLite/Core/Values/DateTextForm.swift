import Foundation

/// The text form of a date a column already holds: the separator between day and time,
/// how much of the time is written (none, minutes, seconds, 1 to 9 fraction digits) and the
/// zone (none, a `Z`, or a fixed `±HH:MM` offset, written back with the same offset).
///
/// A model column whose format is found rather than declared writes in this form, and
/// never loses what the form cannot hold: a date with a time of day in a day-only form is
/// written `YYYY-MM-DD HH:MM:SS`, a second in a minutes form `HH:MM:SS`, a fraction in a
/// form with fewer digits (or none) `.SSS`; the date found in the column is written back
/// byte for byte. `Sendable`.
@usableFromInline struct DateTextForm: Sendable, Hashable {
  /// How much of the time of day is written.
  enum Clock: Sendable, Hashable {
    /// `YYYY-MM-DD` only.
    case none
    /// `HH:MM`.
    case minutes
    /// `HH:MM:SS`, then `.` and that many digits when above 0.
    case seconds(fractionDigits: Int)
  }

  /// What follows the time.
  enum Zone: Sendable, Hashable {
    case none
    /// `Z` or `z`, as found.
    case letter(UInt8)
    /// `±HH:MM`: the time is written at this offset from UTC, in minutes.
    case offset(minutes: Int)
  }

  /// `T` or a space, between day and time.
  var separator: UInt8
  var clock: Clock
  var zone: Zone

  /// `YYYY-MM-DD HH:MM:SS.SSS`, what a table SwiftLite creates holds.
  static let standard = DateTextForm(
    separator: UInt8(ascii: " "), clock: .seconds(fractionDigits: 3), zone: .none)

  /// The form `text` is written in, when writing the instant it denotes in that form gives
  /// back exactly its bytes; `nil` for another text (a time without a day, a sign or
  /// whitespace SQLite allows, a day such as `2021-02-30` that SQLite rolls over).
  init?(of text: String) {
    let bytes = Array(text.utf8)
    func isDigit(_ position: Int) -> Bool {
      position < bytes.count && (0x30...0x39).contains(bytes[position])
    }
    func digits(_ start: Int, _ count: Int) -> Bool {
      (start..<(start + count)).allSatisfy(isDigit)
    }
    func byte(_ position: Int) -> UInt8? { position < bytes.count ? bytes[position] : nil }
    guard digits(0, 4), byte(4) == UInt8(ascii: "-"), digits(5, 2), byte(7) == UInt8(ascii: "-"),
      digits(8, 2)
    else { return nil }
    var form = DateTextForm(separator: UInt8(ascii: " "), clock: .none, zone: .none)
    var position = 10
    if position < bytes.count {
      guard let separator = byte(10),
        separator == UInt8(ascii: " ") || separator == UInt8(ascii: "T"),
        digits(11, 2), byte(13) == UInt8(ascii: ":"), digits(14, 2)
      else { return nil }
      form.separator = separator
      form.clock = .minutes
      position = 16
      if byte(position) == UInt8(ascii: ":") {
        guard digits(position + 1, 2) else { return nil }
        position += 3
        var count = 0
        if byte(position) == UInt8(ascii: ".") {
          position += 1
          while isDigit(position) {
            count += 1
            position += 1
          }
          guard (1...9).contains(count) else { return nil }
        }
        form.clock = .seconds(fractionDigits: count)
      }
      switch byte(position) {
      case UInt8(ascii: "Z"), UInt8(ascii: "z"):
        form.zone = .letter(bytes[position])
        position += 1
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        guard digits(position + 1, 2), byte(position + 3) == UInt8(ascii: ":"),
          digits(position + 4, 2)
        else { return nil }
        let hours = Int(bytes[position + 1] - 0x30) * 10 + Int(bytes[position + 2] - 0x30)
        let minutes = Int(bytes[position + 4] - 0x30) * 10 + Int(bytes[position + 5] - 0x30)
        let sign = bytes[position] == UInt8(ascii: "-") ? -1 : 1
        // `-00:00` would be written `+00:00`: not this text's form.
        guard sign > 0 || hours + minutes > 0 else { return nil }
        form.zone = .offset(minutes: sign * (hours * 60 + minutes))
        position += 6
      default:
        break
      }
    }
    guard position == bytes.count, let date = SQLiteDateText.parse(text),
      let written = try? form.text(for: date), written.utf8.elementsEqual(bytes)
    else { return nil }
    self = form
  }

  init(separator: UInt8, clock: Clock, zone: Zone) {
    self.separator = separator
    self.clock = clock
    self.zone = zone
  }

  /// `date` in this form, or in the nearest one that holds it (see the type's description),
  /// to the millisecond, or to the form's digits when it has more than three.
  /// - Throws: `SQLiteError` (`.mismatch`) for a date outside the years 1 to 9999 at the
  ///   form's offset, or not finite.
  func text(for date: Date) throws -> String {
    var offsetSeconds = 0.0
    var zoneText = ""
    switch zone {
    case .none: break
    case .letter(let letter): zoneText = String(UnicodeScalar(letter))
    case .offset(let minutes):
      offsetSeconds = Double(minutes * 60)
      let magnitude = abs(minutes)
      zoneText =
        (minutes < 0 ? "-" : "+") + Self.twoDigits(magnitude / 60) + ":"
        + Self.twoDigits(magnitude % 60)
    }
    let shifted = date.timeIntervalSince1970 + offsetSeconds
    if case .seconds(let count) = clock, count > 3 {
      // More digits than milliseconds: from the seconds themselves.
      let whole = shifted.rounded(.down)
      let scale = pow(10, Double(count))
      var units = ((shifted - whole) * scale).rounded()
      var seconds = whole
      if units >= scale {
        units -= scale
        seconds += 1
      }
      guard case .text(let full) = try Date(timeIntervalSince1970: seconds).sqliteValue()
      else { return "" }
      let fraction = String(Int64(units))
      return Self.day(full) + String(UnicodeScalar(separator)) + full.dropFirst(11).prefix(8)
        + "." + String(repeating: "0", count: count - fraction.count) + fraction + zoneText
    }
    guard case .text(let full) = try Date(timeIntervalSince1970: shifted).sqliteValue()
    else { return "" }
    let milliseconds = full.suffix(3)
    let needed =
      milliseconds == "000"
      ? 0 : milliseconds.hasSuffix("00") ? 1 : milliseconds.hasSuffix("0") ? 2 : 3
    let clockText = full.dropFirst(11)
    var written = clock
    switch clock {
    case .none where clockText != "00:00:00.000":
      written = .seconds(fractionDigits: needed == 0 ? 0 : 3)
    case .minutes where !clockText.hasSuffix("00.000"):
      written = .seconds(fractionDigits: needed == 0 ? 0 : 3)
    case .seconds(let count) where needed > count:
      written = .seconds(fractionDigits: 3)
    default:
      break
    }
    // A day-only form has no separator or zone of its own: `datetime()`'s.
    let separator = clock == .none ? " " : String(UnicodeScalar(self.separator))
    switch written {
    case .none:
      return Self.day(full)
    case .minutes:
      return Self.day(full) + separator + clockText.prefix(5) + zoneText
    case .seconds(let count):
      return Self.day(full) + separator + clockText.prefix(count == 0 ? 8 : 9 + count) + zoneText
    }
  }

  private static func day(_ full: String) -> String { String(full.prefix(10)) }

  private static func twoDigits(_ value: Int) -> String {
    value < 10 ? "0" + String(value) : String(value)
  }
}
