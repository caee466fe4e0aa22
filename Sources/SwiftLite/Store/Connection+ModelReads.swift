import Foundation

// Reading models: by key, all, or where an SQL condition holds. A read never writes: a
// missing table reads as empty, and a managed table that needs migrating is an error.
/// Model persistence on a `Connection` (so also inside ``DatabaseQueue`` closures).
///
/// The first use of a model on a connection creates its table, or migrates it when the type
/// changed (see ``AutoMigration``); every value is bound, never spliced. Each method takes an
/// optional `target` that selects the table ``Model/tableName(target:)`` (one table per chat,
/// say) instead of ``Model/tableName``.
///
/// ```swift
/// struct Person: Model { var id: Int64?; var name: String; var age: Int; static let primaryKey = ["id"] }
/// let db = try Connection.inMemory()
/// let person = Person(id: 1, name: "Ann", age: 30)
///
/// try db.save(person)                                  // insert or update by primary key
/// let ann = try db.find(Person.self, id: 1)
/// let adults = try db.findAll(Person.self, where: "age >= ?", [18], orderBy: "name", limit: 20)
/// try db.delete(Person.self, id: 1)
/// ```
extension Connection {
  /// The model with this (single-column) primary key, or `nil`.
  /// - Throws: `SQLiteError`; `DecodingError` naming the column when a row does not decode.
  // Inlinable, so that it is compiled for the caller's model type: unspecialized, each call
  // looked up the metadata of `M?` at run time twice (about 650 instructions per lookup).
  @inlinable
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
    // A mapped model's lookup runs the statement its table keeps (see `lookUp`).
    if table.isMapped { return try lookUp(model, table, key: try id.sqliteValue()) }
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

  /// The mapped model with primary key `key`, or `nil`, read with the lookup statement its
  /// table keeps: bound, stepped once and reset, with no statement cache in between. A
  /// lookup started while that statement runs (from a model's `init(row:)`) takes the
  /// cached statement instead.
  /// - Throws: `SQLiteError`; `DecodingError` naming the column and the row.
  @usableFromInline func lookUp<M: Model>(_ model: M.Type, _ table: ModelTable, key: SQLiteValue)
    throws -> M?
  {
    let lookup = try table.lookup(self)
    guard let mapped = table.mapped, !lookup.isInUse else {
      return try withCachedStatement(table.findSQL, StatementArguments([key])) { statement in
        try first(model, table, statement)
      }
    }
    try ensureOpen(lookup.sql)
    // As a cached statement's run does: the owner may have changed since it was prepared.
    lookup.adopt(owner)
    return try lookup.read(mapped, key: key, table: table, as: M.self)
  }

  /// The first row of a bound statement of the model's table as a model, or `nil`.
  ///
  /// Calls nothing generic over `M?` (``ModelTable/namingTheRow(of:_:)`` would be): code
  /// that is not compiled for `M` looks the metadata of `M?` up at run time for such a call.
  @usableFromInline func first<M: Model>(
    _ model: M.Type, _ table: ModelTable, _ statement: Statement
  ) throws -> M? {
    do {
      if let mapped = table.mapped {
        return try mapped.readFirst(
          statement, columns: table.readColumns(of: statement), as: M.self)
      }
      guard try statement.step() else { return nil }
      return try table.decoder(readingInPlace: statement).decode(M.self, from: statement.row)
    } catch let error as DecodingError {
      throw table.located(error, in: statement.row)
    }
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
  /// struct User: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }
  /// let db = try Connection.inMemory()
  /// try db.save((1...50).map { User(id: $0, name: "Ann \($0)") })
  ///
  /// let page = try db.findAll(User.self, where: "name LIKE ?", ["%ann%"], orderBy: "name", limit: 20, offset: 40)
  /// ```
  /// - Throws: `SQLiteError` for a bad condition or argument count; `DecodingError`.
  @_disfavoredOverload
  public func findAll<M: Model>(
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
  @_disfavoredOverload
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

  /// `base`, or `base` with a number appended, whichever neither `sql` nor `pairs` uses.
  private static func freeParameterName(
    _ base: String, sql: String, _ pairs: [(String, (any SQLiteValueConvertible)?)]
  ) -> String {
    var name = base
    var suffix = 0
    while sql.contains(name) || pairs.contains(where: { $0.0.contains(name) }) {
      suffix += 1
      name = base + "_" + String(suffix)
    }
    return name
  }

  func fetch<M: Model>(
    _ model: M.Type, _ table: ModelTable, _ sql: String, _ arguments: StatementArguments,
    orderBy: String? = nil, limit: Int? = nil, offset: Int? = nil
  ) throws -> [M] {
    var sql = sql
    var arguments = arguments
    if let orderBy { sql += " ORDER BY " + orderBy }
    if limit != nil || offset != nil {
      // SQLite takes OFFSET only after a LIMIT; -1 means no limit.
      switch arguments.storage {
      case .positional(let values):
        let paging = [limit ?? -1] + (offset.map { [$0] } ?? [])
        sql += " LIMIT ?" + (offset == nil ? "" : " OFFSET ?")
        arguments = StatementArguments(values + paging)
      case .named(let pairs):
        // The paging parameters take names that neither the SQL nor the caller uses.
        let limitName = Self.freeParameterName("swiftlite_limit", sql: sql, pairs)
        let offsetName = Self.freeParameterName("swiftlite_offset", sql: sql, pairs)
        let paging: [(String, Int)] =
          [(limitName, limit ?? -1)] + (offset.map { [(offsetName, $0)] } ?? [])
        sql += " LIMIT :" + limitName + (offset == nil ? "" : " OFFSET :" + offsetName)
        arguments = StatementArguments(
          named: Dictionary(pairs + paging.map { ($0.0, $0.1) }, uniquingKeysWith: { a, _ in a }))
      }
    }
    return try withCachedStatement(sql, arguments) { statement in
      try decodeAll(model, table, statement)
    }
  }
}
