/// A thread-safe DAO for one model, over a ``DatabaseQueue`` or a ``DatabasePool`` (any
/// ``DatabaseAccess``): the hand-written `UserDAO` (`findById`, `findAll`, `create`,
/// `modify`, `remove`), for free, blocking or `async`.
///
/// ```swift
/// import SwiftLite
///
/// struct User: Model {
///   var userId: String
///   var userName: String
///   var userAge: Int
///   static let primaryKey = ["userId"]
/// }
///
/// func birthday(_ users: Repository<User>) throws {  // synchronous code blocks
///   try users.create(User(userId: "u1", userName: "Ann", userAge: 30))
///   let ann = try users.findById("u1")
///   try users.modify(User(userId: "u1", userName: "Ann", userAge: 31))
///   try users.remove("u1")
///   print(ann?.userAge ?? 0)
/// }
///
/// let users = try Repository<User>(DatabaseQueue(path: "app.sqlite"))
/// try birthday(users)
/// let adults = try await users.findAll(where: "userAge >= ?", [18])  // from a task
/// ```
///
/// Each verb is one of the model operations on ``Connection``, run in a read or a write:
///
/// | Repository | Connection | when no row matches |
/// |---|---|---|
/// | `findById(_:)` | ``Connection/find(_:id:target:)`` | `nil` |
/// | `findAll(orderBy:)`, `findAll(where:...)` | ``Connection/findAll(_:orderBy:limit:offset:target:)``, ``Connection/findAll(_:where:_:orderBy:limit:offset:target:)`` | `[]` |
/// | `count(where:_:)` | ``Connection/count(_:where:_:target:)`` | `0` |
/// | `findAll(including:)`, `findAll(_:of:)`, `findOne(_:of:)` | `fetchAll(_:including:)` of `M.all()`, `fetchAll(_:of:)`, `fetchOne(_:of:)` (associations) | `[]`, `nil` |
/// | `create(_:)` | ``Connection/insert(_:target:)`` | a taken key throws |
/// | `save(_:)` | ``Connection/save(_:target:)-(M,_)`` | inserted |
/// | `modify(_:)` | ``Connection/update(_:target:)`` | ``ModelError/notFound(table:key:)`` |
/// | `modify(_:from:)` | ``Connection/update(_:from:target:)`` | ``ModelError/notFound(table:key:)`` |
/// | `remove(_:)` | ``Connection/delete(_:key:target:)`` | ``ModelError/notFound(table:key:)`` |
///
/// The table is created or migrated when the repository is made, on the writing connection
/// and outside any transaction (so a rebuild can pause foreign keys as SQLite requires):
/// reads never write, so over a pool the readers find the table ready. `modify` and `remove` of a
/// missing row throw ``ModelError/notFound(table:key:)``.
///
/// `Repository` is `Sendable` (it holds only its database and target): share one across
/// threads and tasks. The models you pass in and get back cross threads only if they are;
/// the `async` methods need a `Sendable` model.
public final class Repository<M: Model>: Sendable {
  /// The queue or pool the repository works through.
  public let database: any DatabaseAccess
  /// The per-target table (see ``Model/tableName(target:)``), or `nil` for the model's table.
  public let target: String?

  /// A repository over a queue or a pool; creates or migrates the model's table now.
  /// - Parameters:
  ///   - database: the queue or pool.
  ///   - target: selects a per-target table, or `nil`.
  /// - Throws: ``ModelError``, ``MigrationError`` or `SQLiteError` from creating or
  ///   migrating the table.
  public init(_ database: any DatabaseAccess, target: String? = nil) throws {
    self.database = database
    self.target = target
    try database.writeWithoutTransaction { db in try db.createTable(for: M.self, target: target) }
  }

  /// The model with this primary key, or `nil`.
  /// - Throws: `SQLiteError`; `DecodingError` naming the column.
  public func findById(_ id: some SQLiteValueConvertible) throws -> M? {
    let value = try id.sqliteValue()
    return try database.read { db in try db.find(M.self, key: [value], target: target) }
  }

  /// Every model, optionally ordered (SQL you write, such as `"name"`).
  /// - Throws: `SQLiteError`; `DecodingError`.
  public func findAll(orderBy: String? = nil) throws -> [M] {
    try database.read { db in try db.findAll(M.self, orderBy: orderBy, target: target) }
  }

  /// The models where a condition holds, its values bound.
  /// - Throws: `SQLiteError`; `DecodingError`.
  @_disfavoredOverload
  public func findAll(
    where condition: some StringProtocol, _ arguments: StatementArguments = [],
    orderBy: String? = nil,
    limit: Int? = nil, offset: Int? = nil
  ) throws -> [M] {
    try database.read { db in
      try db.findAll(
        M.self, where: String(condition), arguments, orderBy: orderBy, limit: limit,
        offset: offset,
        target: target)
    }
  }

  /// Inserts a new row.
  /// - Returns: the new rowid (the assigned key for an integer primary key).
  /// - Throws: `SQLiteError` with `constraintKind` `.primaryKey` when the key exists, or
  ///   `.unique` for another unique column.
  @discardableResult
  public func create(_ model: M) throws -> Int64 {
    try database.write { db in try db.insert(model, target: target) }
  }

  /// Updates the row with the model's key.
  /// - Throws: ``ModelError/notFound(table:key:)`` when there is none; `SQLiteError`.
  public func modify(_ model: M) throws {
    try database.write { db in try db.update(model, target: target) }
  }

