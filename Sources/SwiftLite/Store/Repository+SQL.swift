// The repository's conditions written by interpolation: `users.findAll(where: "age >= \(n)")`
// binds `n`. The text forms are disfavored, so an interpolated literal always comes here
// and is never spliced into the SQL.
extension Repository {
  /// The models where a condition written by interpolation holds, its values bound.
  ///
  /// ```swift
  /// struct User: Model { var id: Int64?; var name: String; var age: Int; static let primaryKey = ["id"] }
  /// let users = try Repository<User>(DatabaseQueue(path: "app.sqlite"))
  /// try await users.save(User(id: 1, name: "Ann", age: 30))
  /// let minimum = 18
  ///
  /// let adults = try await users.findAll(where: "age >= \(minimum)", orderBy: "name")
  /// ```
  /// - Throws: `SQLiteError`; `DecodingError`.
  public func findAll(
    where condition: SQL, orderBy: String? = nil, limit: Int? = nil, offset: Int? = nil
  ) throws -> [M] {
    try findAll(
      where: condition.text, condition.statementArguments, orderBy: orderBy, limit: limit,
      offset: offset)
  }

  /// The number of rows where a condition written by interpolation holds.
  /// - Throws: `SQLiteError`.
  public func count(where condition: SQL) throws -> Int {
    try count(where: condition.text, condition.statementArguments)
  }
}

extension Repository where M: Sendable {
  /// Like ``findAll(where:orderBy:limit:offset:)-(SQL,_,_,_)``, suspending the task
  /// instead of blocking it.
  /// - Throws: as the blocking form.
  public func findAll(
    where condition: SQL, orderBy: String? = nil, limit: Int? = nil, offset: Int? = nil
  ) async throws -> [M] {
    try await findAll(
      where: condition.text, condition.statementArguments, orderBy: orderBy, limit: limit,
      offset: offset)
  }

  /// Like ``count(where:)-(SQL)``, suspending the task instead of blocking it.
  /// - Throws: as the blocking form.
  public func count(where condition: SQL) async throws -> Int {
    try await count(where: condition.text, condition.statementArguments)
  }
}
