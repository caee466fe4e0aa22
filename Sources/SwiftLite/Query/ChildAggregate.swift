/// An aggregate of a parent's children, as a correlated subquery of the parent's query:
/// `(SELECT count(*) FROM note AS c WHERE c.folderID = folder.id AND ...)`. One statement
/// computes it for every parent. The link columns are resolved when it is written (see
/// ``Relation``).
struct ChildAggregate<Parent: Model, Child: Model>: SubqueryRendering {
  /// The association's `using:` columns, or `nil`.
  let columns: [String]?
  let children: ModelQuery<Child>
  /// The aggregate over the children's rows (`count(*)`, `sum(size)`...).
  let aggregate: SQLExpression
  /// What the subquery gives when the child table does not exist yet (`0` for a count,
  /// `NULL` for the others, as over no row).
  let valueWithoutTable: String

  func subquerySQL(in context: SQLContext) throws -> SQL {
    let mapping = try context.resolve(Child.self, children.target)
    let relation = try Relation(
      child: Child.self, parent: Parent.self, columns: columns, childTable: mapping,
      parentTable: context.mapping)
    if mapping == nil && !context.isVerbatim { return SQL(valueWithoutTable) }
    let alias = "swiftlite_child\(context.depth + 1)"
    let inner = context.nested(mapping: mapping, alias: alias)
    var query = children
    query.selection = [aggregate]
    query.orderings = []
    query.limitCount = nil
    query.offsetCount = nil
    query.filters.insert(relation.link(child: alias, in: inner, toParentIn: context), at: 0)
    var sql = SQL("(")
    sql.append(try query.selectSQL(in: inner, alias: alias))
    sql.text += ")"
    return sql
  }
}
