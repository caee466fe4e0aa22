// Writes that give back the rows as stored, in the same statement (`RETURNING`, SQLite
// 3.35 and later): the key SQLite assigned, the DEFAULTs it filled in, what triggers and
// generated columns made of the values. One statement each.
extension Connection {
  /// Inserts the model and returns it as stored: with the key SQLite assigned, and the
  /// table's DEFAULT for every `nil` that leaves its column to it.
  ///
  /// ```swift
  /// struct Note: Model { var id: Int64?; var title: String; static let primaryKey = ["id"] }
  /// let db = try Connection.inMemory()
  ///
  /// let note = try db.insertAndFetch(Note(id: nil, title: "Plan"))   // note.id is set
  /// ```
  /// - Throws: as ``insert(_:target:)``; ``ModelError/writeRefused(table:reason:)`` below
  ///   SQLite 3.35, which has no `RETURNING`.
  public func insertAndFetch<M: Model>(_ model: M, target: String? = nil) throws -> M {
    let table = try writableModelTable(M.self, target: target)
    try Self.checkReturning(table)
    if let reason = table.mapping.insertRefusal {
      throw ModelError.writeRefused(table: table.name, reason: reason)
    }
    guard let stored = try writeReturning(model, table, sql: table.insertSQL) else {
      throw ModelError.notFound(table: table.name, key: table.encodedKey)
    }
    return stored
  }

  /// Saves the model (inserts it, or updates the row with its key: one UPSERT) and returns
  /// the row as stored.
  /// - Throws: as `save(_:target:)`; ``ModelError/writeRefused(table:reason:)`` below
  ///   SQLite 3.35.
  public func saveAndFetch<M: Model>(_ model: M, target: String? = nil) throws -> M {
    let table = try writableModelTable(M.self, target: target)
    try Self.checkReturning(table)
    if let reason = table.mapping.insertRefusal ?? table.mapping.upsertRefusal {
      throw ModelError.writeRefused(table: table.name, reason: reason)
    }
    if let stored = try writeReturning(model, table, sql: table.upsertSQL) { return stored }
    // Every column is part of the key and the row existed: nothing was written, and it is
    // as the model says.
    guard let found = try find(M.self, key: table.encodedKey, target: target) else {
      throw ModelError.notFound(table: table.name, key: table.encodedKey)
    }
    return found
  }

  /// Updates the row with the model's primary key and returns it as stored.
  /// - Throws: as ``update(_:target:)`` (``ModelError/notFound(table:key:)`` when no row has
  ///   the key); ``ModelError/writeRefused(table:reason:)`` below SQLite 3.35.
  public func updateAndFetch<M: Model>(_ model: M, target: String? = nil) throws -> M {
    let table = try writableModelTable(M.self, target: target)
    try Self.checkReturning(table)
    try table.resolveDateFormats(self)
    try table.encode(model)
    guard let sql = table.updateSQL else {
      guard let found = try find(M.self, key: table.encodedKey, target: target) else {
        throw ModelError.notFound(table: table.name, key: table.encodedKey)
      }
      return found
    }
    let row = try withCachedStatement(
      sql + Self.returning(table),
      bind: { statement in
        try table.bind(table.otherPositions, to: statement)
        try table.bind(
          table.keyPositions, to: statement, startingAt: Int32(table.otherPositions.count + 1))
      },
      { statement in try returnedRow(M.self, table, statement) })
    guard let stored = row else {
      throw ModelError.notFound(table: table.name, key: table.encodedKey)
    }
    return stored
  }

  /// Deletes the row with the model's primary key and returns it as it was.
  /// - Throws: ``ModelError/notFound(table:key:)`` when no row has the key; `SQLiteError`;
  ///   ``ModelError/writeRefused(table:reason:)`` below SQLite 3.35.
  public func deleteAndFetch<M: Model>(_ model: M, target: String? = nil) throws -> M {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    guard let table = try modelTable(M.self, target: target, for: .delete) else {
      throw ModelError.notFound(table: name, key: [])
    }
    try table.resolveDateFormats(self)
    try table.encode(model)
    return try deleteAndFetch(M.self, key: table.encodedKey, target: target)
  }

  /// Deletes the row with this primary key (one value per key column) and returns it as
  /// it was.
  /// - Throws: as ``deleteAndFetch(_:target:)``.
  public func deleteAndFetch<M: Model>(
    _ model: M.Type, key: [SQLiteValue], target: String? = nil
  ) throws -> M {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    guard let table = try modelTable(model, target: target, for: .delete) else {
      throw ModelError.notFound(table: name, key: key)
    }
    try Self.checkReturning(table)
    let sql =
      "DELETE FROM " + table.quotedName + " WHERE " + table.keyCondition + Self.returning(table)
    let row = try withCachedStatement(sql, StatementArguments(key)) { statement in
      try returnedRow(M.self, table, statement)
    }
    guard let removed = row else { throw ModelError.notFound(table: name, key: key) }
    return removed
  }

  /// Runs an INSERT or UPSERT of `model` with `RETURNING`, and decodes the row it gives, if
  /// any (an upsert that did nothing gives none).
  private func writeReturning<M: Model>(_ model: M, _ table: ModelTable, sql: String) throws
    -> M?
  {
    try table.resolveDateFormats(self)
    try table.encode(model)
    let rows = try withCachedStatement(
      sql + Self.returning(table),
      bind: { statement in try table.bind(table.writtenPositions, to: statement) },
      { statement in try returnedRow(M.self, table, statement) })
    return rows
  }

  /// The one row a single-row write with `RETURNING` gives, decoded, or `nil`. The first
  /// step makes every change; the row is read in place with the table's kept decoder.
  private func returnedRow<M: Model>(_ model: M.Type, _ table: ModelTable, _ statement: Statement)
    throws -> M?
  {
    guard try statement.step() else { return nil }
    return try table.namingTheRow(of: statement) {
      if let mapped = table.mapped {
        return try mapped.readRow(
          statement.row, columns: table.readColumns(of: statement), as: M.self)
      }
      return try table.decoder(readingInPlace: statement).decode(M.self, from: statement.row)
    }
  }

  /// ` RETURNING` of every column, each under its property's name (kept by the table).
  static func returning(_ table: ModelTable) -> String { table.returningClause }

  /// Refuses `RETURNING` where SQLite has none.
  static func checkReturning(_ table: ModelTable) throws {
    guard sqliteVersionNumber < 3_035_000 else { return }
    throw ModelError.writeRefused(
      table: table.name,
      reason: "RETURNING needs SQLite 3.35 or later; this is SQLite \(sqliteVersion)")
  }
}
