/// `"column" = value` in an `UPDATE`, made by ``Column/set(to:)-(SQLiteValueConvertible)``
/// for ``ModelQuery/updateAll(_:_:)``.
public struct ColumnAssignment: Sendable {
  let column: Column
  let value: SQLExpression

  func sql(in context: SQLContext) throws -> SQL {
    var sql = SQL(context.quoted(column) + " = ")
    sql.append(try value.sql(in: context))
    return sql
  }
}
