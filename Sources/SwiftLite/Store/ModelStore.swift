import Foundation

/// Model persistence on a `Connection` (so also inside ``DatabaseQueue`` closures).
///
/// The first use of a model on a connection creates its table, or migrates it when the type
/// changed (see ``AutoMigration``); every value is bound, never spliced. Each method takes an
/// optional `target` that selects the table ``Model/tableName(target:)`` (one table per chat,
/// say) instead of ``Model/tableName``.
///
/// ```swift
/// try db.save(person)                                  // insert or update by primary key
/// let ann = try db.find(Person.self, id: 1)
/// let adults = try db.find(Person.self, where: "age >= ?", [18], orderBy: "name", limit: 20)
/// try db.delete(Person.self, id: 1)
/// ```
extension Connection {
  // MARK: Tables

  /// Creates the model's table when it is missing, or migrates it when SwiftLite manages it
  /// and it differs from the model; for a table SwiftLite did not create, checks that the
  /// model fits it, changing nothing. Writes do this on first use; call it to do it at a
  /// time of your choosing.
  /// - Throws: ``ModelError`` (``ModelError/incompatibleTable(model:table:problems:)`` for an
  ///   existing table the model does not fit), ``MigrationError`` or `SQLiteError`; nothing
  ///   changes then.
  public func createTable<M: Model>(for model: M.Type, target: String? = nil) throws {
    _ = try writableModelTable(model, target: target)
  }

  /// The plan that would bring the model's table in line with the model, without applying it.
  /// - Throws: ``MigrationError/notManaged(table:)`` for a table SwiftLite did not create
  ///   (see ``adoptionPlan(for:target:)``); ``ModelError``, ``MigrationError`` (a change
  ///   that would lose data), `SQLiteError`.
  public func migrationPlan<M: Model>(for model: M.Type, target: String? = nil) throws
    -> MigrationPlan
  {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    if try ownership(of: name) == .mapped { throw MigrationError.notManaged(table: name) }
    return try AutoMigration.plan(for: model, table: name, in: self)
  }

  /// Whether the model's table is missing, or managed by SwiftLite and different from the
  /// model. A table SwiftLite did not create never needs migration: it is used as it is.
  /// - Throws: as ``migrationPlan(for:target:)``, except for unmanaged tables.
  public func needsMigration<M: Model>(_ model: M.Type, target: String? = nil) throws -> Bool {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    if try ownership(of: name) == .mapped { return false }
    // A plan whose only step completes the record of a matching table changes no schema.
    return try AutoMigration.plan(for: model, table: name, in: self).strategy != .none
  }

  /// Creates or migrates the model's table now, in one transaction, whatever the model's
  /// ``Model/schemaPolicy`` and ``automaticMigration`` say (this is the explicit call).
  /// - Returns: the plan that was applied (empty when nothing was needed).
  /// - Throws: ``MigrationError/notManaged(table:)`` for a table SwiftLite did not create;
  ///   ``ModelError``, ``MigrationError`` or `SQLiteError`; nothing changes then.
  @discardableResult
  public func migrate<M: Model>(_ model: M.Type, target: String? = nil) throws -> MigrationPlan {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    if try ownership(of: name) == .mapped { throw MigrationError.notManaged(table: name) }
    forgetModelTable(model, table: name)
    return try AutoMigration.migrate(model, table: name, in: self)
  }

  /// Drops the model's table and every row in it.
  /// - Throws: `SQLiteError` (for example a foreign key from another table).
  public func dropTable<M: Model>(for model: M.Type, target: String? = nil) throws {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    try savepoint { db in
      try db.execute("DROP TABLE IF EXISTS " + SQLIdentifier.quote(name))
      try AutoMigration.forgetRecord(of: name, in: db)
    }
    forgetModelTable(model, table: name)
  }

  // MARK: Writing

  /// Inserts the model, or updates the row with its primary key: one UPSERT statement.
  /// A `nil` integer key is assigned by SQLite (read it with ``lastInsertRowID``).
  /// - Throws: `EncodingError` for a value SQLite cannot store; `SQLiteError` for a
  ///   violated constraint (a UNIQUE column other than the key, say).
  public func save<M: Model>(_ model: M, target: String? = nil) throws {
    let table = try writableModelTable(M.self, target: target)
    try table.upsertWriter(self).write(model)
  }

  /// Saves many models in one transaction (a savepoint inside an open one), through one
  /// cached statement. All or none are saved.
  /// - Throws: as ``save(_:target:)``; nothing is saved then.
  public func save<M: Model>(_ models: some Sequence<M>, target: String? = nil) throws {
    let table = try writableModelTable(M.self, target: target)
    let writer = try table.upsertWriter(self)
    try savepoint { _ in
      for model in models {
        try writer.write(model)
      }
    }
  }

