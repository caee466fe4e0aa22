// The SQL of a model query: one function per statement kind, each writing its columns in
// the spelling of the table's mapping and binding every value.
extension ModelQuery: SubqueryRendering {
  /// The table's name.
  var tableName: String { target.map { M.tableName(target: $0) } ?? M.tableName }

  /// The condition of every filter, joined by AND, or `nil` without filters. Without
  /// groups, the HAVING conditions are per-row conditions too.
  /// The full-text match is one of them unless the statement joins it (`joinsMatch`).
  private func condition(in context: SQLContext, joinsMatch: Bool) throws -> SQLExpression? {
    var conditions = grouping.isEmpty ? filters + havingConditions : filters
    if !joinsMatch,
      let match = try fullTextCondition(
        qualifier: context.qualifier.isEmpty
          ? context.mapping?.table ?? tableName : context.qualifier)
    {
      conditions.insert(match, at: 0)
    }
    guard var result = conditions.first else { return nil }
    for filter in conditions.dropFirst() { result = result && filter }
    return result
  }

  /// The default selection: every stored property, read under its property name.
  static func modelSelection(_ mapping: TableMapping?) -> String {
    mapping?.selectionList ?? "*"
  }

  /// `SELECT ...` of this query, in `context` (whose mapping is this model's table).
  /// - Parameter alias: the name the table takes in the FROM clause, when it needs one.
  func selectSQL(in context: SQLContext, alias: String? = nil) throws -> SQL {
    var sql = try CommonTable.clause(commonTables, in: context)
    sql.text += isDistinct ? "SELECT DISTINCT " : "SELECT "
    if let selection {
      sql.append(
        SQL.joined(try selection.map { try $0.sql(in: context) }, separator: ", "))
    } else {
      sql.text += Self.modelSelection(context.mapping)
    }
    if !annotations.isEmpty {
      sql.text += ", "
      sql.append(SQL.joined(try annotations.map { try $0.sql(in: context) }, separator: ", "))
    }
    if let source {
      // The common table's rows go by the table's name, so columns qualify as usual.
      sql.text +=
        " FROM " + SQLIdentifier.quote(source) + " AS "
        + SQLIdentifier.quote(alias ?? context.mapping?.table ?? tableName)
    } else {
      sql.text += " FROM " + SQLIdentifier.quote(context.mapping?.table ?? tableName)
      if let alias { sql.text += " AS " + SQLIdentifier.quote(alias) }
    }
    let join = try fullTextJoin(qualifier: alias ?? context.mapping?.table ?? tableName)
    if let join { sql.append(join) }
    try appendClauses(to: &sql, in: context, joinsMatch: join != nil)
    return sql
  }

  /// WHERE, GROUP BY, HAVING, ORDER BY, LIMIT and OFFSET.
  /// With `joinsMatch`, the statement joins the full-text match: it is no condition, and
  /// orders the rows best first when the query has no order of its own.
  func appendClauses(
    to sql: inout SQL, in context: SQLContext, ordered: Bool = true, joinsMatch: Bool = false
  ) throws {
    try appendWhere(to: &sql, in: context, joinsMatch: joinsMatch)
    if !grouping.isEmpty {
      sql.text += " GROUP BY "
      sql.append(SQL.joined(try grouping.map { try $0.sql(in: context) }, separator: ", "))
    }
    if !grouping.isEmpty && !havingConditions.isEmpty {
      var having = havingConditions[0]
      for condition in havingConditions.dropFirst() { having = having && condition }
      sql.text += " HAVING "
      sql.append(try having.sql(in: context))
    }
    guard ordered else { return }
    if !orderings.isEmpty {
      sql.text += " ORDER BY "
      sql.append(SQL.joined(try orderings.map { try $0.sql(in: context) }, separator: ", "))
    } else if joinsMatch {
      sql.text += " ORDER BY swiftlite_match.swiftlite_score"
    }
    if limitCount != nil || offsetCount != nil {
      // SQLite takes OFFSET only after a LIMIT; -1 means no limit.
      sql.text += " LIMIT ?"
      sql.arguments.append(limitCount ?? -1)
      if let offsetCount {
        sql.text += " OFFSET ?"
        sql.arguments.append(offsetCount)
      }
    }
  }

