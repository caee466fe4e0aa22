// The model operations that take a condition, with the condition written by interpolation:
// `db.findAll(User.self, where: "name = \(name) AND id IN \(ids)")`, every value bound.
extension Connection {
  /// The models where a condition written by interpolation holds, its values bound.
  ///
  /// ```swift
  /// struct User: Model { var id: Int64?; var name: String; var age: Int; static let primaryKey = ["id"] }
  /// let db = try Connection.inMemory()
  /// try db.save([User(id: 1, name: "Ann", age: 30), User(id: 2, name: "Bo", age: 9)])
  /// let (minimum, ids): (Int, [Int64]) = (18, [1, 2])
  ///
  /// let some = try db.findAll(User.self, where: "age >= \(minimum) AND id IN \(ids)", orderBy: "name")
  /// ```
  /// - Throws: `SQLiteError` for a bad condition; `DecodingError`.
  public func findAll<M: Model>(
    _ model: M.Type, where condition: SQL, orderBy: String? = nil, limit: Int? = nil,
    offset: Int? = nil, target: String? = nil
  ) throws -> [M] {
    try findAll(
      model, where: condition.text, condition.statementArguments, orderBy: orderBy, limit: limit,
      offset: offset, target: target)
  }

  /// The number of rows where a condition written by interpolation holds.
  /// - Throws: `SQLiteError`.
  public func count<M: Model>(_ model: M.Type, where condition: SQL, target: String? = nil) throws
    -> Int
  {
    try count(model, where: condition.text, condition.statementArguments, target: target)
  }

  /// Deletes the rows where a condition written by interpolation holds.
  /// - Returns: the number of rows deleted.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func deleteAll<M: Model>(_ model: M.Type, where condition: SQL, target: String? = nil)
    throws -> Int
  {
    try deleteAll(model, where: condition.text, condition.statementArguments, target: target)
  }
}