  /// Inserts the model as a new row.
  /// - Returns: the new row's rowid: the assigned key for an integer primary key.
  /// - Throws: `SQLiteError` with ``SQLiteError/constraintKind`` `.primaryKey` when the key
  ///   exists, `.unique` for another unique column; `EncodingError` for unstorable values.
  @discardableResult
  public func insert<M: Model>(_ model: M, target: String? = nil) throws -> Int64 {
    let table = try writableModelTable(M.self, target: target)
    try table.insertWriter(self).write(model)
    return lastInsertRowID
  }

  /// Updates the row with the model's primary key.
  /// - Throws: ``ModelError/notFound(table:key:)`` when no row has that key;
  ///   `SQLiteError` for a violated constraint.
  public func update<M: Model>(_ model: M, target: String? = nil) throws {
    let table = try writableModelTable(M.self, target: target)
    try table.encode(model)
    guard let sql = table.updateSQL else {
      // Every column is part of the key: there is nothing to update, only to find.
      let key = table.encodedKey
      guard try exists(M.self, key: key, target: target) else {
        throw ModelError.notFound(table: table.name, key: key)
      }
      return
    }
    let changed = try withCachedStatement(
      sql,
      bind: { statement in
        try table.bind(table.otherPositions, to: statement)
        try table.bind(
          table.keyPositions, to: statement, startingAt: Int32(table.otherPositions.count + 1))
      },
      { statement in
        try statement.execute()
        return changes
      })
    if changed == 0 { throw ModelError.notFound(table: table.name, key: table.encodedKey) }
  }

  /// Deletes the row with the model's primary key.
  /// - Returns: `true` when a row was deleted, `false` when none had that key.
  /// - Throws: `SQLiteError` (a foreign key RESTRICT, say).
  @discardableResult
  public func delete<M: Model>(_ model: M, target: String? = nil) throws -> Bool {
    guard let table = try modelTable(M.self, target: target, for: .delete) else { return false }
    try table.encode(model)
    return try delete(M.self, key: table.encodedKey, target: target)
  }

