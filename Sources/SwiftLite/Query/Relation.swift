/// The columns that link a child table to its parent: the child's foreign key columns and
/// the parent columns they reference, resolved from the child's ``Model/foreignKeys``.
struct Relation: Sendable {
  /// The child's columns (property names).
  let childColumns: [String]
  /// The referenced parent columns (property names), in the same order.
  let parentColumns: [String]

  /// The foreign key of `Child` that references `Parent`'s table: the only one, or the one
  /// on `columns`.
  /// - Throws: ``ModelError/invalidDeclaration(model:reason:)`` when there is none, or
  ///   several and `columns` does not choose one.
  init<Child: Model, Parent: Model>(child: Child.Type, parent: Parent.Type, columns: [String]?)
    throws
  {
    let parentTable = Parent.tableName.asciiCaseFolded
    let candidates = Child.foreignKeys.filter { key in
      key.table.asciiCaseFolded == parentTable
        && (columns.map { $0.map(\.asciiCaseFolded) == key.columns.map(\.asciiCaseFolded) }
          ?? true)
    }
    let model = String(describing: Child.self)
    guard let key = candidates.first else {
      let named = columns.map { " on (" + $0.joined(separator: ", ") + ")" } ?? ""
      throw ModelError.invalidDeclaration(
        model: model,
        reason: "no foreign key\(named) references \(Parent.tableName); declare it in "
          + "foreignKeys: ForeignKey([\"...\"], references: \(String(describing: Parent.self)).tableName)"
      )
    }
    guard candidates.count == 1 else {
      throw ModelError.invalidDeclaration(
        model: model,
        reason: "several foreign keys reference \(Parent.tableName); choose one with using: "
          + candidates.map { "[" + $0.columns.joined(separator: ", ") + "]" }.joined(
            separator: " or "))
    }
    let parentColumns = key.parentColumns.isEmpty ? Parent.primaryKey : key.parentColumns
    guard parentColumns.count == key.columns.count else {
      throw ModelError.invalidDeclaration(
        model: model,
        reason: "the foreign key on (" + key.columns.joined(separator: ", ") + ") has "
          + "\(key.columns.count) columns but references \(parentColumns.count)")
    }
    childColumns = key.columns
    self.parentColumns = parentColumns
  }

  /// The values of `model`'s properties named by `names`, matched as SQLite matches names.
  /// - Throws: `EncodingError`; ``ModelError`` when a name is not a stored property.
  static func values<M: Model>(of model: M, _ names: [String]) throws -> [SQLiteValue] {
    let properties = try TableSchema(M.self).columns.map(\.name)
    let encoder = RowEncoder(columns: properties)
    try encoder.encode(model)
    return try names.map { name in
      let folded = name.asciiCaseFolded
      guard let index = properties.firstIndex(where: { $0.asciiCaseFolded == folded }) else {
        throw ModelError.invalidDeclaration(
          model: String(describing: M.self), reason: "'\(name)' is not a stored property")
      }
      return encoder.values[index]
    }
  }

  /// The condition tying the child rows (read as `alias` in `inner`) to the parent row of
  /// `context`: `alias.fk = parent.key AND ...`, for correlated subqueries.
  func link(child alias: String, in inner: SQLContext, toParentIn context: SQLContext)
    -> SQLExpression
  {
    var links = SQL("")
    for (index, (child, parent)) in zip(childColumns, parentColumns).enumerated() {
      if index > 0 { links.text += " AND " }
      links.text +=
        SQLIdentifier.quote(alias) + "." + SQLIdentifier.quote(inner.columnName(child)) + " = "
        + SQLIdentifier.quote(context.qualifier) + "."
        + SQLIdentifier.quote(context.columnName(parent))
    }
    return SQLExpression(links)
  }

  /// `columns = values`, each value bound; a NULL value matches no row.
  static func matching(_ columns: [String], _ values: [SQLiteValue]) -> SQLExpression {
    if values.contains(where: \.isNull) { return SQLExpression(SQL("0")) }
    var condition = Column(columns[0]) == values[0]
    for index in columns.indices.dropFirst() {
      condition = condition && Column(columns[index]) == values[index]
    }
    return condition
  }
}

/// `EXISTS (SELECT 1 FROM child WHERE child.fk = parent.key AND ...)`: the condition of
/// ``ModelQuery/joining(_:)-(HasMany<M, Child>)``.
struct ChildExistence<Child: Model>: SubqueryRendering {
  let relation: Relation
  let children: ModelQuery<Child>

  func subquerySQL(in context: SQLContext) throws -> SQL {
    let mapping = try context.resolve(Child.self, children.target)
    // No child table yet: no parent has children.
    if mapping == nil && !context.isVerbatim { return SQL("0") }
    let alias = "swiftlite_child\(context.depth + 1)"
    let inner = context.nested(mapping: mapping, alias: alias)
    var query = children
    query.selection = [SQLExpression(SQL("1"))]
    query.orderings = []
    query.filters.insert(relation.link(child: alias, in: inner, toParentIn: context), at: 0)
    var sql = SQL("EXISTS (")
    sql.append(try query.selectSQL(in: inner, alias: alias))
    sql.text += ")"
    return sql
  }
}
