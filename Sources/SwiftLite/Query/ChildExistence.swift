/// `EXISTS (SELECT 1 FROM child WHERE child.fk = parent.key AND ...)`: the condition of
/// ``ModelQuery/joining(_:)-(HasMany<M, Child>)``, its link columns resolved when it is
/// written (see ``Relation``).
struct ChildExistence<Parent: Model, Child: Model>: SubqueryRendering {
  /// The association's `using:` columns, or `nil`.
  let columns: [String]?
  let children: ModelQuery<Child>

  func subquerySQL(in context: SQLContext) throws -> SQL {
    let mapping = try context.resolve(Child.self, children.target)
    // The parent's query is the context's: its table is the parent's.
    let relation = try Relation(
      child: Child.self, parent: Parent.self, columns: columns, childTable: mapping,
      parentTable: context.mapping)
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
