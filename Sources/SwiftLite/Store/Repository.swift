/// A thread-safe DAO for one model, over a ``DatabaseQueue``: the usual hand-written
/// `UserDAO` (`findById`, `findAll`, `create`, `modify`, `remove`), for free.
///
/// ```swift
/// let users = try Repository<User>(DatabaseQueue(path: "app.sqlite"))
/// try users.create(User(userId: "u1", userName: "Ann", userAge: 30))
/// let ann = try users.findById("u1")
/// try users.modify(User(userId: "u1", userName: "Ann", userAge: 31))
/// try users.remove("u1")
/// ```
///
/// The table is created or migrated when the repository is made, outside any transaction
/// (so a rebuild can pause foreign keys as SQLite requires). `modify` and `remove` of a
/// missing row throw ``ModelError/notFound(table:key:)``.
///
/// `Repository` is `Sendable` (it holds only its queue and target): share one across
/// threads and tasks. The models you pass in and get back cross threads only if they are.
public final class Repository<M: Model>: Sendable {
  /// The queue the repository works through.
  public let queue: DatabaseQueue
  /// The per-target table (see ``Model/tableName(target:)``), or `nil` for the model's table.
  public let target: String?

  /// A repository over a queue; creates or migrates the model's table now.
  /// - Parameters:
  ///   - queue: the database.
  ///   - target: selects a per-target table, or `nil`.
  /// - Throws: ``ModelError``, ``MigrationError`` or `SQLiteError` from creating or
  ///   migrating the table.
  public init(_ queue: DatabaseQueue, target: String? = nil) throws {
    self.queue = queue
    self.target = target
    try queue.writeWithoutTransaction { db in try db.createTable(for: M.self, target: target) }
  }

  /// The model with this primary key, or `nil`.
  /// - Throws: `SQLiteError`; `DecodingError` naming the column.
  public func findById(_ id: some SQLiteValueConvertible) throws -> M? {
    let value = try id.sqliteValue()
    return try queue.read { db in try db.find(M.self, key: [value], target: target) }
  }

  /// Every model, optionally ordered (SQL you write, such as `"name"`).
  /// - Throws: `SQLiteError`; `DecodingError`.
  public func findAll(orderBy: String? = nil) throws -> [M] {
    try queue.read { db in try db.findAll(M.self, orderBy: orderBy, target: target) }
  }

  /// The models where a condition holds, its values bound.
  /// - Throws: `SQLiteError`; `DecodingError`.
  public func find(
    where condition: String, _ arguments: StatementArguments = [], orderBy: String? = nil,
    limit: Int? = nil, offset: Int? = nil
  ) throws -> [M] {
    try queue.read { db in
      try db.find(
        M.self, where: condition, arguments, orderBy: orderBy, limit: limit, offset: offset,
        target: target)
    }
  }

  /// Inserts a new row.
  /// - Returns: the new rowid (the assigned key for an integer primary key).
  /// - Throws: `SQLiteError` with `constraintKind` `.primaryKey` when the key exists, or
  ///   `.unique` for another unique column.
  @discardableResult
  public func create(_ model: M) throws -> Int64 {
    try queue.write { db in try db.insert(model, target: target) }
  }

  /// Updates the row with the model's key.
  /// - Throws: ``ModelError/notFound(table:key:)`` when there is none; `SQLiteError`.
  public func modify(_ model: M) throws {
    try queue.write { db in try db.update(model, target: target) }
  }

  /// Inserts or updates by primary key.
  /// - Throws: `SQLiteError`; `EncodingError`.
  public func save(_ model: M) throws {
    try queue.write { db in try db.save(model, target: target) }
  }

  /// Saves many models in one transaction.
  /// - Throws: `SQLiteError`; `EncodingError`. Nothing is saved then.
  public func save(_ models: [M]) throws {
    try queue.write { db in try db.save(models, target: target) }
  }

  /// Deletes the row with this primary key.
  /// - Throws: ``ModelError/notFound(table:key:)`` when there is none; `SQLiteError`.
  public func remove(_ id: some SQLiteValueConvertible) throws {
    let value = try id.sqliteValue()
    try queue.write { db in
      guard try db.delete(M.self, key: [value], target: target) else {
        throw ModelError.notFound(
          table: target.map { M.tableName(target: $0) } ?? M.tableName, key: [value])
      }
    }
  }

  /// The number of rows, or of rows where a condition holds.
  /// - Throws: `SQLiteError`.
  public func count(where condition: String? = nil, _ arguments: StatementArguments = []) throws
    -> Int
  {
    try queue.read { db in try db.count(M.self, where: condition, arguments, target: target) }
  }
}
