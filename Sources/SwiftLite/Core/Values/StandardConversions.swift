import Foundation

// The explicit mapping of Swift types to storage classes, one conformance per Swift type.

extension Int64: SQLiteValueConvertible {
  /// INTEGER.
  public static var storageClass: SQLiteValue.StorageClass { .integer }
  /// `.integer(self)`.
  @inlinable public func sqliteValue() -> SQLiteValue { .integer(self) }
  /// From INTEGER only.
  @inlinable public init?(sqliteValue: SQLiteValue) {
    guard case .integer(let value) = sqliteValue else { return nil }
    self = value
  }
}

/// Fixed-width integers other than `Int64` bind as INTEGER and read back only when the
/// stored value fits; a `UInt64` above `Int64.max` cannot be stored and is refused.
extension SQLiteValueConvertible where Self: FixedWidthInteger {
  /// INTEGER.
  public static var storageClass: SQLiteValue.StorageClass { .integer }
  /// `.integer`, or an error when the value does not fit in 64 signed bits.
  /// - Throws: `SQLiteError` (`.mismatch`) for a value above `Int64.max`.
  @inlinable public func sqliteValue() throws -> SQLiteValue {
    guard let value = Int64(exactly: self) else {
      throw SQLiteError(
        extendedCode: .mismatch,
        message: "a \(Self.self) value above Int64.max does not fit in SQLite's 64-bit INTEGER")
    }
    return .integer(value)
  }
  /// From INTEGER only, when the value fits in this type.
  @inlinable public init?(sqliteValue: SQLiteValue) {
    guard case .integer(let value) = sqliteValue, let exact = Self(exactly: value) else {
      return nil
    }
    self = exact
  }
}

extension Int: SQLiteValueConvertible {}
extension Int8: SQLiteValueConvertible {}
extension Int16: SQLiteValueConvertible {}
extension Int32: SQLiteValueConvertible {}
extension UInt: SQLiteValueConvertible {}
extension UInt8: SQLiteValueConvertible {}
extension UInt16: SQLiteValueConvertible {}
extension UInt32: SQLiteValueConvertible {}
extension UInt64: SQLiteValueConvertible {}

extension Bool: SQLiteValueConvertible {
  /// INTEGER (0 or 1).
  public static var storageClass: SQLiteValue.StorageClass { .integer }
  /// `.integer(1)` or `.integer(0)`.
  @inlinable public func sqliteValue() -> SQLiteValue { .integer(self ? 1 : 0) }
  /// From INTEGER 0 or 1 only.
  @inlinable public init?(sqliteValue: SQLiteValue) {
    switch sqliteValue {
    case .integer(0): self = false
    case .integer(1): self = true
    default: return nil
    }
  }
}

extension Double: SQLiteValueConvertible {
  /// REAL.
  public static var storageClass: SQLiteValue.StorageClass { .real }
  /// `.real`, refusing NaN.
  /// - Throws: `SQLiteError` (`.mismatch`) for NaN, which SQLite would store as NULL.
  @inlinable public func sqliteValue() throws -> SQLiteValue {
    guard !isNaN else { throw SQLiteError.notANumber }
    return .real(self)
  }
  /// From REAL, or from INTEGER when exactly representable (up to 2^53).
  @inlinable public init?(sqliteValue: SQLiteValue) {
    switch sqliteValue {
    case .real(let value): self = value
    case .integer(let value):
      guard let exact = Double(exactly: value) else { return nil }
      self = exact
    default: return nil
    }
  }
}

