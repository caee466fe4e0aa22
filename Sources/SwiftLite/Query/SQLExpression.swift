/// An SQL expression of the query interface: a condition, a computed value, an aggregate.
/// Built with the operators and methods of ``SQLExpressible`` from ``Column``s and values;
/// every value in it is bound when the query runs.
///
/// ```swift
/// let days = 30
///
/// let condition = Column("age") >= 18 && (Column("name").hasPrefix("A") || Column("email").isNull)
/// let raw = SQLExpression("julianday('now') - julianday(\(Column("bornAt"))) > \(days)")
/// ```
///
/// `SQLExpression` is `Sendable`.
public struct SQLExpression: SQLExpressible, SQLOrderable, Sendable {
  let node: Node

  init(_ node: Node) { self.node = node }

  /// SQL you write, with its interpolated values bound: an escape hatch that fits anywhere
  /// an expression does. Columns in it are written as you name them.
  public init(_ sql: SQL) { self.node = .sql(sql) }

  /// A bound value as an expression: `SQLExpression(value: 1)`.
  public init(value: some SQLiteValueConvertible) { self.node = .value(value) }

  /// Itself.
  public var sqlExpression: SQLExpression { self }

  /// Ascending order.
  public var sqlOrdering: SQLOrdering { SQLOrdering(self, descending: false) }

  // MARK: Aggregates and functions

  /// `count(*)`: the number of rows.
  public static let countAll = SQLExpression(.function("count", [.sql("*")], distinct: false))

  /// `count(x)`: the number of rows where `x` is not NULL (`count(DISTINCT x)` with
  /// `distinct`: of distinct values).
  public static func count(_ expression: some SQLExpressible, distinct: Bool = false)
    -> SQLExpression
  {
    SQLExpression(.function("count", [expression.sqlExpression.node], distinct: distinct))
  }

  /// `sum(x)`: NULL when no row has a value.
  public static func sum(_ expression: some SQLExpressible) -> SQLExpression {
    function("sum", expression)
  }

  /// `min(x)` over the rows.
  public static func min(_ expression: some SQLExpressible) -> SQLExpression {
    function("min", expression)
  }

  /// `max(x)` over the rows.
  public static func max(_ expression: some SQLExpressible) -> SQLExpression {
    function("max", expression)
  }

  /// `avg(x)`: a REAL, NULL when no row has a value.
  public static func avg(_ expression: some SQLExpressible) -> SQLExpression {
    function("avg", expression)
  }

  /// `name(x, y, ...)`: a call of an SQL function. The name is written as it is, so it
  /// must be a name you chose, not input.
  public static func function(_ name: String, _ arguments: any SQLExpressible...)
    -> SQLExpression
  {
    SQLExpression(.function(name, arguments.map(\.sqlExpression.node), distinct: false))
  }

