import Foundation

/// One value as SQLite stores it: exactly one of its five storage classes.
///
/// SwiftLite never converts between classes behind your back. Values are always bound to
/// statements (never spliced into SQL), and reading a column gives back the class SQLite
/// actually stored. See <https://sqlite.org/datatype3.html>.
///
/// `SQLiteValue` is `Sendable`, `Hashable` and `Codable`-free by design: it is the raw layer.
///
/// Two values are equal when SQLite would store the same thing: the same class and the same
/// value, and for text the same UTF-8 bytes. Swift's `==` on `String` is canonical
/// equivalence ("caf\u{E9}" equals "cafe\u{301}"); SQLite compares bytes, so
/// `.text("caf\u{E9}")` and `.text("cafe\u{301}")` are two values, in a `Set` or as the keys
/// of a `Dictionary` too.
public enum SQLiteValue: Sendable, Hashable {
  /// The INTEGER storage class: a signed 64-bit integer.
  case integer(Int64)
  /// The REAL storage class: an IEEE 754 double. NaN cannot be stored (SQLite turns it into NULL).
  case real(Double)
  /// The TEXT storage class: UTF-8 text. It may contain NUL characters.
  case text(String)
  /// The BLOB storage class: bytes exactly as given. An empty blob is not NULL.
  case blob(Data)
  /// The NULL storage class.
  case null

  /// The storage class of this value.
  public var storageClass: StorageClass {
    switch self {
    case .integer: return .integer
    case .real: return .real
    case .text: return .text
    case .blob: return .blob
    case .null: return .null
    }
  }

  /// `true` for `.null`.
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// SQLite's five storage classes, named as SQLite names them.
  public enum StorageClass: String, Sendable, Hashable, CustomStringConvertible {
    /// A signed 64-bit integer.
    case integer = "INTEGER"
    /// An 8-byte IEEE floating point number.
    case real = "REAL"
    /// A text string.
    case text = "TEXT"
    /// Bytes, stored exactly as given.
    case blob = "BLOB"
    /// No value.
    case null = "NULL"

    /// The SQL name of the class: `INTEGER`, `REAL`, `TEXT`, `BLOB` or `NULL`.
    public var description: String { rawValue }
  }
}

extension SQLiteValue {
  /// Whether the two values are the same class and value; texts are compared by their UTF-8
  /// bytes, as SQLite compares them (see ``SQLiteValue``). `.real(0)` equals `.real(-0.0)`,
  /// as in SQLite's comparisons (`-0.0 = 0.0` is true, and they are one key of an index),
  /// though some SQL functions tell them apart (`atan2`, `printf`, a division): where that
  /// matters, SwiftLite compares REAL values by their bits instead (the keys of
  /// ``QueryCache``, the changed-column check of model updates).
  public static func == (lhs: SQLiteValue, rhs: SQLiteValue) -> Bool {
    switch (lhs, rhs) {
    case (.integer(let left), .integer(let right)): return left == right
    case (.real(let left), .real(let right)): return left == right
    case (.text(let left), .text(let right)): return left.hasSameBytes(as: right)
    case (.blob(let left), .blob(let right)): return left == right
    case (.null, .null): return true
    default: return false
    }
  }

  /// Hashes the class and the value (a text's UTF-8 bytes), consistently with ``==(_:_:)``.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .integer(let value):
      hasher.combine(0 as UInt8)
      hasher.combine(value)
    case .real(let value):
      hasher.combine(1 as UInt8)
      hasher.combine(value)
    case .text(let value):
      hasher.combine(2 as UInt8)
      value.hashBytes(into: &hasher)
    case .blob(let value):
      hasher.combine(3 as UInt8)
      hasher.combine(value)
    case .null:
      hasher.combine(4 as UInt8)
    }
  }
}

extension SQLiteValue: CustomStringConvertible {
  /// A short human-readable form, such as `42`, `'text'`, `x'00ff'` or `NULL`.
  public var description: String {
    switch self {
    case .integer(let value): return String(value)
    case .real(let value): return String(value)
    case .text(let value): return "'" + value.replacingOccurrences(of: "'", with: "''") + "'"
    case .blob(let data): return "x'" + data.map { String(format: "%02x", $0) }.joined() + "'"
    case .null: return "NULL"
    }
  }
}

extension SQLiteValue: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
  ExpressibleByStringLiteral, ExpressibleByNilLiteral, ExpressibleByBooleanLiteral
{
  /// Creates `.integer` from an integer literal.
  public init(integerLiteral value: Int64) { self = .integer(value) }
  /// Creates `.real` from a floating-point literal.
  public init(floatLiteral value: Double) { self = .real(value) }
  /// Creates `.text` from a string literal.
  public init(stringLiteral value: String) { self = .text(value) }
  /// Creates `.null` from `nil`.
  public init(nilLiteral: ()) { self = .null }
  /// Creates `.integer(1)` or `.integer(0)` from a Boolean literal.
  public init(booleanLiteral value: Bool) { self = .integer(value ? 1 : 0) }
}