extension Float: SQLiteValueConvertible {
  /// REAL.
  public static var storageClass: SQLiteValue.StorageClass { .real }
  /// `.real`, refusing NaN.
  /// - Throws: `SQLiteError` (`.mismatch`) for NaN.
  public func sqliteValue() throws -> SQLiteValue { try Double(self).sqliteValue() }
  /// From REAL, narrowed to `Float`, or from INTEGER when exactly representable (up to
  /// 2^24, as `Double` reads INTEGER up to 2^53); `nil` for a finite value beyond
  /// `Float`'s range (it would silently become infinity).
  public init?(sqliteValue: SQLiteValue) {
    if case .integer(let integer) = sqliteValue {
      guard let exact = Float(exactly: integer) else { return nil }
      self = exact
      return
    }
    guard let value = Double(sqliteValue: sqliteValue) else { return nil }
    let narrowed = Float(value)
    guard narrowed.isFinite || !value.isFinite else { return nil }
    self = narrowed
  }
}

extension String: SQLiteValueConvertible {
  /// TEXT.
  public static var storageClass: SQLiteValue.StorageClass { .text }
  /// `.text(self)`.
  @inlinable public func sqliteValue() -> SQLiteValue { .text(self) }
  /// From TEXT only.
  @inlinable public init?(sqliteValue: SQLiteValue) {
    guard case .text(let value) = sqliteValue else { return nil }
    self = value
  }
}

extension Substring: SQLiteValueConvertible {
  /// TEXT.
  public static var storageClass: SQLiteValue.StorageClass { .text }
  /// `.text` of the substring's characters (a part of a `split`, say).
  public func sqliteValue() -> SQLiteValue { .text(String(self)) }
  /// From TEXT only.
  public init?(sqliteValue: SQLiteValue) {
    guard case .text(let value) = sqliteValue else { return nil }
    self = Substring(value)
  }
}

extension Character: SQLiteValueConvertible {
  /// TEXT.
  public static var storageClass: SQLiteValue.StorageClass { .text }
  /// `.text` of the one character.
  public func sqliteValue() -> SQLiteValue { .text(String(self)) }
  /// From TEXT holding exactly one character.
  public init?(sqliteValue: SQLiteValue) {
    guard case .text(let value) = sqliteValue, value.count == 1, let first = value.first else {
      return nil
    }
    self = first
  }
}

extension Data: SQLiteValueConvertible {
  /// BLOB.
  public static var storageClass: SQLiteValue.StorageClass { .blob }
  /// `.blob(self)`; an empty `Data` is an empty blob, not NULL.
  @inlinable public func sqliteValue() -> SQLiteValue { .blob(self) }
  /// From BLOB, and from TEXT as its exact UTF-8 bytes: the one conversion between storage
  /// classes, so that text which is not valid UTF-8 (and cannot be read as a `String`)
  /// can still be read, byte for byte. Written back, the bytes are a BLOB.
  public init?(sqliteValue: SQLiteValue) {
    switch sqliteValue {
    case .blob(let value): self = value
    case .text(let value): self = Data(value.utf8)
    default: return nil
    }
  }
}

extension Array: SQLiteValueConvertible where Element == UInt8 {
  /// BLOB.
  public static var storageClass: SQLiteValue.StorageClass { .blob }
  /// `.blob` of the bytes.
  public func sqliteValue() -> SQLiteValue { .blob(Data(self)) }
  /// From BLOB, and from TEXT as its exact UTF-8 bytes, as `Data` reads them.
  public init?(sqliteValue: SQLiteValue) {
    switch sqliteValue {
    case .blob(let value): self = [UInt8](value)
    case .text(let value): self = Array(value.utf8)
    default: return nil
    }
  }
}

extension UUID: SQLiteValueConvertible {
  /// TEXT, the canonical upper-case form.
  public static var storageClass: SQLiteValue.StorageClass { .text }
  /// `.text(uuidString)`.
  public func sqliteValue() -> SQLiteValue { .text(uuidString) }
  /// From TEXT in the canonical form (either case).
  public init?(sqliteValue: SQLiteValue) {
    guard case .text(let value) = sqliteValue, let uuid = UUID(uuidString: value) else {
      return nil
    }
    self = uuid
  }
}

