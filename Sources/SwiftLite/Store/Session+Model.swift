// Sessions attached to a model's table, created first when it is missing (as a model's
// first write would).
extension Session {
  /// Records the changes of a model's table from now on, creating (or migrating) the
  /// table first as a write of the model would.
  ///
  /// ```swift
  /// struct Note: Model { var id: Int64?; var title: String; static let primaryKey = ["id"] }
  /// let db = try Connection.inMemory()
  ///
  /// let session = try Session(on: db)
  /// try session.attach(Note.self)  // creates Note's table first
  /// try db.save(Note(id: 1, title: "Plan"))
  /// let changes = try session.changeset()
  /// ```
  /// - Parameters:
  ///   - model: the model type.
  ///   - target: the model's target table (see ``Model/tableName(target:)``), if any.
  /// - Throws: what ``Connection/createTable(for:target:)`` throws, then as
  ///   ``attach(_:)``.
  public func attach<M: Model>(_ model: M.Type, target: String? = nil) throws {
    try connection.createTable(for: model, target: target)
    try attach(target.map { M.tableName(target: $0) } ?? M.tableName)
  }
}

extension DatabaseSession {
  /// Records the changes of a model's table from now on, on the writer (see
  /// ``Session/attach(_:target:)``).
  /// - Throws: as ``Session/attach(_:target:)``; `SQLiteError` `.misuse` once closed.
  public func attach<M: Model>(_ model: M.Type, target: String? = nil) throws {
    try withSession { session in try session.attach(model, target: target) }
  }
}
