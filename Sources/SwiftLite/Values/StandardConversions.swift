import Foundation

// The explicit mapping of DESIGN.md, one conformance per Swift type.

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
  public func sqliteValue() -> SQLiteValue { .integer(self ? 1 : 0) }
  /// From INTEGER 0 or 1 only.
  public init?(sqliteValue: SQLiteValue) {
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
  public func sqliteValue() -> SQLiteValue { .blob(self) }
  /// From BLOB only.
  public init?(sqliteValue: SQLiteValue) {
    guard case .blob(let value) = sqliteValue else { return nil }
    self = value
  }
}

extension Array: SQLiteValueConvertible where Element == UInt8 {
  /// BLOB.
  public static var storageClass: SQLiteValue.StorageClass { .blob }
  /// `.blob` of the bytes.
  public func sqliteValue() -> SQLiteValue { .blob(Data(self)) }
  /// From BLOB only.
  public init?(sqliteValue: SQLiteValue) {
    guard case .blob(let value) = sqliteValue else { return nil }
    self = [UInt8](value)
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
  public init?(sqliteValue: SQLiteValue) {
    guard case .text(let value) = sqliteValue, isDecimalNumber(value),
      let decimal = Decimal(string: value, locale: Locale(identifier: "en_US_POSIX")),
      // Decimal(string:) rounds away the digits its 128-bit mantissa cannot hold.
      significantDigits(value).elementsEqual(significantDigits(decimal.description))
    else { return nil }
    self = decimal
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
  /// TEXT, ISO-8601 in UTC with milliseconds: `2026-11-30T01:44:41.123Z`.
  public static var storageClass: SQLiteValue.StorageClass { .text }
  /// `.text` of the ISO-8601 form with milliseconds, in UTC.
  /// - Throws: `SQLiteError` (`.mismatch`) for a date outside the years 1 to 9999 (or not
  ///   finite), which the ISO-8601 text form cannot hold so that it reads back.
  public func sqliteValue() throws -> SQLiteValue {
    // 0001-01-01T00:00:00Z ... 9999-12-31T23:59:59.999Z, checked on the milliseconds that
    // are stored: 9999-12-31T23:59:59.9996Z rounds up into the year 10000.
    let milliseconds = (timeIntervalSince1970 * 1000).rounded()
    guard milliseconds >= -62_135_596_800_000, milliseconds < 253_402_300_800_000 else {
      throw SQLiteError(
        extendedCode: .mismatch,
        message: "a Date outside the years 1 to 9999 (or not finite) cannot be stored")
    }
    return .text(ISO8601Text.format(self))
  }
  /// From TEXT in ISO-8601 form, with or without fractional seconds.
  public init?(sqliteValue: SQLiteValue) {
    guard case .text(let value) = sqliteValue, let date = ISO8601Text.parse(value) else {
      return nil
    }
    self = date
  }
}