  /// `text` with `\`, `%` and `_` escaped by `\`, for a `LIKE ... ESCAPE '\'` pattern:
  /// what ``SQLExpressible/contains(_:)`` binds between its `%`.
  public static func escapeLike(_ text: String) -> String {
    var escaped = ""
    escaped.reserveCapacity(text.utf8.count)
    for character in text {
      if character == "\\" || character == "%" || character == "_" { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }

  /// The SQL of the expression, its columns resolved in `context`.
  func sql(in context: SQLContext) throws -> SQL {
    var sql = SQL("")
    try node.render(into: &sql, context)
    return sql
  }

  /// The parts of an expression.
  indirect enum Node: Sendable {
    case column(Column)
    case value((any SQLiteValueConvertible)?)
    case sql(SQL)
    /// `left op right`, with the operator's precedence.
    case infix(Node, String, Node, precedence: Int)
    case not(Node)
    case postfix(Node, String)
    case function(String, [Node], distinct: Bool)
    case between(Node, Node, Node)
    case list(Node, [any SQLiteValueConvertible], negated: Bool)
    case rawList(Node, SQL, negated: Bool)
    case subquery(Node, any SubqueryRendering, negated: Bool)
    case exists(any SubqueryRendering)
    /// A subquery that gives one value, or a condition written once the connection is known
    /// (a relation's), in parentheses by the renderer itself.
    case scalar(any SubqueryRendering)
    /// `row_number() OVER (PARTITION BY ... ORDER BY ...)`.
    case windowNumber(partition: [Node], order: [SQLOrdering])
    case like(Node, String)
    case alias(Node, String)

    /// How tightly the node binds, as SQLite parses operators: OR 1, AND 2, NOT 3,
    /// `= <> IS IN LIKE BETWEEN` 4, `< <= > >=` 5, `+ -` 7, `* /` 8, `||` 9, operands 10.
    var precedence: Int {
      switch self {
      case .infix(_, _, _, let precedence): precedence
      case .not: 3
      case .postfix, .between, .list, .rawList, .subquery, .like: 4
      case .alias: 0
      default: 10
      }
    }

    func render(into sql: inout SQL, _ context: SQLContext) throws {
      switch self {
      case .column(let column):
        sql.text += context.quoted(column)
      case .value(let value):
        sql.text += "?"
        sql.arguments.append(value)
      case .sql(let fragment):
        sql.append(fragment)
      case .infix(let left, let op, let right, let precedence):
        // AND and OR are associative; other operators group to the left.
        let associative = op == "AND" || op == "OR"
        try left.render(into: &sql, context, atLeast: precedence)
        sql.text += " " + op + " "
        try right.render(into: &sql, context, atLeast: associative ? precedence : precedence + 1)
      case .not(let operand):
        sql.text += "NOT "
        try operand.render(into: &sql, context, atLeast: 4)
      case .postfix(let operand, let op):
        try operand.render(into: &sql, context, atLeast: 5)
        sql.text += " " + op
      case .function(let name, let arguments, let distinct):
        sql.text += name + "(" + (distinct ? "DISTINCT " : "")
        for (index, argument) in arguments.enumerated() {
          if index > 0 { sql.text += ", " }
          try argument.render(into: &sql, context, atLeast: 1)
        }
        sql.text += ")"
      case .between(let operand, let low, let high):
        try operand.render(into: &sql, context, atLeast: 5)
        sql.text += " BETWEEN "
        try low.render(into: &sql, context, atLeast: 5)
        sql.text += " AND "
        try high.render(into: &sql, context, atLeast: 5)
      case .list(let operand, let values, let negated):
        try operand.render(into: &sql, context, atLeast: 5)
        // SQLite accepts an empty list: `x IN ()` is false, `x NOT IN ()` true.
        sql.text += (negated ? " NOT IN (" : " IN (")
        for index in values.indices {
          sql.text += index == 0 ? "?" : ", ?"
          sql.arguments.append(values[index])
        }
        sql.text += ")"
      case .rawList(let operand, let fragment, let negated):
        try operand.render(into: &sql, context, atLeast: 5)
        sql.text += (negated ? " NOT IN (" : " IN (")
        sql.append(fragment)
        sql.text += ")"
      case .subquery(let operand, let subquery, let negated):
        try operand.render(into: &sql, context, atLeast: 5)
        sql.text += (negated ? " NOT IN (" : " IN (")
        sql.append(try subquery.subquerySQL(in: context))
        sql.text += ")"
      case .exists(let subquery), .scalar(let subquery):
        sql.append(try subquery.subquerySQL(in: context))
      case .windowNumber(let partition, let order):
        sql.text += "row_number() OVER (PARTITION BY "
        for (index, node) in partition.enumerated() {
          if index > 0 { sql.text += ", " }
          try node.render(into: &sql, context)
        }
        sql.text += " ORDER BY "
        sql.append(SQL.joined(try order.map { try $0.sql(in: context) }, separator: ", "))
        sql.text += ")"
      case .like(let operand, let pattern):
        try operand.render(into: &sql, context, atLeast: 5)
        sql.text += " LIKE ? ESCAPE '\\'"
        sql.arguments.append(pattern)
      case .alias(let operand, let name):
        try operand.render(into: &sql, context, atLeast: 1)
        sql.text += " AS " + SQLIdentifier.quote(name)
      }
    }

    /// Renders the node, in parentheses when it binds less tightly than `precedence`.
    private func render(into sql: inout SQL, _ context: SQLContext, atLeast precedence: Int)
      throws
    {
      if self.precedence < precedence {
        sql.text += "("
        try render(into: &sql, context)
        sql.text += ")"
      } else {
        try render(into: &sql, context)
      }
    }
  }
}

/// A query that can be written inside another one: `IN (SELECT ...)` or `EXISTS (...)`.
protocol SubqueryRendering: Sendable {
  /// The subquery's SQL (for `EXISTS`, the whole `EXISTS (...)` condition), its columns
  /// resolved with its own model's mapping, nested in `context`.
  func subquerySQL(in context: SQLContext) throws -> SQL
}
