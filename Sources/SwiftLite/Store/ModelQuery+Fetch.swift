// The terminals of a model query: each finds the model's table on the connection (reads
// never write: a missing table reads as empty), writes the query's SQL in the table's own
// spelling of its columns, and runs it through the statement cache.
extension ModelQuery {
  /// Every model the query selects, in its order.
  /// - Throws: `SQLiteError`; `DecodingError` naming the column when a row does not decode
  ///   (as with a `select(_:)` that leaves columns out);
  ///   ``ModelError`` for a model or association declaration that does not hold.
  public func fetchAll(_ db: Connection) throws -> [M] {
    guard let table = try db.modelTable(M.self, target: target, for: .read) else { return [] }
    let sql = try selectSQL(in: db.queryContext(table))
    return try db.withCachedStatement(sql.text, sql.statementArguments) { statement in
      try db.decodeAll(M.self, table, statement)
    }
  }

  /// Every row the query selects decoded as `T` by column name: for an
  /// ``ModelQuery/annotated(with:)`` query, a type with the model's properties and the
  /// annotations' aliases.
  /// - Throws: as ``fetchAll(_:)``.
  public func fetchAll<T: Decodable>(_ db: Connection, as type: T.Type) throws -> [T] {
    guard let table = try db.modelTable(M.self, target: target, for: .read) else { return [] }
    return try db.fetchAll(type, try selectSQL(in: db.queryContext(table)))
  }

  /// The first model the query selects (with `LIMIT 1`), or `nil`.
  /// - Throws: as ``fetchAll(_:)``.
  public func fetchOne(_ db: Connection) throws -> M? {
    guard let table = try db.modelTable(M.self, target: target, for: .read) else { return nil }
    var first = self
    if limitCount == nil || limitCount! > 1 { first.limitCount = 1 }
    let sql = try first.selectSQL(in: db.queryContext(table))
    return try db.withCachedStatement(sql.text, sql.statementArguments) { statement in
      try table.namingTheRow(of: statement) {
        if let mapped = table.mapped {
          return try mapped.readFirst(
            statement, columns: table.readColumns(of: statement), as: M.self)
        }
        guard try statement.step() else { return nil }
        return try table.decoder(readingInPlace: statement).decode(M.self, from: statement.row)
      }
    }
  }

  /// The number of rows the query selects (`SELECT count(*)`).
  /// - Throws: `SQLiteError`; ``ModelError``.
  public func fetchCount(_ db: Connection) throws -> Int {
    guard let table = try db.modelTable(M.self, target: target, for: .read) else { return 0 }
    let sql = try countSQL(in: db.queryContext(table))
    return try db.scalar(Int.self, sql.text, sql.statementArguments) ?? 0
  }

  /// Whether the query selects at least one row (`SELECT EXISTS (...)`).
  /// - Throws: `SQLiteError`; ``ModelError``.
  public func exists(_ db: Connection) throws -> Bool {
    guard let table = try db.modelTable(M.self, target: target, for: .read) else { return false }
    let sql = try existsSQL(in: db.queryContext(table))
    return try db.scalar(Bool.self, sql.text, sql.statementArguments) ?? false
  }

  /// The rows of the query as they are: for a `select(_:)` of some
  /// columns or of aggregates.
  ///
  /// ```swift
  /// struct Person: Model { var id: Int64?; var city: String; static let primaryKey = ["id"] }
  /// let db = try Connection.inMemory()
  /// try db.save([Person(id: 1, city: "Paris"), Person(id: 2, city: "Paris"), Person(id: 3, city: "Lyon")])
  ///
  /// let rows = try Person.all().select(Column("city"), SQLExpression.countAll.aliased("n"))
  ///   .group(Column("city")).having(SQLExpression.countAll > 1).fetchRows(db)
  /// ```
  /// - Throws: `SQLiteError`; ``ModelError``.
  public func fetchRows(_ db: Connection) throws -> [Row] {
    guard let table = try db.modelTable(M.self, target: target, for: .read) else { return [] }
    let sql = try selectSQL(in: db.queryContext(table))
    return try db.query(sql.text, sql.statementArguments)
  }

