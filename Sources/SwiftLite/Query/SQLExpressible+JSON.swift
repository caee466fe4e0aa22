// SQLite's JSON functions (<https://sqlite.org/json1.html>) on columns that hold JSON text,
// as a model stores its arrays, dictionaries and nested `Codable` values. Paths and values
// are bound parameters, never spliced into the SQL.
extension SQLExpressible {
  /// `json_extract(x, ?)`: the value at a JSON path (`"$.city"`, `"$.tags[0]"`,
  /// `"$.\"a.b\""`), as SQL: text, a number, NULL, or JSON text for an array or an object.
  ///
  /// ```swift
  /// struct Address: Codable { var city: String }
  /// struct Person: Model { var id: Int64?; var address: Address; static let primaryKey = ["id"] }
  /// let db = try Connection.inMemory()
  /// try db.save(Person(id: 1, address: Address(city: "Paris")))
  ///
  /// let inParis = try Person.filter(Column("address").jsonValue(at: "$.city") == "Paris").fetchAll(db)
  /// ```
  /// A malformed path or malformed JSON makes the statement fail with `SQLiteError`.
  public func jsonValue(at path: String) -> SQLExpression {
    SQLExpression(.function("json_extract", [sqlExpression.node, .value(path)], distinct: false))
  }

  /// `json_array_length(x)`: the number of elements of the JSON array, 0 for another JSON
  /// value, NULL for NULL.
  public var jsonArrayLength: SQLExpression {
    SQLExpression(.function("json_array_length", [sqlExpression.node], distinct: false))
  }

  /// Whether the JSON array holds an element equal to `element`, compared as SQL compares
  /// (exactly: `"cof"` does not match `"coffee"`): `EXISTS (SELECT 1 FROM json_each(x)
  /// WHERE value = ?)`.
  ///
  /// ```swift
  /// struct Note: Model { var id: Int64?; var tags: [String]; static let primaryKey = ["id"] }
  /// let db = try Connection.inMemory()
  /// try db.save(Note(id: 1, tags: ["urgent", "work"]))
  ///
  /// let urgent = try Note.filter(Column("tags").jsonArrayContains("urgent")).fetchAll(db)
  /// ```
  public func jsonArrayContains(_ element: some SQLiteValueConvertible) -> SQLExpression {
    SQLExpression(.exists(JSONElementMatch(array: sqlExpression, element: .value(element))))
  }
}

extension Column {
  /// An assignment for ``ModelQuery/updateAll(_:_:)`` that changes one value inside the
  /// column's JSON: `"column" = json_set("column", ?, ?)` (the path and the value bound). A
  /// text value is stored as a JSON string; use `set(to:)` with `json(...)` SQL for JSON.
  ///
  /// ```swift
  /// struct Address: Codable { var city: String }
  /// struct Person: Model { var id: Int64?; var address: Address; static let primaryKey = ["id"] }
  /// let db = try Connection.inMemory()
  /// try db.save(Person(id: 1, address: Address(city: "Paris")))
  ///
  /// try Person.filter(Column("id") == 1).updateAll(db, Column("address").set(json: "$.city", to: "Lyon"))
  /// ```
  public func set(json path: String, to value: some SQLiteValueConvertible) -> ColumnAssignment {
    ColumnAssignment(
      column: self,
      value: SQLExpression(
        .function("json_set", [sqlExpression.node, .value(path), .value(value)], distinct: false)))
  }
}

/// `EXISTS (SELECT 1 FROM json_each(<array>) WHERE value = <element>)`.
private struct JSONElementMatch: SubqueryRendering {
  let array: SQLExpression
  let element: SQLExpression.Node

  func subquerySQL(in context: SQLContext) throws -> SQL {
    var sql = SQL("EXISTS (SELECT 1 FROM json_each(")
    sql.append(try array.sql(in: context))
    sql.text += ") WHERE json_each.value = "
    sql.append(try SQLExpression(element).sql(in: context))
    sql.text += ")"
    return sql
  }
}
