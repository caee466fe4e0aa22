// Records and values from your own SQL through a queue or a pool: each call is one read
// (one snapshot), as `read { db in try db.fetchAll(...) }` is.
extension DatabaseAccess {
  /// The rows of a query decoded as `T`, in one read (see `Connection.fetchAll(_:_:)`).
  /// - Throws: as `Connection.fetchAll(_:_:)`, and as `read(_:)`.
  @_disfavoredOverload
  public func fetchAll<T: Decodable>(_ type: T.Type, _ sql: SQL) throws -> [T] {
    try read { db in try db.fetchAll(type, sql) }
  }

  /// The first row of a query decoded as `T`, or `nil`, in one read.
  /// - Throws: as ``Connection/fetchOne(_:_:)``.
  public func fetchOne<T: Decodable>(_ type: T.Type, _ sql: SQL) throws -> T? {
    try read { db in try db.fetchOne(type, sql) }
  }

  /// The first column of every row of a query as `T`, in one read.
  /// - Throws: as `Connection.fetchAll(_:_:)`.
  public func fetchAll<T: SQLiteValueConvertible>(_ type: T.Type, _ sql: SQL) throws -> [T] {
    try read { db in try db.fetchAll(type, sql) }
  }

  /// Like `fetchAll(_:_:)`, suspending the task instead of blocking it.
  /// - Throws: as the blocking form.
  @_disfavoredOverload
  public func fetchAll<T: Decodable & Sendable>(_ type: T.Type, _ sql: SQL) async throws -> [T] {
    try await read { db in try db.fetchAll(type, sql) }
  }

  /// Like ``fetchOne(_:_:)``, suspending the task instead of blocking it.
  /// - Throws: as the blocking form.
  public func fetchOne<T: Decodable & Sendable>(_ type: T.Type, _ sql: SQL) async throws -> T? {
    try await read { db in try db.fetchOne(type, sql) }
  }

  /// Like the blocking array of values, suspending the task instead of blocking it.
  /// - Throws: as the blocking form.
  public func fetchAll<T: SQLiteValueConvertible & Sendable>(_ type: T.Type, _ sql: SQL)
    async throws -> [T]
  {
    try await read { db in try db.fetchAll(type, sql) }
  }
}

extension Repository {
  /// The repository's models from a query you write, in one read: its columns are matched
  /// to the model's properties by name, extra columns ignored.
  ///
  /// ```swift
  /// struct Note: Model { var id: Int64?; var title: String; var isPinned: Bool; static let primaryKey = ["id"] }
  /// let notes = try Repository<Note>(DatabaseQueue(path: "notes.sqlite"))
  /// try await notes.save(Note(id: 1, title: "Plan", isPinned: true))
  ///
  /// let pinned = try await notes.fetchAll("SELECT * FROM note WHERE isPinned ORDER BY title")
  /// ```
  /// - Throws: as `Connection.fetchAll(_:_:)`.
  public func fetchAll(_ sql: SQL) throws -> [M] {
    try database.read { db in try db.fetchAll(M.self, sql) }
  }
}

extension Repository where M: Sendable {
  /// Like `fetchAll(_:)`, suspending the task instead of blocking it.
  /// - Throws: as the blocking form.
  public func fetchAll(_ sql: SQL) async throws -> [M] {
    try await database.read { db in try db.fetchAll(M.self, sql) }
  }
}
