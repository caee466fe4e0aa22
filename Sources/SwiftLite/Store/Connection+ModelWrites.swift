import Foundation

// Writing models: one statement each, every value bound. A single-row update or delete of a
// key that no row has throws ModelError.notFound; the bulk forms return how many rows changed.
extension Connection {
  /// Inserts the model, or updates the row with its primary key: one UPSERT statement.
  /// A `nil` integer key is assigned by SQLite (read it with ``lastInsertRowID``).
  /// - Throws: `EncodingError` for a value SQLite cannot store; `SQLiteError` for a
  ///   violated constraint (a UNIQUE column other than the key, say).
  public func save<M: Model>(_ model: M, target: String? = nil) throws {
    let table = try writableModelTable(M.self, target: target)
    try table.upsertWriter(self).write(model, on: self)
  }

  /// Saves many models in one transaction (a savepoint inside an open one), through one
  /// cached statement. All or none are saved.
  /// - Throws: as ``save(_:target:)``; nothing is saved then.
  public func save<M: Model>(_ models: some Sequence<M>, target: String? = nil) throws {
    let table = try writableModelTable(M.self, target: target)
    let writer = try table.upsertWriter(self)
    try savepoint { _ in
      for model in models {
        try writer.write(model, on: self)
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
    try table.insertWriter(self).write(model, on: self)
    return lastInsertRowID
  }

  /// Updates the row with the model's primary key.
  /// - Throws: ``ModelError/notFound(table:key:)`` when no row has that key;
  ///   `SQLiteError` for a violated constraint.
  public func update<M: Model>(_ model: M, target: String? = nil) throws {
    let table = try writableModelTable(M.self, target: target)
    try table.resolveDateFormats(self)
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
        try statement.run()
        return changes
      })
    if changed == 0 { throw ModelError.notFound(table: table.name, key: table.encodedKey) }
  }

  /// Updates the row with the model's primary key, writing only the columns whose values
  /// differ from `original`'s (the model as it was read): a model saved unchanged this way
  /// runs no statement at all, and every column it did not change keeps its bytes, whatever
  /// their form (mixed date formats, REAL Unix times, JSON text with spaces or keys in
  /// another order).
  ///
  /// ```swift
  /// struct Customer: Model { var id: Int64?; var name: String; var email: String; static let primaryKey = ["id"] }
  /// let db = try Connection.inMemory()
  /// try db.save(Customer(id: 1, name: "Ann", email: "ann@old.example"))
  ///
  /// let original = try db.find(Customer.self, id: 1)!
  /// var customer = original
  /// customer.email = "ann@example.com"
  /// try db.update(customer, from: original)   // UPDATE Customer SET email = ? WHERE ...
  /// ```
  ///
  /// "Differ" compares the values both models encode to, byte for byte: text by its UTF-8
  /// bytes, a REAL by its bits. The row is found by `model`'s key, as ``update(_:target:)``
  /// finds it; the key's own columns are never written.
  /// - Returns: the columns written, in the table's spelling; empty when nothing changed
  ///   (then no statement ran, and whether the row exists was not checked).
  /// - Throws: ``ModelError/notFound(table:key:)`` when a change was to be written and no
  ///   row has that key; `EncodingError` for a value SQLite cannot store; `SQLiteError`
  ///   for a violated constraint.
  @discardableResult
  public func update<M: Model>(_ model: M, from original: M, target: String? = nil) throws
    -> [String]
  {
    let table = try writableModelTable(M.self, target: target)
    try table.resolveDateFormats(self)
    try table.encode(original)
    let before = table.values
    try table.encode(model)
    let after = table.values
    let changed = table.otherPositions.filter { !ModelTable.sameBytes(before[$0], after[$0]) }
    guard !changed.isEmpty else { return [] }
    let written = try withCachedStatement(
      table.updateSQL(setting: changed),
      bind: { statement in
        try table.bind(changed, to: statement)
        try table.bind(
          table.keyPositions, to: statement, startingAt: Int32(changed.count + 1))
      },
      { statement in
        try statement.run()
        return changes
      })
    if written == 0 { throw ModelError.notFound(table: table.name, key: table.encodedKey) }
    return changed.map { table.mapping.columns[$0] }
  }

  /// Deletes the row with the model's primary key.
  /// - Throws: ``ModelError/notFound(table:key:)`` when no row has that key (as ``update(_:target:)``
  ///   does); `SQLiteError` (a foreign key RESTRICT, say).
  public func delete<M: Model>(_ model: M, target: String? = nil) throws {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    guard let table = try modelTable(M.self, target: target, for: .delete) else {
      throw ModelError.notFound(table: name, key: [])
    }
    try table.resolveDateFormats(self)
    try table.encode(model)
    try delete(M.self, key: table.encodedKey, target: target)
  }

  /// Deletes the row with this (single-column) primary key.
  /// - Throws: ``ModelError/notFound(table:key:)`` when no row has that key; `SQLiteError`.
  public func delete<M: Model>(
    _ model: M.Type, id: some SQLiteValueConvertible, target: String? = nil
  ) throws {
    try delete(model, key: [try id.sqliteValue()], target: target)
  }

  /// Deletes the row with this primary key, one value per key column.
  /// - Throws: ``ModelError/notFound(table:key:)`` when no row has that key; `SQLiteError`
  ///   (`.range` for the wrong number of key values).
  public func delete<M: Model>(_ model: M.Type, key: [SQLiteValue], target: String? = nil) throws {
    let name = target.map { M.tableName(target: $0) } ?? M.tableName
    guard let table = try modelTable(model, target: target, for: .delete),
      try run(
        "DELETE FROM " + table.quotedName + " WHERE " + table.keyCondition, StatementArguments(key))
        > 0
    else { throw ModelError.notFound(table: name, key: key) }
  }

  /// Deletes the rows where an SQL condition holds, its values bound, never spliced.
  ///
  /// ```swift
  /// import Foundation
  ///
  /// struct Message: Model {
  ///   var id: Int64?
  ///   var sentAt: Date
  ///   static let primaryKey = ["id"]
  /// }
  /// let db = try Connection.inMemory()
  /// let (chatID, cutoff) = ("42", Date(timeIntervalSinceNow: -30 * 86_400))
  /// try db.save(Message(id: 1, sentAt: Date(timeIntervalSince1970: 0)), target: chatID)
  ///
  /// try db.deleteAll(Message.self, where: "sentAt < ?", [cutoff], target: chatID)
  /// ```
  /// - Returns: the number of rows deleted (none is not an error).
  /// - Throws: `SQLiteError` for a bad condition or argument count.
  @discardableResult
  @_disfavoredOverload
  public func deleteAll<M: Model>(
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
}
