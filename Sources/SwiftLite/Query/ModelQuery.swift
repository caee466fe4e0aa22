/// A query over a model's table, built by chaining: each method returns a new query and
/// leaves the one it was called on as it was, so queries can be kept, shared and composed.
/// Every value is bound when the query runs.
///
/// ```swift
/// import Foundation
///
/// struct Person: Model {
///   var id: Int64?
///   var name: String
///   var age: Int
///   var lastSeen: Date
///   static let primaryKey = ["id"]
/// }
/// let db = try Connection.inMemory()
/// try db.save(Person(id: 1, name: "Ann", age: 30, lastSeen: Date()))
/// let (typed, cutoff) = ("an", Date(timeIntervalSinceNow: -365 * 86_400))
///
/// let adults = Person.filter(Column("age") >= 18)
/// let page = try adults.order(Column("name").asc, Column("age").desc)
///   .limit(20, offset: 40)
///   .fetchAll(db)
/// let howMany = try adults.filter(Column("name").contains(typed)).fetchCount(db)
/// try Person.filter(Column("lastSeen") < cutoff).deleteAll(db)
/// ```
///
/// Columns are named by the model's property names (see ``Column``); on a table another
/// program made, the query writes the table's own spelling of each column. The terminals
/// (`fetchAll`, `fetchOne`, `fetchCount`, `exists`, `fetchRows`, `fetchValue`,
/// `deleteAll`, `updateAll`) take the connection; reads never write: on a table that does
/// not exist yet they find nothing and create nothing.
///
/// `ModelQuery` is `Sendable`: build one anywhere and run it inside a queue's closure.
public struct ModelQuery<M: Model>: Sendable {
  /// The per-target table (``Model/tableName(target:)``), or `nil` for the model's table.
  public let target: String?
  var selection: [SQLExpression]?
  /// Expressions selected after the model's columns (``annotated(with:)``).
  var annotations: [SQLExpression] = []
  /// The common tables written before the statement (``with(_:)``).
  var commonTables: [CommonTable] = []
  /// The common table read instead of the model's table (``Model/all(from:)``), under the
  /// table's name.
  var source: String?
  var isDistinct = false
  var filters: [SQLExpression] = []
  var grouping: [SQLExpression] = []
  var havingConditions: [SQLExpression] = []
  var orderings: [SQLOrdering] = []
  var limitCount: Int?
  var offsetCount: Int?
  /// The full-text match (``matching(_:in:weights:)``), joined for its score.
  var fullTextMatch: FullTextMatch?

  /// Every row of the model's table (or of its per-target table).
  public init(target: String? = nil) {
    self.target = target
  }

  private func with(_ change: (inout ModelQuery) -> Void) -> ModelQuery {
    var copy = self
    change(&copy)
    return copy
  }

  /// The rows where `condition` also holds (conditions of successive calls are joined by
  /// `AND`).
  public func filter(_ condition: some SQLExpressible) -> ModelQuery {
    with { $0.filters.append(condition.sqlExpression) }
  }

  /// The rows where a condition you write also holds, its interpolated values bound:
  /// `.filter("length(\(Column("name"))) > \(3)")`.
  public func filter(_ condition: SQL) -> ModelQuery {
    with { $0.filters.append(SQLExpression(condition)) }
  }

  /// Ordered by these terms, replacing any earlier ordering.
  public func order(_ orderings: any SQLOrderable...) -> ModelQuery {
    order(orderings)
  }

  /// Ordered by these terms, replacing any earlier ordering.
  public func order(_ orderings: [any SQLOrderable]) -> ModelQuery {
    with { $0.orderings = orderings.map(\.sqlOrdering) }
  }

  /// Ordered by the terms already given, then by these.
  public func thenOrder(_ orderings: any SQLOrderable...) -> ModelQuery {
    with { $0.orderings += orderings.map(\.sqlOrdering) }
  }

  /// At most `count` rows, after skipping `offset` (both bound).
  public func limit(_ count: Int, offset: Int? = nil) -> ModelQuery {
    with {
      $0.limitCount = count
      $0.offsetCount = offset
    }
  }

  /// Only these columns or expressions, for ``fetchRows(_:)`` and ``fetchValue(_:as:)``
  /// (a model needs its columns: `fetchAll` of a narrower selection fails to decode).
  public func select(_ selection: any SQLExpressible...) -> ModelQuery {
    with { $0.selection = selection.map(\.sqlExpression) }
  }

  /// Only these expressions, written by you: `.select("upper(\(Column("name")))")`.
  public func select(_ selection: SQL) -> ModelQuery {
    with { $0.selection = [SQLExpression(selection)] }
  }

  /// Without duplicate rows (`SELECT DISTINCT`).
  public func distinct() -> ModelQuery {
    with { $0.isDistinct = true }
  }

  /// Grouped by these expressions (`GROUP BY`), for aggregates in `select(_:)`.
  public func group(_ expressions: any SQLExpressible...) -> ModelQuery {
    with { $0.grouping = expressions.map(\.sqlExpression) }
  }

  /// The groups where `condition` also holds (`HAVING`). Without ``group(_:)`` there are
  /// no groups: each row is its own, and the condition applies to each row as a filter does,
  /// which is what a condition on a relation's aggregate needs:
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
  /// let db = try Connection.inMemory()
  /// try db.save([Folder(id: 1, name: "Inbox"), Folder(id: 2, name: "Empty")])
  /// try db.save((1...10).map { Note(id: $0, folderID: 1, title: "Note \($0)") })
  ///
  /// let busy = try Folder.all().having(Folder.notes.count >= 10).fetchAll(db)
  /// let empty = try Folder.all().having(Folder.notes.isEmpty).fetchAll(db)
  /// ```
  public func having(_ condition: some SQLExpressible) -> ModelQuery {
    with { $0.havingConditions.append(condition.sqlExpression) }
  }

  /// The model's columns and, after them, these expressions, each named with
  /// ``SQLExpressible/aliased(_:)``: read them with `fetchAll(_:as:)` into a type that has
  /// the model's properties and the aliases, or from the rows of `fetchRows(_:)`.
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
  /// let db = try Connection.inMemory()
  /// try db.save(Folder(id: 1, name: "Inbox"))
  /// try db.save(Note(id: 1, folderID: 1, title: "Plan"))
  ///
  /// struct FolderInfo: Decodable { var id: Int64; var name: String; var noteCount: Int }
  /// let folders = try Folder.all()
  ///   .annotated(with: Folder.notes.count.aliased("noteCount"))
  ///   .order(Column("name"))
  ///   .fetchAll(db, as: FolderInfo.self)    // one statement
  /// ```
  public func annotated(with expressions: any SQLExpressible...) -> ModelQuery {
    with { $0.annotations += expressions.map(\.sqlExpression) }
  }
}

extension Model {
  /// A query of every row of the model's table (or of its per-target table).
  public static func all(target: String? = nil) -> ModelQuery<Self> {
    ModelQuery(target: target)
  }

  /// A query of the rows where `condition` holds: `Person.filter(Column("age") >= 18)`.
  public static func filter(_ condition: some SQLExpressible) -> ModelQuery<Self> {
    ModelQuery().filter(condition)
  }

  /// A query of the rows where a condition you write holds, its values bound.
  public static func filter(_ condition: SQL) -> ModelQuery<Self> {
    ModelQuery().filter(condition)
  }

  /// A query of every row, in this order.
  public static func order(_ orderings: any SQLOrderable...) -> ModelQuery<Self> {
    ModelQuery().order(orderings)
  }
}
