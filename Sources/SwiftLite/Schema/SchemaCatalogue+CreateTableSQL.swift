// The CREATE TABLE statement a model's schema writes, which the describing statement
// compares with the table's own: every per-target table of a model has the same one but
// for its name, so the rest is written once per shape of table.
extension SchemaCatalogue {
  /// `schema.createTableSQL(as: table)`, the part after the name written once per shape.
  func createTableSQL(of schema: TableSchema, as table: String) -> String {
    let body: String
    if let index = createTableBodies.firstIndex(where: { Self.writesSameBody($0.shape, schema) }) {
      body = createTableBodies[index].body
      if index > 0 { createTableBodies.swapAt(0, index) }
    } else {
      body = schema.createTableBody
      if createTableBodies.count >= 8 { createTableBodies.removeLast() }
      createTableBodies.insert((schema, body), at: 0)
    }
    return "CREATE TABLE " + SQLIdentifier.quote(table) + body
  }

  /// Whether two schemas write the same ``TableSchema/createTableBody``: what it is made
  /// of is equal, texts byte for byte (`==` on `String` takes two normalizations of the
  /// same letters for one; SQLite does not).
  private static func writesSameBody(_ a: TableSchema, _ b: TableSchema) -> Bool {
    func same(_ x: String?, _ y: String?) -> Bool {
      switch (x, y) {
      case (nil, nil): return true
      case (let x?, let y?): return x.hasSameBytes(as: y)
      default: return false
      }
    }
    func same(_ x: [String], _ y: [String]) -> Bool {
      x.count == y.count && zip(x, y).allSatisfy { $0.hasSameBytes(as: $1) }
    }
    guard a.autoIncrement == b.autoIncrement, a.isStrict == b.isStrict,
      same(a.primaryKey, b.primaryKey), a.columns.count == b.columns.count,
      a.foreignKeys.count == b.foreignKeys.count
    else { return false }
    for (x, y) in zip(a.columns, b.columns) {
      guard x.isNotNull == y.isNotNull, x.isUnique == y.isUnique, same(x.name, y.name),
        same(x.type, y.type), same(x.defaultSQL, y.defaultSQL), same(x.check, y.check),
        same(x.collation, y.collation)
      else { return false }
    }
    return zip(a.foreignKeys, b.foreignKeys).allSatisfy { x, y in
      x.onDelete == y.onDelete && x.onUpdate == y.onUpdate && same(x.table, y.table)
        && same(x.columns, y.columns) && same(x.parentColumns, y.parentColumns)
    }
  }
}
