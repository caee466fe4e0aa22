/// A value of the query interface that is an SQL expression: a ``Column`` or an
/// ``SQLExpression``. The operators and methods of this protocol build conditions whose
/// values are always bound.
public protocol SQLExpressible: Sendable {
  /// The expression.
  var sqlExpression: SQLExpression { get }
}

/// Something a query can be ordered by: an ``SQLOrdering``, or a ``Column`` or an
/// ``SQLExpression`` (ascending).
public protocol SQLOrderable: Sendable {
  /// The ordering.
  var sqlOrdering: SQLOrdering { get }
}

extension SQLExpressible {
  /// `IS NULL`.
  public var isNull: SQLExpression { SQLExpression(.postfix(sqlExpression.node, "IS NULL")) }

  /// `IS NOT NULL`.
  public var isNotNull: SQLExpression {
    SQLExpression(.postfix(sqlExpression.node, "IS NOT NULL"))
  }

  /// `BETWEEN ? AND ?`, both bounds included.
  public func between(_ low: some SQLiteValueConvertible, and high: some SQLiteValueConvertible)
    -> SQLExpression
  {
    SQLExpression(.between(sqlExpression.node, .value(low), .value(high)))
  }

  /// `BETWEEN ? AND ?` for a closed range: `Column("age").between(18...65)`.
  public func between<V: SQLiteValueConvertible & Comparable>(_ range: ClosedRange<V>)
    -> SQLExpression
  {
    between(range.lowerBound, and: range.upperBound)
  }

  /// `IN (?, ?, ?)`, one bound parameter per value; an empty array matches no row.
  public func `in`<V: SQLiteValueConvertible>(_ values: [V]) -> SQLExpression {
    SQLExpression(.list(sqlExpression.node, values, negated: false))
  }

  /// `NOT IN (?, ?, ?)`; an empty array matches every row.
  public func notIn<V: SQLiteValueConvertible>(_ values: [V]) -> SQLExpression {
    SQLExpression(.list(sqlExpression.node, values, negated: true))
  }

  /// `IN (SELECT ...)`: the subquery should select one column.
  ///
  /// ```swift
  /// struct SchoolClass: Model { var id: Int64?; var gradeID: Int64; static let primaryKey = ["id"] }
  /// struct Lesson: Model { var id: Int64?; var classID: Int64; static let primaryKey = ["id"] }
  /// let db = try Connection.inMemory()
  /// try db.save(SchoolClass(id: 1, gradeID: 1))
  /// try db.save(Lesson(id: 1, classID: 1))
  ///
  /// let taught = Column("classID").in(SchoolClass.all().select(Column("id")).filter(Column("gradeID") == 1))
  /// let lessons = try Lesson.filter(taught).fetchAll(db)
  /// ```
  public func `in`<Other: Model>(_ subquery: ModelQuery<Other>) -> SQLExpression {
    SQLExpression(.subquery(sqlExpression.node, subquery, negated: false))
  }

  /// `NOT IN (SELECT ...)`.
  public func notIn<Other: Model>(_ subquery: ModelQuery<Other>) -> SQLExpression {
    SQLExpression(.subquery(sqlExpression.node, subquery, negated: true))
  }

  /// `IN (<sql>)` for a subquery or list you write: `Column("id").in("SELECT personID FROM pet WHERE kind = \(kind)")`.
  public func `in`(_ sql: SQL) -> SQLExpression {
    SQLExpression(.rawList(sqlExpression.node, sql, negated: false))
  }

  /// `LIKE ? ESCAPE '\'` matching text that contains `text` anywhere. `%`, `_` and `\`
  /// in `text` match themselves: a search for "100%" does not find "1000". SQLite's `LIKE`
  /// ignores case for ASCII letters only.
  public func contains(_ text: String) -> SQLExpression {
    SQLExpression(.like(sqlExpression.node, "%" + SQLExpression.escapeLike(text) + "%"))
  }

  /// `LIKE ? ESCAPE '\'` matching text that starts with `prefix`, taken literally.
  public func hasPrefix(_ prefix: String) -> SQLExpression {
    SQLExpression(.like(sqlExpression.node, SQLExpression.escapeLike(prefix) + "%"))
  }

  /// `LIKE ? ESCAPE '\'` matching text that ends with `suffix`, taken literally.
  public func hasSuffix(_ suffix: String) -> SQLExpression {
    SQLExpression(.like(sqlExpression.node, "%" + SQLExpression.escapeLike(suffix)))
  }

  /// `LIKE ? ESCAPE '\'` with a pattern of your own, bound: `%` and `_` are wildcards,
  /// `\` escapes the character after it.
  public func like(_ pattern: String) -> SQLExpression {
    SQLExpression(.like(sqlExpression.node, pattern))
  }

  /// Ascending order.
  public var asc: SQLOrdering { SQLOrdering(sqlExpression, descending: false) }

  /// Descending order.
  public var desc: SQLOrdering { SQLOrdering(sqlExpression, descending: true) }

  /// The expression named `name` in the result: `expression AS "name"`.
  public func aliased(_ name: String) -> SQLExpression {
    SQLExpression(.alias(sqlExpression.node, name))
  }
}
