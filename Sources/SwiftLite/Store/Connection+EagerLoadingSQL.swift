// The SQL of the second statement of an eager load: the condition on the keys of the
// first statement's rows, and the numbering that keeps each parent's first children.
extension Connection {
  /// `"k" IN (SELECT value FROM json_each(?))` with the keys as one JSON array, for a
  /// one-column key whose values are all INTEGER; `nil` otherwise. The same rows as the
  /// list of ``keyCondition(_:_:_:)``: the values come back from the array as the
  /// INTEGER they were, and the column's affinity applies to them as to a list's.
  static func jsonArray(
    _ keys: [String], _ values: ArraySlice<EagerKey>, _ context: SQLContext
  ) -> SQLExpression? {
    guard keys.count == 1 else { return nil }
    var array = "["
    array.reserveCapacity(values.count * 8 + 2)
    for (index, value) in values.enumerated() {
      // Int64.min is left to the list: the one integer whose text a JSON reader must
      // take as negative before it overflows, not worth the doubt.
      guard case .one(.integer(let number)) = value, number != .min else { return nil }
      if index > 0 { array += "," }
      array += String(number)
    }
    array += "]"
    let column = SQLIdentifier.quote(context.columnName(keys[0]))
    return SQLExpression(SQL(column + " IN (SELECT value FROM json_each(?))", [array]))
  }

  /// `keys IN (...)`: `"k" IN (?, ?)` for one column, `("a", "b") IN (VALUES (?, ?), ...)`
  /// for several.
  static func keyCondition(
    _ keys: [String], _ values: ArraySlice<EagerKey>, _ context: SQLContext
  ) -> SQLExpression {
    let columns = keys.map { SQLIdentifier.quote(context.columnName($0)) }
    // Built apart and made into SQL once: each change to an `SQL`'s text or arguments
    // copies them for its observers, which made this quadratic in the number of parents
    // (about half of an eager load of 1,000 parents).
    var text: String
    var arguments: [(any SQLiteValueConvertible)?] = []
    arguments.reserveCapacity(values.count * keys.count)
    if keys.count == 1 {
      text = columns[0] + " IN ("
      for (index, value) in values.enumerated() {
        text += index == 0 ? "?" : ", ?"
        if case .one(let single) = value { arguments.append(single) }
      }
    } else {
      text = "(" + columns.joined(separator: ", ") + ") IN (VALUES "
      let row = "(" + Array(repeating: "?", count: keys.count).joined(separator: ", ") + ")"
      for (index, value) in values.enumerated() {
        text += (index == 0 ? "" : ", ") + row
        arguments += value.values.map { $0 }
      }
    }
    text += ")"
    return SQLExpression(SQL(text, arguments))
  }

  /// Each row's number within its group of `keys`, in the query's order (then the primary
  /// key's, so that ties are cut the same way every time), as `"swiftlite_rank"`.
  static func numberWithinGroup<M: Model>(
    _ query: ModelQuery<M>, keys: [String], context: SQLContext
  ) -> SQLExpression {
    var partition = keys.map { SQLExpression(SQL(SQLIdentifier.quote(context.columnName($0)))) }
    if partition.isEmpty { partition = [SQLExpression(SQL("1"))] }
    let primaryKey = context.mapping?.keyProperties ?? M.primaryKey
    let order = query.orderings + primaryKey.map { Column($0).asc }
    return SQLExpression(.windowNumber(partition: partition.map(\.node), order: order))
      .aliased("swiftlite_rank")
  }

  /// Keeps the rows of each group within the query's offset and limit, in their order.
  static func keepingEachGroupsFirst<M: Model>(
    _ sql: SQL, _ query: ModelQuery<M>, keyCount: Int
  ) -> SQL {
    let offset = query.offsetCount ?? 0
    var result = SQL("SELECT * FROM (")
    result.append(sql)
    result.text += ") WHERE \"swiftlite_rank\" > ?"
    result.arguments.append(offset)
    if let limit = query.limitCount {
      result.text += " AND \"swiftlite_rank\" <= ?"
      result.arguments.append(offset + limit)
    }
    // Each group's rows together, in their order: one run per group (see `readGroups`).
    let keys = (0..<keyCount).map { SQLIdentifier.quote("swiftlite_key\($0)") + ", " }
    result.text += " ORDER BY " + keys.joined() + "\"swiftlite_rank\""
    return result
  }

  /// The key columns, selected after everything else under names of their own.
  static func keyColumns(_ keys: [String], _ context: SQLContext) -> [SQLExpression] {
    keys.enumerated().map { index, key in
      SQLExpression(
        SQL(
          SQLIdentifier.quote(context.columnName(key)) + " AS "
            + SQLIdentifier.quote("swiftlite_key\(index)")))
    }
  }
}
