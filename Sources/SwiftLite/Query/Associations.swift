/// A child's link to its parent, through a foreign key of the child: one it declares in
/// ``Model/foreignKeys``, else one SQLite reports for its table (a table another program
/// made, with `REFERENCES`), read when the query runs.
///
/// ```swift
/// struct Grade: Model { var id: Int64?; var name: String; static let primaryKey = ["id"] }
/// struct SchoolClass: Model {
///   var id: Int64?
///   var gradeID: Int64
///   static let primaryKey = ["id"]
///   static let foreignKeys = [ForeignKey(["gradeID"], references: Grade.tableName, onDelete: .cascade)]
///   static let grade = belongsTo(Grade.self)
/// }
/// let db = try Connection.inMemory()
/// try db.save(Grade(id: 1, name: "First"))
/// let someClass = SchoolClass(id: 1, gradeID: 1)
/// try db.save(someClass)
///
/// let grade = try db.fetchOne(SchoolClass.grade, of: someClass)
/// ```
public struct BelongsTo<Child: Model, Parent: Model>: Sendable {
  /// The child's foreign key columns, or `nil` for its only foreign key to the parent.
  public let columns: [String]?
  /// The parent rows this association reaches (filters apply when loading parents).
  public var parents: ModelQuery<Parent>

  /// The query of `child`'s parent (a query of no row when its foreign key is NULL). The
  /// foreign key is found when the query runs: ``RelationError`` is thrown then when there
  /// is none, or several.
  /// - Throws: `EncodingError` when `child` does not encode.
  public func query(of child: Child) throws -> ModelQuery<Parent> {
    parents.filter(
      SQLExpression(
        .scalar(
          RelationMatch<Parent, Child>(
            columns: columns, readsChildren: false, given: try Relation.encoded(child),
            givenModel: String(describing: Child.self)))))
  }
}

/// A parent's link to its many children, through a foreign key of the child (declared in
/// its ``Model/foreignKeys``, else reported by SQLite for its table when the query runs).
///
/// ```swift
/// struct Grade: Model {
///   var id: Int64?
///   var name: String
///   static let primaryKey = ["id"]
///   static let classes = hasMany(SchoolClass.self)
/// }
/// struct SchoolClass: Model {
///   var id: Int64?
///   var gradeID: Int64
///   var name: String
///   static let primaryKey = ["id"]
///   static let foreignKeys = [ForeignKey(["gradeID"], references: Grade.tableName)]
/// }
/// let db = try Connection.inMemory()
/// let grade = Grade(id: 1, name: "First")
/// try db.save(grade)
/// try db.save([SchoolClass(id: 1, gradeID: 1, name: "A1"), SchoolClass(id: 2, gradeID: 1, name: "B1")])
///
/// let classes = try db.fetchAll(Grade.classes, of: grade)
/// let gradesWithClasses = try Grade.all().fetchAll(db, including: Grade.classes)  // two statements
/// let withA = try Grade.all().joining(Grade.classes.filter(Column("name").hasPrefix("A"))).fetchAll(db)
/// ```
public struct HasMany<Parent: Model, Child: Model>: Sendable {
  /// The child's foreign key columns, or `nil` for its only foreign key to the parent.
  public let columns: [String]?
  /// The children this association reaches: filter and order them with
  /// ``filter(_:)`` and ``order(_:)``.
  public var children: ModelQuery<Child>

  /// The association reaching only the children where `condition` holds.
  public func filter(_ condition: some SQLExpressible) -> HasMany {
    var copy = self
    copy.children = children.filter(condition)
    return copy
  }

  /// The association with its children in this order.
  public func order(_ orderings: any SQLOrderable...) -> HasMany {
    var copy = self
    copy.children = children.order(orderings)
    return copy
  }

  /// The association reaching at most `count` children of each parent (after skipping
  /// `offset`), in its order: eager loading then keeps the first ones of every parent,
  /// still in one statement (a window function numbers each parent's children).
  ///
  /// ```swift
  /// import Foundation
  ///
  /// struct Folder: Model {
  ///   var id: Int64?
  ///   var name: String
  ///   static let primaryKey = ["id"]
  ///   static let notes = hasMany(Note.self)
  /// }
  /// struct Note: Model {
  ///   var id: Int64?
  ///   var folderID: Int64
  ///   var updatedAt: Date
  ///   static let primaryKey = ["id"]
  ///   static let foreignKeys = [ForeignKey(["folderID"], references: Folder.tableName)]
  /// }
  /// let db = try Connection.inMemory()
  /// try db.save(Folder(id: 1, name: "Inbox"))
  /// try db.save((1...5).map { Note(id: $0, folderID: 1, updatedAt: Date()) })
  ///
  /// let latest = try Folder.all().fetchAll(db, including: Folder.notes.order(Column("updatedAt").desc).limit(3))
  /// ```
  public func limit(_ count: Int, offset: Int? = nil) -> HasMany {
    var copy = self
    copy.children = children.limit(count, offset: offset)
    return copy
  }

