/// The columns that link a child table to its parent: the child's foreign key columns and
/// the parent columns they reference. Resolved when a query is written on a connection,
/// from the child's ``Model/foreignKeys`` when it declares a key to the parent's table,
/// else from the foreign keys SQLite reports for the child's table.
struct Relation: Sendable {
  /// The child's columns (property names where the child has them).
  let childColumns: [String]
  /// The referenced parent columns (property names where the parent has them), in the
  /// same order.
  let parentColumns: [String]

  /// The foreign key of `Child` that references `Parent`'s table: the only one, or the one
  /// on `columns`. Keys the child declares come first; without one to the parent (on
  /// `columns`), the keys of the child's table as the connection reports them.
  /// - Parameters:
  ///   - columns: the association's `using:` columns, or `nil`.
  ///   - childTable: the child's table on the connection, `nil` when missing or unknown
  ///     (only declared keys count then).
  ///   - parentTable: the parent's table on the connection, `nil` when missing or unknown
  ///     (a key naming no parent columns then references `Parent.primaryKey`).
  /// - Throws: ``RelationError/noForeignKey(child:parent:columns:)`` when there is none,
  ///   ``RelationError/ambiguousForeignKeys(child:parent:candidates:)`` when there are
  ///   several and `columns` does not choose one; ``ModelError/invalidDeclaration(model:reason:)``
  ///   when the key's columns and its parent columns differ in number.
  init<Child: Model, Parent: Model>(
    child: Child.Type, parent: Parent.Type, columns: [String]?, childTable: TableMapping?,
    parentTable: TableMapping?
  ) throws {
    let parentName = parentTable?.table ?? Parent.tableName
    let childName = childTable?.table ?? Child.tableName
    let parentFolded = parentName.asciiCaseFolded
    let wanted = columns?.map(\.asciiCaseFolded)
    func fits(_ key: ForeignKey) -> Bool {
      key.table.asciiCaseFolded == parentFolded
        && (wanted.map { $0 == key.columns.map(\.asciiCaseFolded) } ?? true)
    }
    var candidates = Child.foreignKeys.filter(fits)
    if candidates.isEmpty, let reported = childTable?.foreignKeys {
      // The same key declared twice by the table is one key.
      for key in reported where fits(key) {
        let folded = key.columns.map(\.asciiCaseFolded)
        if !candidates.contains(where: { $0.columns.map(\.asciiCaseFolded) == folded }) {
          candidates.append(key)
        }
      }
    }
    guard let key = candidates.first else {
      throw RelationError.noForeignKey(child: childName, parent: parentName, columns: columns)
    }
    guard candidates.count == 1 else {
      throw RelationError.ambiguousForeignKeys(
        child: childName, parent: parentName, candidates: candidates.map(\.columns))
    }
    // A key naming no parent columns references the parent table's primary key.
    let implied = parentTable.map(\.tableKey).flatMap { $0.isEmpty ? nil : $0 }
    let parentColumns = key.parentColumns.isEmpty ? implied ?? Parent.primaryKey : key.parentColumns
    guard parentColumns.count == key.columns.count else {
      throw ModelError.invalidDeclaration(
        model: String(describing: Child.self),
        reason: "the foreign key on (" + key.columns.joined(separator: ", ") + ") has "
          + "\(key.columns.count) columns but references \(parentColumns.count)")
    }
    childColumns = key.columns.map { childTable?.property(forColumn: $0) ?? $0 }
    self.parentColumns = parentColumns.map { parentTable?.property(forColumn: $0) ?? $0 }
  }

  /// The names and values of `model`'s stored properties.
  /// - Throws: `EncodingError`; ``ModelError`` for a model whose schema cannot be inferred.
  static func encoded<M: Model>(_ model: M) throws -> (names: [String], values: [SQLiteValue]) {
    let properties = try TableSchema(M.self).columns.map(\.name)
    let encoder = RowEncoder(columns: properties)
    try encoder.encode(model)
    return (properties, Array(encoder.values))
  }

  /// The values among `encoded` (from ``encoded(_:)`` of a `model`) of the properties
  /// named by `names`, matched as SQLite matches names.
  /// - Throws: ``ModelError`` when a name is not a stored property.
  static func values(
    _ names: [String], in encoded: (names: [String], values: [SQLiteValue]), model: String
  ) throws -> [SQLiteValue] {
    try names.map { name in
      let folded = name.asciiCaseFolded
      guard let index = encoded.names.firstIndex(where: { $0.asciiCaseFolded == folded }) else {
        throw ModelError.invalidDeclaration(
          model: model, reason: "'\(name)' is not a stored property")
      }
      return encoded.values[index]
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
