/// A model table checked against its model on this connection, with its SQL written once.
///
/// Kept per connection and per (model type, table name): the first use of a model on a
/// connection creates or migrates its table; later uses find this and go straight to the
/// cached statements.
final class ModelTable {
  let schema: TableSchema
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

  init(schema: TableSchema, ignored: Set<String>, db: Connection) throws {
    self.schema = schema
    self.ignored = ignored
    let names = schema.columns.map(\.name)
    let quoted = names.map(SQLIdentifier.quote)
    let keySet = Set(schema.primaryKey)
    keyPositions = schema.primaryKey.compactMap { names.firstIndex(of: $0) }
    otherPositions = names.indices.filter { !keySet.contains(names[$0]) }
    encoder = RowEncoder(columns: names)
    quotedName = SQLIdentifier.quote(schema.name)

    let columnList = quoted.joined(separator: ", ")
    let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
    selectSQL = "SELECT " + columnList + " FROM " + quotedName
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
    upsertWriter = try Writer(upsertSQL, columns: names, db: db)
    insertWriter = try Writer(insertSQL, columns: names, db: db)
  }

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

  /// INSERT OR ... ON CONFLICT DO UPDATE: `save`.
  let upsertWriter: Writer
  /// Plain INSERT: `insert`.
  let insertWriter: Writer

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
