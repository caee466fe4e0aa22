// Raw SQL written by interpolation: the same calls as with SQL text and an array of
// arguments, each interpolated value bound. A string literal passed to these calls is an
// `SQL` value, so an interpolation in it can never splice a value into the text.
extension Connection {
  /// Runs one statement written by interpolation, every interpolated value bound.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT)")
  /// let (name, ids): (String, [Int64]) = ("Ann", [1, 2, 3])
  ///
  /// try db.run("UPDATE user SET name = \(name) WHERE id IN \(ids)")
  /// ```
  /// - Returns: the number of rows inserted, updated or deleted (0 for other statements).
  /// - Throws: `SQLiteError` as ``run(_:_:)`` does.
  @discardableResult
  public func run(_ sql: SQL) throws -> Int {
    try run(sql.text, sql.statementArguments)
  }

  /// Runs a query written by interpolation and returns all its rows.
  /// - Throws: `SQLiteError` as ``query(_:_:)`` does.
  public func query(_ sql: SQL) throws -> [Row] {
    try query(sql.text, sql.statementArguments)
  }

  /// Runs a query written by interpolation and returns its first row, or `nil`.
  /// - Throws: `SQLiteError` as ``queryFirst(_:_:)`` does.
  public func queryFirst(_ sql: SQL) throws -> Row? {
    try queryFirst(sql.text, sql.statementArguments)
  }

  /// The first column of the first row of a query written by interpolation, or `nil`.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE user(id INTEGER PRIMARY KEY, age INTEGER)")
  /// let minimum = 18
  ///
  /// let count = try db.scalar(Int.self, "SELECT count(*) FROM user WHERE age >= \(minimum)") ?? 0
  /// ```
  /// - Throws: `SQLiteError`; `DecodingError` when the value does not convert to `T`.
  public func scalar<T: SQLiteValueConvertible>(_ type: T.Type = T.self, _ sql: SQL) throws -> T? {
    try scalar(type, sql.text, sql.statementArguments)
  }

  /// Streams the rows of a query written by interpolation, one at a time, in place.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE event(day TEXT, title TEXT)")
  /// try db.run("INSERT INTO event VALUES ('2026-12-01', 'Launch')")
  /// let day = "2026-12-01"
  ///
  /// try db.forEachRow("SELECT * FROM event WHERE day = \(day)") { row in
  ///   print(try row.get(String.self, "title"))
  /// }
  /// ```
  /// - Throws: `SQLiteError`, or what `body` throws.
  public func forEachRow(_ sql: SQL, _ body: (Row) throws -> Void) throws {
    try forEachRow(sql.text, sql.statementArguments, body)
  }
}
