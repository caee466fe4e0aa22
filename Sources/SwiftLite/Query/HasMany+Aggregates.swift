// Aggregates of a parent's children, for annotations (`annotated(with:)`) and conditions
// (`filter`, `having`) of the parent's query: each is a correlated subquery, so the
// parents and their counts come back from one statement, without loading the children.
extension HasMany {
  /// The number of the parent's children (of this association: its filters apply).
  ///
  /// ```swift
  /// struct Folder: Model {
  ///   var id: Int64?
  ///   var name: String
  ///   static let primaryKey = ["id"]
  ///   static let notes = hasMany(Note.self)
  /// }
  /// struct Note: Model {
  ///   var id: Int64?
  ///   var folderID: Int64
  ///   var title: String
  ///   static let primaryKey = ["id"]
  ///   static let foreignKeys = [ForeignKey(["folderID"], references: Folder.tableName)]
  /// }
  /// struct FolderInfo: Decodable { var id: Int64; var name: String; var noteCount: Int }
  /// let db = try Connection.inMemory()
  /// try db.save(Folder(id: 1, name: "Inbox"))
  /// try db.save((1...10).map { Note(id: $0, folderID: 1, title: "Note \($0)") })
  ///
  /// let busy = try Folder.all().having(Folder.notes.count >= 10).fetchAll(db)
  /// let rows = try Folder.all().annotated(with: Folder.notes.count.aliased("noteCount"))
  ///   .fetchAll(db, as: FolderInfo.self)
  /// ```
  public var count: SQLExpression { aggregate(.countAll, withoutTable: "0") }

  /// Whether the parent has none of these children (`NOT EXISTS (...)`).
  public var isEmpty: SQLExpression {
    SQLExpression(
      .not(.exists(ChildExistence<Parent, Child>(columns: columns, children: children))))
  }

  /// The sum of an expression over the parent's children: NULL when none has a value.
  public func sum(_ expression: some SQLExpressible) -> SQLExpression {
    aggregate(.sum(expression))
  }

  /// The smallest value of an expression among the parent's children, NULL without one.
  public func min(_ expression: some SQLExpressible) -> SQLExpression {
    aggregate(.min(expression))
  }

  /// The largest value of an expression among the parent's children, NULL without one.
  public func max(_ expression: some SQLExpressible) -> SQLExpression {
    aggregate(.max(expression))
  }

  /// The average of an expression over the parent's children (REAL), NULL without one.
  public func average(_ expression: some SQLExpressible) -> SQLExpression {
    aggregate(.avg(expression))
  }

  /// Any aggregate over the parent's children: `Folder.notes.aggregate(.count(Column("tag"), distinct: true))`.
  /// - Parameter expression: an aggregate expression over the child's columns.
  /// - Returns: the aggregate's value for each parent. The foreign key is found when the
  ///   query runs: ``RelationError`` is thrown then when there is none, or several.
  public func aggregate(_ expression: SQLExpression) -> SQLExpression {
    aggregate(expression, withoutTable: "NULL")
  }

  private func aggregate(_ expression: SQLExpression, withoutTable: String) -> SQLExpression {
    SQLExpression(
      .scalar(
        ChildAggregate<Parent, Child>(
          columns: columns, children: children, aggregate: expression,
          valueWithoutTable: withoutTable)))
  }
}
