/// A model's table checked against its model on this connection, with its SQL written once.
///
/// Kept per connection and per (model type, table name): the first use of a model on a
/// connection checks (and, for a table SwiftLite manages, creates or migrates) its table;
/// later uses find this and go straight to the cached statements.
final class ModelTable {
  let mapping: TableMapping
  let keyPositions: [Int]
  let otherPositions: [Int]
  let encoder: RowEncoder
  let ignored: Set<String>

  let selectSQL: String
  let insertSQL: String
  let upsertSQL: String
  let updateSQL: String?
  let keyCondition: String
  let quotedName: String

  init(mapping: TableMapping, ignored: Set<String>) {
    self.mapping = mapping
    self.ignored = ignored
    let names = mapping.properties
    let quoted = mapping.columns.map(SQLIdentifier.quote)
    let keySet = Set(mapping.keyProperties)
    keyPositions = mapping.keyProperties.compactMap { names.firstIndex(of: $0) }
    // A column of the table's own key, when the model keys rows by another, is written by
    // an insert but never updated.
    otherPositions = names.indices.filter {
      !keySet.contains(names[$0]) && !mapping.identityProperties.contains(names[$0])
    }
    encoder = RowEncoder(columns: names)
    quotedName = SQLIdentifier.quote(mapping.table)

    let columnList = quoted.joined(separator: ", ")
    // A column named differently from its property (in case only) is read under the
    // property's name.
    let selected = zip(mapping.columns, names).map { column, property in
      column == property
        ? SQLIdentifier.quote(column)
        : SQLIdentifier.quote(column) + " AS " + SQLIdentifier.quote(property)
    }
    let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
    selectSQL = "SELECT " + selected.joined(separator: ", ") + " FROM " + quotedName
    insertSQL = "INSERT INTO " + quotedName + " (" + columnList + ") VALUES (" + placeholders + ")"
    let keyList = keyPositions.map { quoted[$0] }.joined(separator: ", ")
    let assignments = otherPositions.map { quoted[$0] + " = excluded." + quoted[$0] }
    upsertSQL =
      insertSQL + " ON CONFLICT (" + keyList + ") "
      + (assignments.isEmpty
        ? "DO NOTHING" : "DO UPDATE SET " + assignments.joined(separator: ", "))
    keyCondition = keyPositions.map { quoted[$0] + " = ?" }.joined(separator: " AND ")
    updateSQL =
      otherPositions.isEmpty
      ? nil
      : "UPDATE " + quotedName + " SET "
        + otherPositions.map { quoted[$0] + " = ?" }.joined(separator: ", ") + " WHERE "
        + keyCondition
  }

  /// The table's name, as the model names it.
  var name: String { mapping.table }

  /// A statement this table owns with an encoder that binds straight into it: writing a
  /// model looks nothing up by SQL text and builds no intermediate values.
  final class Writer {
    let statement: Statement
    let encoder: RowEncoder
    init(_ sql: String, columns: [String], db: Connection) throws {
      statement = try db.prepare(sql)
      encoder = RowEncoder(columns: columns, bindingTo: statement)
    }

    /// Encodes `model` into the statement's parameters and runs it.
    func write(_ model: some Encodable) throws {
      try encoder.encode(model)
      try statement.execute()
    }
  }

  private var upsert: Writer?
  private var insert: Writer?

  /// INSERT ... ON CONFLICT DO UPDATE: `save`. Prepared on first use.
  /// - Throws: ``ModelError/writeRefused(table:reason:)`` when the table cannot take it.
  func upsertWriter(_ db: Connection) throws -> Writer {
    if let upsert { return upsert }
    if let reason = mapping.insertRefusal ?? mapping.upsertRefusal {
      throw ModelError.writeRefused(table: name, reason: reason)
    }
    let writer = try Writer(upsertSQL, columns: mapping.properties, db: db)
    upsert = writer
    return writer
  }

  /// Plain INSERT: `insert`. Prepared on first use.
  /// - Throws: ``ModelError/writeRefused(table:reason:)`` when the table cannot take it.
  func insertWriter(_ db: Connection) throws -> Writer {
    if let insert { return insert }
    if let reason = mapping.insertRefusal {
      throw ModelError.writeRefused(table: name, reason: reason)
    }
    let writer = try Writer(insertSQL, columns: mapping.properties, db: db)
    insert = writer
    return writer
  }

  /// Binds the encoder's values at `positions` to parameters 1, 2, ...
  func bind(_ positions: [Int], to statement: Statement, startingAt first: Int32 = 1) throws {
    var parameter = first
    for position in positions {
      try statement.bindValue(encoder.values[position], at: parameter)
      parameter += 1
    }
  }

  /// The primary key values of the last encoded model.
  var encodedKey: [SQLiteValue] { keyPositions.map { encoder.values[$0] } }
}