extension URL: SQLiteValueConvertible {
  /// TEXT, the absolute string.
  public static var storageClass: SQLiteValue.StorageClass { .text }
  /// `.text(absoluteString)`.
  public func sqliteValue() -> SQLiteValue { .text(absoluteString) }
  /// From TEXT that parses as a URL.
  public init?(sqliteValue: SQLiteValue) {
    guard case .text(let value) = sqliteValue, let url = URL(string: value) else { return nil }
    self = url
  }
}

extension Decimal: SQLiteValueConvertible {
  /// TEXT, so no digit is lost to floating point.
  public static var storageClass: SQLiteValue.StorageClass { .text }
  /// `.text` of the exact decimal digits.
  /// - Throws: `SQLiteError` (`.mismatch`) for NaN: it has no digits, and the text
  ///   `"NaN"` would not read back as a `Decimal`.
  public func sqliteValue() throws -> SQLiteValue {
    guard !isNaN else {
      throw SQLiteError(
        extendedCode: .mismatch,
        message: "cannot store a Decimal NaN: it has no digits and would not read back")
    }
    return .text(description)
  }
  /// From TEXT holding a decimal number written with a `.` separator (and an optional
  /// exponent), nothing else: `Decimal(string:)` alone would read `"1.5abc"` as 1.5. Text
  /// with more significant digits than a `Decimal` holds (38 or 39) is refused, not rounded.
  ///
  /// From INTEGER exactly, and from REAL through its shortest round-trip decimal text
  /// (Swift's description of a `Double`: the fewest digits that read back as the same
  /// `Double`), so `0.1` stored as REAL reads as `0.1`, not as the binary value's 55 digits.
  /// A non-finite REAL is refused.
  public init?(sqliteValue: SQLiteValue) {
    let text: String
    switch sqliteValue {
    case .integer(let value):
      self.init(value)
      return
    case .real(let value):
      guard value.isFinite else { return nil }
      text = "\(value)"
    case .text(let value):
      text = value
    case .blob, .null:
      return nil
    }
    guard isDecimalNumber(text),
      let decimal = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")),
      // Decimal(string:) rounds away the digits its 128-bit mantissa cannot hold.
      significantDigits(text).elementsEqual(significantDigits(decimal.description))
    else { return nil }
    self = decimal
  }
}

extension Decimal: ExplainedConversion {
  static func expectation(for stored: SQLiteValue) -> String? {
    switch stored {
    case .text:
      return "the text is not a plain decimal number (digits, an optional '.' and exponent) "
        + "or has more significant digits than a Decimal holds"
    case .real:
      return "the REAL is not finite, or its digits do not fit a Decimal"
    default:
      return nil
    }
  }
}

/// The digits of a number's mantissa without sign, point, exponent, or leading and
/// trailing zeros: `"-0012.3400e5"` gives `1234`.
private func significantDigits(_ text: String) -> ArraySlice<UInt8> {
  let mantissa = text.utf8.prefix { $0 != UInt8(ascii: "e") && $0 != UInt8(ascii: "E") }
  let digits = mantissa.filter { (0x30...0x39).contains($0) }[...]
  let start = digits.firstIndex { $0 != UInt8(ascii: "0") } ?? digits.endIndex
  let end = digits.lastIndex { $0 != UInt8(ascii: "0") }.map { $0 + 1 } ?? digits.endIndex
  return start < end ? digits[start..<end] : []
}

/// `[+-]? (digits [. digits?] | . digits) ([eE] [+-]? digits)?`, and nothing around it.
private func isDecimalNumber(_ text: String) -> Bool {
  var bytes = text.utf8[...]
  func isDigit(_ byte: UInt8?) -> Bool { byte.map { (0x30...0x39).contains($0) } ?? false }
  func skipDigits() -> Int {
    var count = 0
    while isDigit(bytes.first) {
      bytes.removeFirst()
      count += 1
    }
    return count
  }
  if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
  var digits = skipDigits()
  if bytes.first == UInt8(ascii: ".") {
    bytes.removeFirst()
    digits += skipDigits()
  }
  guard digits > 0 else { return false }
  if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
    bytes.removeFirst()
    if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes.removeFirst() }
    guard skipDigits() > 0 else { return false }
  }
  return bytes.isEmpty
}

