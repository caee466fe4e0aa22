/// An aggregate SQL function written in Swift, such as `SELECT median(price) FROM item
/// GROUP BY shop`: SQLite makes one value of the type per group, hands it each row's
/// arguments, then asks it for the group's result.
///
/// ```swift
/// struct Median: SQLAggregate {
///   var values: [Double] = []
///   mutating func step(_ arguments: [SQLiteValue]) throws {
///     if case .real(let value) = arguments[0] { values.append(value) }
///     if case .integer(let value) = arguments[0] { values.append(Double(value)) }
///   }
///   func finish() throws -> (any SQLiteValueConvertible)? {
///     let sorted = values.sorted()
///     return sorted.isEmpty ? nil : sorted[sorted.count / 2]
///   }
/// }
/// let db = try Connection.inMemory()
/// try db.createAggregate("median", argumentCount: 1, Median.self)
/// let median = try db.scalar(Double.self, "SELECT median(value) FROM (SELECT 1 AS value UNION SELECT 5)")
/// ```
///
/// Register it with ``Connection/createAggregate(_:argumentCount:deterministic:_:)``. A
/// value is used by one statement on one thread only, so the type need not be `Sendable`.
public protocol SQLAggregate {
  /// A fresh value for a new group (a group with no rows still gets one, for its result).
  init()
  /// Adds one row's arguments. An error thrown here fails the statement with `SQLiteError`
  /// (`.error`) whose message is the error's description.
  mutating func step(_ arguments: [SQLiteValue]) throws
  /// The group's result: `nil` for NULL. An error thrown here fails the statement as
  /// ``step(_:)``'s do.
  func finish() throws -> (any SQLiteValueConvertible)?
}
