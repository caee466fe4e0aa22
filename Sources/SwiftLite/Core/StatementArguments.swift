/// The values bound to a statement: by position (`?`, `?NNN`) or by name (`:name`,
/// `@name`, `$name`).
///
/// Write them as literals:
///
/// ```swift
/// let db = try Connection.inMemory()
/// try db.execute("CREATE TABLE user(id TEXT PRIMARY KEY, name TEXT, age INTEGER)")
///
/// try db.run("INSERT INTO user(id, name, age) VALUES (?, ?, ?)", ["u1", "Ann", 42])
/// try db.run("UPDATE user SET age = :age WHERE id = :id", ["age": 43, "id": "u1"])
/// ```
///
/// A `nil` in either form binds NULL. Values are converted when bound, so a value that
/// SQLite cannot store (NaN, a `UInt64` above `Int64.max`) is a thrown error at that point.
public struct StatementArguments: Sendable, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  enum Storage: Sendable {
    case positional([(any SQLiteValueConvertible)?])
    case named([(String, (any SQLiteValueConvertible)?)])
  }

  let storage: Storage

  /// Positional arguments, bound to parameters 1, 2, 3, ... in order.
  public init(_ values: [(any SQLiteValueConvertible)?]) { storage = .positional(values) }

  /// Named arguments. A key may be written with its prefix (`":id"`) or without (`"id"`),
  /// in which case `:`, `@` and `$` are tried in that order.
  public init(named values: [String: (any SQLiteValueConvertible)?]) {
    storage = .named(values.map { ($0.key, $0.value) })
  }

  /// Positional arguments from a literal.
  public init(arrayLiteral elements: (any SQLiteValueConvertible)?...) {
    storage = .positional(elements)
  }

  /// Named arguments from a literal.
  public init(dictionaryLiteral elements: (String, (any SQLiteValueConvertible)?)...) {
    storage = .named(elements)
  }

  /// No arguments.
  public static let none = StatementArguments([])
}