extension Date: SQLiteValueConvertible {
  /// TEXT in SQLite's own format, `YYYY-MM-DD HH:MM:SS.SSS` in UTC.
  public static var storageClass: SQLiteValue.StorageClass { .text }
  /// `.text` of `YYYY-MM-DD HH:MM:SS.SSS` in UTC, the date rounded to the nearest
  /// millisecond: exactly what `strftime('%Y-%m-%d %H:%M:%f', ...)` writes, so stored dates
  /// compare and sort with `datetime()`, `CURRENT_TIMESTAMP` and literals such as
  /// `'2023-11-14'`. Days are counted in the proleptic Gregorian calendar, as SQLite counts.
  /// (``SQLiteDateFormat/standard``; ``SQLiteDateFormat`` writes the other forms, and a model
  /// column declares one with ``ColumnConstraint/dateFormat(_:)``.)
  /// - Throws: `SQLiteError` (`.mismatch`) for a date outside the years 1 to 9999 (or not
  ///   finite), which the four-digit text form cannot hold.
  public func sqliteValue() throws -> SQLiteValue {
    // 0001-01-01 00:00:00.000 ... 9999-12-31 23:59:59.999, checked on the milliseconds that
    // are stored: 9999-12-31 23:59:59.9996 rounds up into the year 10000.
    let milliseconds = (timeIntervalSince1970 * 1000).rounded()
    guard milliseconds >= -62_135_596_800_000, milliseconds < 253_402_300_800_000 else {
      throw SQLiteError(
        extendedCode: .mismatch,
        message: "a Date outside the years 1 to 9999 (or not finite) cannot be stored")
    }
    return .text(SQLiteDateText.format(millisecondsSince1970: Int64(milliseconds)))
  }
  /// From TEXT in any of the time-value formats of SQLite's date functions (`YYYY-MM-DD`,
  /// `YYYY-MM-DD HH:MM[:SS[.SSS]]` with a space or `T`, `HH:MM[:SS[.SSS]]` on 2000-01-01,
  /// each time optionally followed by `Z` or `±HH:MM`), read as `julianday()` reads it;
  /// this includes the ISO-8601 text earlier versions wrote (`2023-11-14T22:13:20.500Z`).
  ///
  /// From INTEGER or REAL as Unix seconds, what `strftime('%s', ...)`, `unixepoch()` and
  /// most applications write. Not as a Julian day number: a REAL Julian day and a REAL Unix
  /// time cannot be told apart, so one reading had to be chosen. INTEGER is read when a
  /// `Double` holds it exactly (up to 2^53), REAL when finite.
  public init?(sqliteValue: SQLiteValue) {
    switch sqliteValue {
    case .text(let value):
      guard let date = SQLiteDateText.parse(value) else { return nil }
      self = date
    case .integer(let seconds):
      guard let exact = Double(exactly: seconds) else { return nil }
      self.init(timeIntervalSince1970: exact)
    case .real(let seconds):
      guard seconds.isFinite else { return nil }
      self.init(timeIntervalSince1970: seconds)
    case .blob, .null:
      return nil
    }
  }
}

extension Date: ExplainedConversion {
  static func expectation(for stored: SQLiteValue) -> String? {
    switch stored {
    case .text:
      return "the text is not a date SQLite reads; accepted: \(SQLiteDateText.acceptedForms)"
        + ", or INTEGER/REAL Unix seconds"
    case .integer, .real:
      return "Unix seconds must be finite (an INTEGER up to 2^53)"
    default:
      return nil
    }
  }
}
