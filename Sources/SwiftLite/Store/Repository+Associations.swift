// Associations from a repository's models, each in one read of its database: the foreign
// key is the one the child declares, else the one SQLite reports for the child's table.
extension Repository {
  /// Every model of the repository's table, each with its children through the
  /// association: two statements in one read, whatever the number of models.
  /// - Throws: `SQLiteError`; `DecodingError`; ``RelationError`` when there is no such
  ///   foreign key, or several; ``ModelError``.
  public func findAll<Child: Model>(including association: HasMany<M, Child>) throws
    -> [(parent: M, children: [Child])]
  {
    try database.read { db in try M.all(target: target).fetchAll(db, including: association) }
  }

  /// Every model of the repository's table, each with its parent (`nil` for a NULL foreign
  /// key): two statements in one read.
  /// - Throws: as ``findAll(including:)-(HasMany<M,Child>)``.
  public func findAll<Parent: Model>(including association: BelongsTo<M, Parent>) throws
    -> [(child: M, parent: Parent?)]
  {
    try database.read { db in try M.all(target: target).fetchAll(db, including: association) }
  }

  /// `parent`'s children through the association, in its order.
  /// - Throws: as ``findAll(including:)-(HasMany<M,Child>)``; `EncodingError`.
  public func findAll<Child: Model>(_ association: HasMany<M, Child>, of parent: M) throws
    -> [Child]
  {
    try database.read { db in try db.fetchAll(association, of: parent) }
  }

  /// `child`'s parent through the association, or `nil`.
  /// - Throws: as ``findAll(including:)-(HasMany<M,Child>)``; `EncodingError`.
  public func findOne<Parent: Model>(_ association: BelongsTo<M, Parent>, of child: M) throws
    -> Parent?
  {
    try database.read { db in try db.fetchOne(association, of: child) }
  }
}
