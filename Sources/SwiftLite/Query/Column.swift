/// A column named in a query: by the model's property name (its coding key), which the
/// query interface turns into the table's own spelling of the column on a mapped table.
///
/// ```swift
/// struct Person: Model { var id: Int64?; var name: String; var age: Int; static let primaryKey = ["id"] }
/// let db = try Connection.inMemory()
/// try db.save([Person(id: 1, name: "Ann", age: 30), Person(id: 2, name: "Bo", age: 9)])
///
/// let adults = try Person.filter(Column("age") >= 18).order(Column("name")).fetchAll(db)
/// ```
///
/// Names are strings, not key paths: a key path cannot say which column a property is
/// stored in, and the `CodingKeys` that do say it are private when the compiler writes
/// them. A model that declares its `CodingKeys` can name columns by them
/// (`Column(Person.CodingKeys.age)`); a model may also gather its columns in one place:
///
/// ```swift
/// struct Person: Model { var id: Int64?; var name: String; var age: Int; static let primaryKey = ["id"] }
///
/// extension Person {
///   enum Columns {
///     static let name = Column("name")
///     static let age = Column("age")
///   }
/// }
/// let adults = Person.filter(Person.Columns.age >= 18).order(Person.Columns.name)
/// ```
public struct Column: SQLExpressible, SQLOrderable, Hashable, Sendable {
  /// The property (or column) name.
  public let name: String
  /// The table or alias that qualifies the column, or `nil` for the query's own table.
  public let table: String?

  /// A column of the query's table, by property name (or column name).
  public init(_ name: String) {
    self.name = name
    self.table = nil
  }

  /// A column of another table of the statement (`"table"."name"`), written as named.
  public init(_ name: String, table: String) {
    self.name = name
    self.table = table
  }

  /// The column of a coding key: `Column(Person.CodingKeys.age)`.
  public init(_ key: some CodingKey) {
    self.init(key.stringValue)
  }

  /// The column as an expression.
  public var sqlExpression: SQLExpression { SQLExpression(.column(self)) }

  /// Ascending order.
  public var sqlOrdering: SQLOrdering { SQLOrdering(sqlExpression, descending: false) }

  /// The column quoted as named, qualified by its table when it has one.
  var quoted: String {
    (table.map { SQLIdentifier.quote($0) + "." } ?? "") + SQLIdentifier.quote(name)
  }

  /// An assignment for ``ModelQuery/updateAll(_:_:)``: `"column" = ?`.
  public func set(to value: some SQLiteValueConvertible) -> ColumnAssignment {
    ColumnAssignment(column: self, value: SQLExpression(.value(value)))
  }

  /// An assignment to an expression, such as `Column("score").set(to: Column("score") + 1)`.
  public func set(to value: some SQLExpressible) -> ColumnAssignment {
    ColumnAssignment(column: self, value: value.sqlExpression)
  }
}
