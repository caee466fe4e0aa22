/// A Swift type that binds to a statement parameter and reads back from a column.
///
/// SwiftLite's own conformances follow one explicit mapping: integers, `Bool` -> INTEGER;
/// `Double`, `Float` -> REAL; `String`, `Substring`, `Character`, `UUID`, `URL`, `Decimal`, `Date` ->
/// TEXT (a `Date` as `YYYY-MM-DD HH:MM:SS.SSS` in UTC, SQLite's own format); `Data`,
/// `[UInt8]` -> BLOB; `Optional.none` -> NULL. Reading accepts a few more classes where the
/// meaning is unambiguous: `Double` and `Float` read exact INTEGERs, `Date` reads INTEGER and
/// REAL Unix seconds, `Decimal` reads INTEGER and REAL, and `Data` and `[UInt8]` read TEXT
/// as its exact bytes.
///
/// Adopt it for your own types. An enum with a raw value gets the whole conformance for
/// free:
///
/// ```swift
/// enum Mood: String, SQLiteValueConvertible { case happy, grumpy }
/// let db = try Connection.inMemory()
/// try db.execute("CREATE TABLE diary(mood TEXT)")
///
/// try db.run("INSERT INTO diary(mood) VALUES (?)", [Mood.happy])
/// let row = try db.queryFirst("SELECT mood FROM diary")!
/// let mood: Mood = try row.get("mood")
/// ```
///
/// Conforming types are `Sendable` so that arguments can cross into a `DatabaseQueue`.
public protocol SQLiteValueConvertible: Sendable {
  /// The storage class a column of this type holds; used to declare columns.
  static var storageClass: SQLiteValue.StorageClass { get }

  /// The value to bind.
  /// - Throws: `SQLiteError` (`.mismatch`) when SQLite cannot store the value faithfully,
  ///   such as NaN (SQLite would store NULL) or a `UInt64` above `Int64.max`.
  func sqliteValue() throws -> SQLiteValue

  /// Reads the type back from a stored value; `nil` when the stored class does not map to
  /// this type or the value is out of its range. Callers turn `nil` into an error that
  /// names the column, this type and the stored class.
  init?(sqliteValue: SQLiteValue)
}

extension SQLiteValue: SQLiteValueConvertible {
  /// Any class: a raw `SQLiteValue` column accepts everything. Declared as BLOB affinity.
  public static var storageClass: SQLiteValue.StorageClass { .blob }
  /// The value itself.
  /// - Throws: `SQLiteError` for `.real(.nan)`, which SQLite would silently store as NULL.
  public func sqliteValue() throws -> SQLiteValue {
    if case .real(let value) = self, value.isNaN { throw SQLiteError.notANumber }
    return self
  }
  /// The value itself; never fails.
  public init?(sqliteValue: SQLiteValue) { self = sqliteValue }
}

extension Optional: SQLiteValueConvertible where Wrapped: SQLiteValueConvertible {
  /// The wrapped type's class.
  public static var storageClass: SQLiteValue.StorageClass { Wrapped.storageClass }
  /// NULL for `nil`, else the wrapped value's.
  /// - Throws: what the wrapped value's conversion throws.
  @inlinable public func sqliteValue() throws -> SQLiteValue {
    switch self {
    case .none: return .null
    case .some(let wrapped): return try wrapped.sqliteValue()
    }
  }
  /// `nil` for NULL, else the wrapped type read from the value (failing when it fails).
  /// Inlinable, so that a read of `String?` is specialized for `String` where it is called
  /// rather than looking up the wrapped type's conformance on every call.
  @inlinable public init?(sqliteValue: SQLiteValue) {
    if case .null = sqliteValue {
      self = .none
      return
    }
    guard let wrapped = Wrapped(sqliteValue: sqliteValue) else { return nil }
    self = .some(wrapped)
  }
}

extension RawRepresentable where Self: SQLiteValueConvertible, RawValue: SQLiteValueConvertible {
  /// The raw value's class.
  public static var storageClass: SQLiteValue.StorageClass { RawValue.storageClass }
  /// The raw value, bound as its own type.
  /// - Throws: what the raw value's conversion throws.
  @inlinable public func sqliteValue() throws -> SQLiteValue { try rawValue.sqliteValue() }
  /// The case whose raw value is stored; `nil` for an unknown raw value.
  @inlinable public init?(sqliteValue: SQLiteValue) {
    guard let raw = RawValue(sqliteValue: sqliteValue) else { return nil }
    self.init(rawValue: raw)
  }
}

extension SQLiteError {
  @usableFromInline static let notANumber =
    SQLiteError(
      extendedCode: .mismatch,
      message: "cannot store NaN: SQLite would silently turn it into NULL")
}