  /// The first column of the first row, such as an aggregate:
  /// `try Person.all().select(SQLExpression.max(Column("age"))).fetchValue(db, as: Int.self)`.
  /// `nil` when there is no row or the value is NULL.
  /// - Throws: `SQLiteError`; `DecodingError` when the value does not convert to `T`.
  public func fetchValue<T: SQLiteValueConvertible>(_ db: Connection, as type: T.Type = T.self)
    throws -> T?
  {
    guard let table = try db.modelTable(M.self, target: target, for: .read) else { return nil }
    let sql = try selectSQL(in: db.queryContext(table))
    return try db.scalar(type, sql.text, sql.statementArguments)
  }

  /// Deletes the rows the query selects (through their primary keys when the query has an
  /// order, a limit or groups). Foreign keys act as declared: children `ON DELETE CASCADE`
  /// go too, `RESTRICT` refuses.
  /// - Returns: the number of rows deleted (triggers and cascades not counted).
  /// - Throws: `SQLiteError` (a foreign key constraint, say); ``ModelError``.
  @discardableResult
  public func deleteAll(_ db: Connection) throws -> Int {
    guard let table = try db.modelTable(M.self, target: target, for: .delete) else { return 0 }
    let sql = try deleteSQL(in: db.queryContext(table))
    return try db.run(sql.text, sql.statementArguments)
  }

  /// Deletes the rows the query selects and returns them as they were, in one statement
  /// (`DELETE ... RETURNING`). Cascaded children are not returned.
  /// - Throws: as ``deleteAll(_:)``; ``ModelError/writeRefused(table:reason:)`` below SQLite 3.35.
  public func deleteAllAndFetch(_ db: Connection) throws -> [M] {
    guard let table = try db.modelTable(M.self, target: target, for: .delete) else { return [] }
    try Connection.checkReturning(table)
    var sql = try deleteSQL(in: db.queryContext(table))
    sql.text += Connection.returning(table)
    return try db.withCachedStatement(sql.text, sql.statementArguments) { statement in
      try db.decodeAll(M.self, table, statement)
    }
  }

  /// Sets columns of the rows the query selects and returns the rows as stored, in one
  /// statement (`UPDATE ... RETURNING`).
  /// - Throws: as ``updateAll(_:_:)``; ``ModelError/writeRefused(table:reason:)`` below SQLite 3.35.
  public func updateAllAndFetch(_ db: Connection, _ assignments: ColumnAssignment...) throws
    -> [M]
  {
    guard !assignments.isEmpty,
      let table = try db.modelTable(M.self, target: target, for: .delete)
    else { return try fetchAll(db) }
    try Connection.checkReturning(table)
    var sql = try updateSQL(assignments, in: db.queryContext(table))
    sql.text += Connection.returning(table)
    return try db.withCachedStatement(sql.text, sql.statementArguments) { statement in
      try db.decodeAll(M.self, table, statement)
    }
  }

  /// Sets columns of the rows the query selects, every value bound:
  /// `try Person.filter(Column("age") < 0).updateAll(db, Column("age").set(to: 0))`.
  /// - Returns: the number of rows updated.
  /// - Throws: `SQLiteError`; ``ModelError``.
  @discardableResult
  public func updateAll(_ db: Connection, _ assignments: ColumnAssignment...) throws -> Int {
    guard !assignments.isEmpty,
      let table = try db.modelTable(M.self, target: target, for: .delete)
    else { return 0 }
    let sql = try updateSQL(assignments, in: db.queryContext(table))
    return try db.run(sql.text, sql.statementArguments)
  }
}

extension Connection {
  /// The context in which a query over `table` writes its SQL: the table's mapping, and
  /// the mappings of the other models it names, found as reads find them.
  func queryContext(_ table: ModelTable) -> SQLContext {
    SQLContext(
      mapping: table.mapping, qualifier: table.name,
      resolve: { [unowned self] model, target in try self.readMapping(model, target: target) })
  }

  private func readMapping<T: Model>(_ model: T.Type, target: String?) throws -> TableMapping? {
    try modelTable(model, target: target, for: .read)?.mapping
  }

  /// Every remaining row of a statement over `table` as a model.
  func decodeAll<M: Model>(_ model: M.Type, _ table: ModelTable, _ statement: Statement) throws
    -> [M]
  {
    try table.namingTheRow(of: statement) {
      if let mapped = table.mapped {
        return try mapped.readAll(
          statement, columns: table.readColumns(of: statement), as: M.self)
      }
      return try RowDecoder(ignoredProperties: table.ignored, readingInPlace: statement)
        .decodeRemainingRows(M.self)
    }
  }
}
