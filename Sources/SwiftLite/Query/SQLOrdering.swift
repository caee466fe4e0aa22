/// One term of `ORDER BY`: an expression, its direction, and where NULLs go.
///
/// ```swift
/// struct Pupil: Model {
///   var id: Int64?
///   var name: String
///   var nickname: String?
///   var grade: Int
///   static let primaryKey = ["id"]
/// }
/// let db = try Connection.inMemory()
/// try db.save([Pupil(id: 1, name: "Ann", nickname: nil, grade: 5), Pupil(id: 2, name: "Bo", nickname: "B", grade: 5)])
///
/// let pupils = try Pupil.all()
///   .order(Column("grade").desc, Column("nickname").asc.nullsLast, Column("name"))
///   .fetchAll(db)
/// ```
public struct SQLOrdering: SQLOrderable, Sendable {
  let expression: SQLExpression
  let descending: Bool
  var nulls: String?

  init(_ expression: SQLExpression, descending: Bool) {
    self.expression = expression
    self.descending = descending
  }

  /// NULLs before every value (`NULLS FIRST`; SQLite's default for ascending order).
  public var nullsFirst: SQLOrdering {
    var ordering = self
    ordering.nulls = "NULLS FIRST"
    return ordering
  }

  /// NULLs after every value (`NULLS LAST`; SQLite's default for descending order).
  public var nullsLast: SQLOrdering {
    var ordering = self
    ordering.nulls = "NULLS LAST"
    return ordering
  }

  /// Itself.
  public var sqlOrdering: SQLOrdering { self }

  func sql(in context: SQLContext) throws -> SQL {
    var sql = try expression.sql(in: context)
    if descending { sql.text += " DESC" }
    if let nulls { sql.text += " " + nulls }
    return sql
  }
}
