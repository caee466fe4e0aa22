/// The rows related to one given model: `(fk = ? AND ...)` with the given model's values,
/// over the children of a parent (``HasMany/query(of:)``) or the parent of a child
/// (``BelongsTo/query(of:)``). The link columns are resolved when the condition is written
/// (see ``Relation``), so the values of every stored property of the given model are kept.
struct RelationMatch<Parent: Model, Child: Model>: SubqueryRendering {
  /// The association's `using:` columns, or `nil`.
  let columns: [String]?
  /// Whether the query reads the children (the given model is the parent) or the parent.
  let readsChildren: Bool
  /// The given model's stored properties and their values.
  let given: (names: [String], values: [SQLiteValue])
  /// The given model's type name, for messages.
  let givenModel: String

  func subquerySQL(in context: SQLContext) throws -> SQL {
    // The query's own table is the context's; the given model's is looked up.
    let childTable = readsChildren ? context.mapping : try context.resolve(Child.self, nil)
    let parentTable = readsChildren ? try context.resolve(Parent.self, nil) : context.mapping
    let relation = try Relation(
      child: Child.self, parent: Parent.self, columns: columns, childTable: childTable,
      parentTable: parentTable)
    let (read, from) =
      readsChildren
      ? (relation.childColumns, relation.parentColumns)
      : (relation.parentColumns, relation.childColumns)
    let values = try Relation.values(from, in: given, model: givenModel)
    var sql = SQL("(")
    sql.append(try Relation.matching(read, values).sql(in: context))
    sql.text += ")"
    return sql
  }
}