  /// ` WHERE ...` when the query has filters.
  func appendWhere(to sql: inout SQL, in context: SQLContext, joinsMatch: Bool = false) throws {
    if let condition = try condition(in: context, joinsMatch: joinsMatch) {
      sql.text += " WHERE "
      sql.append(try condition.sql(in: context))
    }
  }

  /// Whether the query's rows are not simply the filtered rows of the table.
  var isShaped: Bool {
    isDistinct || !grouping.isEmpty || limitCount != nil || offsetCount != nil
      || selection != nil || source != nil
  }

  /// `SELECT count(*) ...`: the number of rows the query returns.
  func countSQL(in context: SQLContext) throws -> SQL {
    if isShaped {
      var sql = SQL("SELECT count(*) FROM (")
      sql.append(try selectSQL(in: context))
      sql.text += ")"
      return sql
    }
    var sql = try CommonTable.clause(commonTables, in: context)
    sql.text += "SELECT count(*) FROM " + SQLIdentifier.quote(context.mapping?.table ?? tableName)
    try appendWhere(to: &sql, in: context)
    return sql
  }

  /// `SELECT EXISTS (...)`: whether the query returns a row.
  func existsSQL(in context: SQLContext) throws -> SQL {
    var inner = self
    if !isShaped { inner.selection = [SQLExpression(SQL("1"))] }
    var sql = SQL("SELECT EXISTS (")
    sql.append(try inner.selectSQL(in: context))
    sql.text += ")"
    return sql
  }

  /// The condition selecting the query's rows for DELETE and UPDATE: its filters, or, for
  /// a query with an order, a limit or groups, its rows' primary keys.
  private func rowCondition(in context: SQLContext) throws -> SQL {
    guard isShaped || !orderings.isEmpty else {
      var sql = SQL("")
      try appendWhere(to: &sql, in: context)
      return sql
    }
    let keys = (context.mapping?.keyProperties ?? M.primaryKey).map {
      SQLIdentifier.quote(context.columnName($0))
    }.joined(separator: ", ")
    var inner = self
    inner.selection = [SQLExpression(SQL(keys))]
    var sql = SQL(" WHERE (" + keys + ") IN (")
    sql.append(try inner.selectSQL(in: context))
    sql.text += ")"
    return sql
  }

  /// The common tables before a DELETE or UPDATE whose condition is the filters alone (a
  /// condition through the rows' keys is a SELECT that writes them itself).
  private func writeClause(in context: SQLContext) throws -> SQL {
    isShaped || !orderings.isEmpty ? SQL("") : try CommonTable.clause(commonTables, in: context)
  }

  /// `DELETE FROM ...` of the query's rows.
  func deleteSQL(in context: SQLContext) throws -> SQL {
    var sql = try writeClause(in: context)
    sql.text += "DELETE FROM " + SQLIdentifier.quote(context.mapping?.table ?? tableName)
    sql.append(try rowCondition(in: context))
    return sql
  }

  /// `UPDATE ... SET ...` of the query's rows.
  func updateSQL(_ assignments: [ColumnAssignment], in context: SQLContext) throws -> SQL {
    var sql = try writeClause(in: context)
    sql.text += "UPDATE " + SQLIdentifier.quote(context.mapping?.table ?? tableName) + " SET "
    sql.append(SQL.joined(try assignments.map { try $0.sql(in: context) }, separator: ", "))
    sql.append(try rowCondition(in: context))
    return sql
  }

  /// The query as a subquery of a statement in `context`: its own model's mapping
  /// resolves its columns. A missing table selects nothing.
  func subquerySQL(in context: SQLContext) throws -> SQL {
    let mapping = try context.resolve(M.self, target)
    if mapping == nil && !context.isVerbatim {
      // The table does not exist yet: no rows (an empty list is valid in IN).
      return SQL("SELECT NULL WHERE 0")
    }
    return try selectSQL(in: context.nested(mapping: mapping, alias: tableName))
  }

  /// The SELECT of this query with its columns written as named (no mapping): for tests
  /// and for logging what a query does.
  public var sql: SQL {
    (try? selectSQL(in: .verbatim(qualifier: tableName))) ?? SQL("")
  }
}
