// Common table expressions in the query interface: a query can define common tables
// (`WITH ...`) that its conditions read, and read a common table's rows as its models.
extension ModelQuery {
  /// The query with `table` defined before it (`WITH "name" AS (...)`), so its conditions
  /// can read it: `.with(subtree).filter(Column("folderID").in(subtree, column: "id"))`.
  /// Tables are written in the order given; a later one may read an earlier one.
  public func with(_ table: CommonTable) -> ModelQuery {
    var copy = self
    copy.commonTables.append(table)
    return copy
  }
}

extension Model {
  /// A query of the rows of a common table, read as this model's rows: filter, order, count
  /// and fetch them as models of a table.
  ///
  /// ```swift
  /// struct Folder: Model { var id: Int64?; var parentID: Int64?; var name: String; static let primaryKey = ["id"] }
  /// let db = try Connection.inMemory()
  /// try db.save([Folder(id: 1, parentID: nil, name: "Home"), Folder(id: 2, parentID: 1, name: "Trash")])
  /// let rootID: Int64 = 1
  ///
  /// let tree = CommonTable(recursive: "tree", """
  ///   SELECT * FROM folder WHERE id = \(rootID)
  ///   UNION ALL SELECT folder.* FROM folder JOIN tree ON folder.parentID = tree.id
  ///   """)
  /// let folders = try Folder.all(from: tree).filter(Column("name") != "Trash").fetchAll(db)
  /// ```
  /// The common table's columns must be the table's (`folder.*`). Deleting or updating
  /// through such a query changes the table's rows whose keys the common table selects.
  /// - Parameters:
  ///   - table: the common table.
  ///   - target: selects the per-target table the columns are taken from.
  public static func all(from table: CommonTable, target: String? = nil) -> ModelQuery<Self> {
    var query = ModelQuery<Self>(target: target).with(table)
    query.source = table.name
    return query
  }
}

extension SQLExpressible {
  /// `IN (SELECT "column" FROM "table")`: the value is one of a common table's (define the
  /// table on the query with ``ModelQuery/with(_:)``).
  public func `in`(_ table: CommonTable, column: String) -> SQLExpression {
    SQLExpression(
      .rawList(
        sqlExpression.node,
        SQL("SELECT " + SQLIdentifier.quote(column) + " FROM " + SQLIdentifier.quote(table.name)),
        negated: false))
  }
}