  /// Deletes the row with this (single-column) primary key.
  /// - Returns: `true` when a row was deleted.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func delete<M: Model>(
    _ model: M.Type, id: some SQLiteValueConvertible, target: String? = nil
  ) throws -> Bool {
    try delete(model, key: [try id.sqliteValue()], target: target)
  }

  /// Deletes the row with this primary key, one value per key column.
  /// - Returns: `true` when a row was deleted.
  /// - Throws: `SQLiteError` (`.range` for the wrong number of key values).
  @discardableResult
  public func delete<M: Model>(_ model: M.Type, key: [SQLiteValue], target: String? = nil) throws
    -> Bool
  {
    guard let table = try modelTable(model, target: target, for: .delete) else { return false }
    return try run(
      "DELETE FROM " + table.quotedName + " WHERE " + table.keyCondition, StatementArguments(key))
      > 0
  }

  /// Deletes the rows where an SQL condition holds, its values bound, never spliced.
  ///
  /// ```swift
  /// try db.delete(Message.self, where: "sentAt < ?", [cutoff], target: chatID)
  /// ```
  /// - Returns: the number of rows deleted.
  /// - Throws: `SQLiteError` for a bad condition or argument count.
  @discardableResult
  public func delete<M: Model>(
    _ model: M.Type, where condition: String, _ arguments: StatementArguments = [],
    target: String? = nil
  ) throws -> Int {
    guard let table = try modelTable(model, target: target, for: .delete) else { return 0 }
    return try run("DELETE FROM " + table.quotedName + " WHERE " + condition, arguments)
  }

  /// Deletes every row of the model's table (the table stays).
  /// - Returns: the number of rows deleted.
  /// - Throws: `SQLiteError`.
  @discardableResult
  public func deleteAll<M: Model>(_ model: M.Type, target: String? = nil) throws -> Int {
    guard let table = try modelTable(model, target: target, for: .delete) else { return 0 }
    return try run("DELETE FROM " + table.quotedName)
  }

  // MARK: Reading

  /// The model with this (single-column) primary key, or `nil`.
  /// - Throws: `SQLiteError`; `DecodingError` naming the column when a row does not decode.
  public func find<M: Model>(
    _ model: M.Type, id: some SQLiteValueConvertible, target: String? = nil
  )
    throws -> M?
  {
    guard let table = try modelTable(model, target: target, for: .read) else { return nil }
    guard table.keyPositions.count == 1 else {
      // The general path reports the wrong number of key values.
      return try find(model, key: [try id.sqliteValue()], target: target)
    }
    // One value bound straight to the cached lookup: no arrays, no SQL built per call.
    return try withCachedStatement(
      table.findSQL, bind: { statement in try statement.bind(values: id) },
      { statement in try first(model, table, statement) })
  }

  /// The model with this primary key (one value per key column), or `nil`.
  /// - Throws: `SQLiteError`; `DecodingError` naming the column.
  public func find<M: Model>(_ model: M.Type, key: [SQLiteValue], target: String? = nil) throws
    -> M?
  {
    guard let table = try modelTable(model, target: target, for: .read) else { return nil }
    return try withCachedStatement(table.findSQL, StatementArguments(key)) { statement in
      try first(model, table, statement)
    }
  }

  /// The first row of a bound statement of the model's table as a model, or `nil`.
  private func first<M: Model>(_ model: M.Type, _ table: ModelTable, _ statement: Statement)
    throws -> M?
  {
    if let mapped = table.mapped {
      return try mapped.readFirst(statement, columns: table.readColumns(of: statement), as: M.self)
    }
    guard try statement.step() else { return nil }
    return try table.decoder(readingInPlace: statement).decode(M.self, from: statement.row)
  }

  /// Every model in the table.
  /// - Parameters:
  ///   - model: the model type.
  ///   - orderBy: an SQL ordering such as `"name, age DESC"` (SQL you write), or `nil`.
  ///   - limit: at most this many.
  ///   - offset: skip this many first (with `limit`).
  ///   - target: selects the per-target table ``Model/tableName(target:)``, or `nil` for
  ///     ``Model/tableName``.
  /// - Throws: `SQLiteError`; `DecodingError` naming the column.
  public func findAll<M: Model>(
    _ model: M.Type, orderBy: String? = nil, limit: Int? = nil, offset: Int? = nil,
    target: String? = nil
  ) throws -> [M] {
    guard let table = try modelTable(model, target: target, for: .read) else { return [] }
    return try fetch(
      model, table, table.selectSQL, [], orderBy: orderBy, limit: limit, offset: offset)
  }

  /// The models where an SQL condition holds, its values bound.
  ///
  /// ```swift
  /// let page = try db.find(User.self, where: "name LIKE ?", ["%ann%"], orderBy: "name", limit: 20, offset: 40)
  /// ```
  /// - Throws: `SQLiteError` for a bad condition or argument count; `DecodingError`.
  public func find<M: Model>(
    _ model: M.Type, where condition: String, _ arguments: StatementArguments = [],
    orderBy: String? = nil, limit: Int? = nil, offset: Int? = nil, target: String? = nil
  ) throws -> [M] {
    guard let table = try modelTable(model, target: target, for: .read) else { return [] }
    return try fetch(
      model, table, table.selectSQL + " WHERE " + condition, arguments, orderBy: orderBy,
      limit: limit, offset: offset)
  }

  /// The number of rows, or of rows where a condition holds.
  /// - Throws: `SQLiteError`.
  public func count<M: Model>(
    _ model: M.Type, where condition: String? = nil, _ arguments: StatementArguments = [],
    target: String? = nil
  ) throws -> Int {
    guard let table = try modelTable(model, target: target, for: .read) else { return 0 }
    let filter = condition.map { " WHERE " + $0 } ?? ""
    return try scalar(Int.self, "SELECT count(*) FROM " + table.quotedName + filter, arguments) ?? 0
  }

  /// Whether a row has this (single-column) primary key.
  /// - Throws: `SQLiteError`.
  public func exists<M: Model>(
    _ model: M.Type, id: some SQLiteValueConvertible, target: String? = nil
  ) throws -> Bool {
    try exists(model, key: [try id.sqliteValue()], target: target)
  }

  /// Whether a row has this primary key (one value per key column).
  /// - Throws: `SQLiteError`.
  public func exists<M: Model>(_ model: M.Type, key: [SQLiteValue], target: String? = nil) throws
    -> Bool
  {
    guard let table = try modelTable(model, target: target, for: .read) else { return false }
    return try scalar(
      Bool.self,
      "SELECT EXISTS (SELECT 1 FROM " + table.quotedName + " WHERE " + table.keyCondition + ")",
      StatementArguments(key)) ?? false
  }

  private func fetch<M: Model>(
    _ model: M.Type, _ table: ModelTable, _ sql: String, _ arguments: StatementArguments,
    orderBy: String? = nil, limit: Int? = nil, offset: Int? = nil
  ) throws -> [M] {
    var sql = sql
    var arguments = arguments
    if let orderBy { sql += " ORDER BY " + orderBy }
    if limit != nil || offset != nil {
      // SQLite takes OFFSET only after a LIMIT; -1 means no limit.
      let paging: [(String, Int)] =
        [("swiftlite_limit", limit ?? -1)] + (offset.map { [("swiftlite_offset", $0)] } ?? [])
      switch arguments.storage {
      case .positional(let values):
        sql += " LIMIT ?" + (offset == nil ? "" : " OFFSET ?")
        arguments = StatementArguments(values + paging.map { $0.1 })
      case .named(let pairs):
        sql += " LIMIT :swiftlite_limit" + (offset == nil ? "" : " OFFSET :swiftlite_offset")
        arguments = StatementArguments(
          named: Dictionary(pairs + paging.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a }))
      }
    }
    return try withCachedStatement(sql, arguments) { statement in
      if let mapped = table.mapped {
        return try mapped.readAll(statement, columns: table.readColumns(of: statement), as: M.self)
      }
      let decoder = RowDecoder(ignoredProperties: table.ignored, readingInPlace: statement)
      let row = statement.row
      var models: [M] = []
      while try statement.step() { models.append(try decoder.decode(M.self, from: row)) }
      return models
    }
  }
}
