// A repository's rows over time: observation of its table (see DatabaseObservation).
extension Repository where M: Sendable {
  /// Every model, now and after each committed write that changed the table.
  ///
  /// ```swift
  /// struct User: Model, Sendable { var userId: String; var userName: String; static let primaryKey = ["userId"] }
  /// func render(_ users: [User]) { print(users.map(\.userName)) }
  /// let repository = try Repository<User>(DatabaseQueue(path: "app.sqlite"))
  ///
  /// for try await users in repository.observeAll(orderBy: "userName") {
  ///   render(users)
  ///   break  // an app keeps listening; this example stops at the first value
  /// }
  /// ```
  /// - Parameter orderBy: an SQL ordering (SQL you write), or `nil`.
  /// - Returns: a sequence whose iterations each observe the table; one ends when its task
  ///   is cancelled, and throws what a fetch throws (`SQLiteError`, `DecodingError`).
  public func observeAll(orderBy: String? = nil) -> DatabaseObservation<[M]> {
    let target = self.target
    return database.observe { db in try db.findAll(M.self, orderBy: orderBy, target: target) }
  }

  /// The model with this primary key (`nil` while there is none), now and after each
  /// committed write that changed the table.
  /// - Returns: a sequence as ``observeAll(orderBy:)``'s.
  /// - Throws: what converting `id` to an SQLite value throws.
  public func observe(id: some SQLiteValueConvertible) throws -> DatabaseObservation<M?> {
    let value = try id.sqliteValue()
    let target = self.target
    return database.observe { db in try db.find(M.self, key: [value], target: target) }
  }
}