  /// The query of `parent`'s children. The foreign key is found when the query runs:
  /// ``RelationError`` is thrown then when there is none, or several.
  /// - Throws: `EncodingError` when `parent` does not encode.
  public func query(of parent: Parent) throws -> ModelQuery<Child> {
    children.filter(
      SQLExpression(
        .scalar(
          RelationMatch<Parent, Child>(
            columns: columns, readsChildren: true, given: try Relation.encoded(parent),
            givenModel: String(describing: Parent.self)))))
  }

  /// The condition "the parent has at least one such child": `EXISTS (SELECT 1 FROM ...)`.
  /// The foreign key is found when the query runs (``RelationError`` then).
  /// - Throws: nothing today (kept throwing for the code written against it).
  public func existsCondition() throws -> SQLExpression {
    SQLExpression(.exists(ChildExistence<Parent, Child>(columns: columns, children: children)))
  }
}

/// A parent's link to its one child (at most), through a foreign key of the child (declared
/// or reported, as for ``HasMany``).
public struct HasOne<Parent: Model, Child: Model>: Sendable {
  /// The child's foreign key columns, or `nil` for its only foreign key to the parent.
  public let columns: [String]?
  /// The child rows this association reaches.
  public var children: ModelQuery<Child>

  /// The query of `parent`'s child. The foreign key is found when the query runs:
  /// ``RelationError`` is thrown then when there is none, or several.
  /// - Throws: `EncodingError` when `parent` does not encode.
  public func query(of parent: Parent) throws -> ModelQuery<Child> {
    children.filter(
      SQLExpression(
        .scalar(
          RelationMatch<Parent, Child>(
            columns: columns, readsChildren: true, given: try Relation.encoded(parent),
            givenModel: String(describing: Parent.self)))))
  }

  /// The condition "the parent has such a child".
  /// The foreign key is found when the query runs (``RelationError`` then).
  /// - Throws: nothing today (kept throwing for the code written against it).
  public func existsCondition() throws -> SQLExpression {
    SQLExpression(.exists(ChildExistence<Parent, Child>(columns: columns, children: children)))
  }
}

extension Model {
  /// This model's link to its parent through its foreign key to `Parent`'s table.
  /// - Parameters:
  ///   - parent: the parent model.
  ///   - columns: the foreign key's columns, when the model has several to `Parent`.
  public static func belongsTo<Parent: Model>(_ parent: Parent.Type, using columns: [String]? = nil)
    -> BelongsTo<Self, Parent>
  {
    BelongsTo(columns: columns, parents: Parent.all())
  }

  /// This model's link to its children: rows of `Child` whose foreign key references
  /// this model's table.
  /// - Parameters:
  ///   - child: the child model.
  ///   - columns: the child's foreign key columns, when it has several to this table.
  public static func hasMany<Child: Model>(_ child: Child.Type, using columns: [String]? = nil)
    -> HasMany<Self, Child>
  {
    HasMany(columns: columns, children: Child.all())
  }

  /// This model's link to its one child (a unique foreign key of `Child`).
  /// - Parameters:
  ///   - child: the child model.
  ///   - columns: the child's foreign key columns, when it has several to this table.
  public static func hasOne<Child: Model>(_ child: Child.Type, using columns: [String]? = nil)
    -> HasOne<Self, Child>
  {
    HasOne(columns: columns, children: Child.all())
  }
}

extension ModelQuery {
  /// The rows that have at least one child of the association (a semi-join: each parent
  /// once, however many children match): `Grade.all().joining(Grade.classes.filter(...))`.
  /// The foreign key is found when the query runs: ``RelationError`` is thrown then when
  /// there is none, or several.
  public func joining<Child: Model>(_ association: HasMany<M, Child>) -> ModelQuery {
    filter(
      SQLExpression(
        .exists(
          ChildExistence<M, Child>(columns: association.columns, children: association.children))
      ))
  }

  /// The rows that have a child of the association.
  public func joining<Child: Model>(_ association: HasOne<M, Child>) -> ModelQuery {
    filter(
      SQLExpression(
        .exists(
          ChildExistence<M, Child>(columns: association.columns, children: association.children))
      ))
  }
}