  /// Updates the row with the model's key, writing only the columns that differ from
  /// `original` (see ``Connection/update(_:from:target:)``).
  /// - Returns: the columns written; empty when nothing changed (nothing ran).
  /// - Throws: ``ModelError/notFound(table:key:)`` when a change had no row to go to;
  ///   `SQLiteError`; `EncodingError`.
  @discardableResult
  public func modify(_ model: M, from original: M) throws -> [String] {
    try database.write { db in try db.update(model, from: original, target: target) }
  }

  /// Inserts or updates by primary key.
  /// - Throws: `SQLiteError`; `EncodingError`.
  public func save(_ model: M) throws {
    try database.write { db in try db.save(model, target: target) }
  }

  /// Saves many models in one transaction.
  /// - Throws: `SQLiteError`; `EncodingError`. Nothing is saved then.
  public func save(_ models: [M]) throws {
    try database.write { db in try db.save(models, target: target) }
  }

  /// Deletes the row with this primary key.
  /// - Throws: ``ModelError/notFound(table:key:)`` when there is none; `SQLiteError`.
  public func remove(_ id: some SQLiteValueConvertible) throws {
    let value = try id.sqliteValue()
    try database.write { db in try db.delete(M.self, key: [value], target: target) }
  }

  /// The number of rows.
  /// - Throws: `SQLiteError`.
  public func count() throws -> Int {
    try database.read { db in try db.count(M.self, target: target) }
  }

  /// The number of rows where a condition holds, its values bound.
  /// - Throws: `SQLiteError`.
  @_disfavoredOverload
  public func count(where condition: (some StringProtocol)?, _ arguments: StatementArguments = [])
    throws
    -> Int
  {
    try database.read { db in
      try db.count(M.self, where: condition.map { String($0) }, arguments, target: target)
    }
  }

  /// The table name the repository's rows live in.
  var tableName: String { target.map { M.tableName(target: $0) } ?? M.tableName }
}

// The same methods for tasks: each suspends instead of blocking a thread.
extension Repository where M: Sendable {
  /// Like ``findById(_:)``, suspending the task instead of blocking it.
  /// - Throws: as ``findById(_:)``.
  public func findById(_ id: some SQLiteValueConvertible) async throws -> M? {
    let value = try id.sqliteValue()
    let target = self.target
    return try await database.read { db in try db.find(M.self, key: [value], target: target) }
  }

  /// Like ``findAll(orderBy:)``, suspending the task instead of blocking it.
  /// - Throws: as ``findAll(orderBy:)``.
  public func findAll(orderBy: String? = nil) async throws -> [M] {
    let target = self.target
    return try await database.read { db in
      try db.findAll(M.self, orderBy: orderBy, target: target)
    }
  }

  /// Like ``findAll(where:_:orderBy:limit:offset:)``, suspending the task instead of blocking it.
  /// - Throws: as ``findAll(where:_:orderBy:limit:offset:)``.
  @_disfavoredOverload
  public func findAll(
    where condition: some StringProtocol, _ arguments: StatementArguments = [],
    orderBy: String? = nil,
    limit: Int? = nil, offset: Int? = nil
  ) async throws -> [M] {
    let target = self.target
    let condition = String(condition)
    return try await database.read { db in
      try db.findAll(
        M.self, where: condition, arguments, orderBy: orderBy, limit: limit, offset: offset,
        target: target)
    }
  }

  /// Like ``create(_:)``, suspending the task instead of blocking it.
  /// - Returns: the new rowid.
  /// - Throws: as ``create(_:)``.
  @discardableResult
  public func create(_ model: M) async throws -> Int64 {
    let target = self.target
    return try await database.write { db in try db.insert(model, target: target) }
  }

  /// Like ``modify(_:)``, suspending the task instead of blocking it.
  /// - Throws: as ``modify(_:)``.
  public func modify(_ model: M) async throws {
    let target = self.target
    try await database.write { db in try db.update(model, target: target) }
  }

  /// Like ``modify(_:from:)``, suspending the task instead of blocking it.
  /// - Throws: as ``modify(_:from:)``.
  @discardableResult
  public func modify(_ model: M, from original: M) async throws -> [String] {
    let target = self.target
    return try await database.write { db in
      try db.update(model, from: original, target: target)
    }
  }

  /// Like ``save(_:)-(M)``, suspending the task instead of blocking it.
  /// - Throws: as ``save(_:)-(M)``.
  public func save(_ model: M) async throws {
    let target = self.target
    try await database.write { db in try db.save(model, target: target) }
  }

  /// Like ``save(_:)-([M])``, suspending the task instead of blocking it.
  /// - Throws: as ``save(_:)-([M])``; nothing is saved then.
  public func save(_ models: [M]) async throws {
    let target = self.target
    try await database.write { db in try db.save(models, target: target) }
  }

  /// Like ``remove(_:)``, suspending the task instead of blocking it.
  /// - Throws: as ``remove(_:)``.
  public func remove(_ id: some SQLiteValueConvertible) async throws {
    let value = try id.sqliteValue()
    let target = self.target
    try await database.write { db in try db.delete(M.self, key: [value], target: target) }
  }

  /// Like ``count()-77cak``, suspending the task instead of blocking it.
  /// - Throws: as the blocking form.
  public func count() async throws -> Int {
    let target = self.target
    return try await database.read { db in try db.count(M.self, target: target) }
  }

  /// Like ``count(where:_:)``, suspending the task instead of blocking it.
  /// - Throws: as ``count(where:_:)``.
  @_disfavoredOverload
  public func count(where condition: (some StringProtocol)?, _ arguments: StatementArguments = [])
    async throws -> Int
  {
    let target = self.target
    let condition = condition.map { String($0) }
    return try await database.read { db in
      try db.count(M.self, where: condition, arguments, target: target)
    }
  }
}
