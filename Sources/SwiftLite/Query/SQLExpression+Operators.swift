// The operators of the query interface. Each builds an ``SQLExpression``; a value on the
// right is always a bound parameter, and comparing with `nil` writes `IS NULL`.

/// Whether a value is an optional holding nothing.
private func isNone(_ value: some SQLiteValueConvertible) -> Bool {
  (value as? any OptionalValue)?.isNil ?? false
}

private func compare(
  _ lhs: some SQLExpressible, _ op: String, _ rhs: SQLExpression.Node, precedence: Int
) -> SQLExpression {
  SQLExpression(.infix(lhs.sqlExpression.node, op, rhs, precedence: precedence))
}

/// `column = ?`, or `column IS NULL` when the value is `nil`.
public func == (lhs: some SQLExpressible, rhs: some SQLiteValueConvertible) -> SQLExpression {
  isNone(rhs) ? lhs.isNull : compare(lhs, "=", .value(rhs), precedence: 4)
}

/// `column <> ?`, or `column IS NOT NULL` when the value is `nil`.
public func != (lhs: some SQLExpressible, rhs: some SQLiteValueConvertible) -> SQLExpression {
  isNone(rhs) ? lhs.isNotNull : compare(lhs, "<>", .value(rhs), precedence: 4)
}

/// `a = b` between two expressions.
public func == (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  compare(lhs, "=", rhs.sqlExpression.node, precedence: 4)
}

/// `a <> b` between two expressions.
public func != (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  compare(lhs, "<>", rhs.sqlExpression.node, precedence: 4)
}

/// `column IS NULL`.
public func == (lhs: some SQLExpressible, rhs: _OptionalNilComparisonType) -> SQLExpression {
  lhs.isNull
}

/// `column IS NOT NULL`.
public func != (lhs: some SQLExpressible, rhs: _OptionalNilComparisonType) -> SQLExpression {
  lhs.isNotNull
}

/// `column < ?`.
public func < (lhs: some SQLExpressible, rhs: some SQLiteValueConvertible) -> SQLExpression {
  compare(lhs, "<", .value(rhs), precedence: 5)
}

/// `column <= ?`.
public func <= (lhs: some SQLExpressible, rhs: some SQLiteValueConvertible) -> SQLExpression {
  compare(lhs, "<=", .value(rhs), precedence: 5)
}

/// `column > ?`.
public func > (lhs: some SQLExpressible, rhs: some SQLiteValueConvertible) -> SQLExpression {
  compare(lhs, ">", .value(rhs), precedence: 5)
}

/// `column >= ?`.
public func >= (lhs: some SQLExpressible, rhs: some SQLiteValueConvertible) -> SQLExpression {
  compare(lhs, ">=", .value(rhs), precedence: 5)
}

/// `a < b` between two expressions.
public func < (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  compare(lhs, "<", rhs.sqlExpression.node, precedence: 5)
}

/// `a <= b` between two expressions.
public func <= (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  compare(lhs, "<=", rhs.sqlExpression.node, precedence: 5)
}

/// `a > b` between two expressions.
public func > (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  compare(lhs, ">", rhs.sqlExpression.node, precedence: 5)
}

/// `a >= b` between two expressions.
public func >= (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  compare(lhs, ">=", rhs.sqlExpression.node, precedence: 5)
}

/// `a AND b`.
public func && (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression(.infix(lhs.node, "AND", rhs.node, precedence: 2))
}

/// `a OR b`.
public func || (lhs: SQLExpression, rhs: SQLExpression) -> SQLExpression {
  SQLExpression(.infix(lhs.node, "OR", rhs.node, precedence: 1))
}

/// `NOT a`.
public prefix func ! (operand: SQLExpression) -> SQLExpression {
  SQLExpression(.not(operand.node))
}

/// `column + ?`.
public func + (lhs: some SQLExpressible, rhs: some SQLiteValueConvertible) -> SQLExpression {
  compare(lhs, "+", .value(rhs), precedence: 7)
}

/// `column - ?`.
public func - (lhs: some SQLExpressible, rhs: some SQLiteValueConvertible) -> SQLExpression {
  compare(lhs, "-", .value(rhs), precedence: 7)
}

/// `column * ?`.
public func * (lhs: some SQLExpressible, rhs: some SQLiteValueConvertible) -> SQLExpression {
  compare(lhs, "*", .value(rhs), precedence: 8)
}

/// `column / ?`.
public func / (lhs: some SQLExpressible, rhs: some SQLiteValueConvertible) -> SQLExpression {
  compare(lhs, "/", .value(rhs), precedence: 8)
}

/// `a + b` between two expressions.
public func + (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  compare(lhs, "+", rhs.sqlExpression.node, precedence: 7)
}

/// `a - b` between two expressions.
public func - (lhs: some SQLExpressible, rhs: some SQLExpressible) -> SQLExpression {
  compare(lhs, "-", rhs.sqlExpression.node, precedence: 7)
}
