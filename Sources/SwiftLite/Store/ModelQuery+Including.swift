// Eager loading: a query's models with their related rows, in one extra statement for any
// number of models (two in all), never one per model. The keys of the first statement's
// rows are bound to the second (INTEGER keys as one JSON array, others as a list of
// parameters), whose rows are grouped by key in memory, a run of rows with one key at a
// time (see `readGroups`).
extension ModelQuery {
  /// The query's models, each with its children: two statements in all, whatever the
  /// number of parents (large sets of keys are sent in chunks of 10,000).
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
  /// try db.save(Grade(id: 1, name: "First"))
  /// try db.save([SchoolClass(id: 1, gradeID: 1, name: "A1"), SchoolClass(id: 2, gradeID: 1, name: "B1")])
  ///
  /// for (grade, classes) in try Grade.all().order(Column("name")).fetchAll(db, including: Grade.classes) {
  ///   print(grade.name, classes.map(\.name))
  /// }
  /// ```
  /// The children come in the association's order; a limit on the association
  /// (``HasMany/limit(_:offset:)``) applies to each parent's children.
  /// The foreign key is the one the child declares to this model's table, else the one
  /// SQLite reports for the child's table.
  /// - Throws: `SQLiteError`; `DecodingError`; ``RelationError`` when there is no such
  ///   foreign key, or several; ``ModelError``.
  public func fetchAll<Child: Model>(_ db: Connection, including association: HasMany<M, Child>)
    throws -> [(parent: M, children: [Child])]
  {
    let relation = try db.relation(
      Child.self, M.self, columns: association.columns, child: association.children.target,
      parent: target)
    let (parents, keys) = try db.fetchKeyed(self, keys: relation.parentColumns)
    let children = try db.fetchGrouped(
      association.children, keys: relation.childColumns, matching: keys)
    return Self.paired(parents, children)
  }

  /// The query's models, each with its child or `nil`: two statements in all.
  /// - Throws: as ``fetchAll(_:including:)-(_,HasMany<M,Child>)``.
  public func fetchAll<Child: Model>(_ db: Connection, including association: HasOne<M, Child>)
    throws -> [(parent: M, child: Child?)]
  {
    let relation = try db.relation(
      Child.self, M.self, columns: association.columns, child: association.children.target,
      parent: target)
    let (parents, keys) = try db.fetchKeyed(self, keys: relation.parentColumns)
    let children = try db.fetchGrouped(
      association.children, keys: relation.childColumns, matching: keys)
    return parents.indices.map { index in (parents[index], children[index].first) }
  }

  /// The query's models, each with its parent (`nil` for a NULL foreign key): two
  /// statements in all.
  /// - Throws: as ``fetchAll(_:including:)-(_,HasMany<M,Child>)``.
  public func fetchAll<Parent: Model>(
    _ db: Connection, including association: BelongsTo<M, Parent>
  ) throws -> [(child: M, parent: Parent?)] {
    let relation = try db.relation(
      M.self, Parent.self, columns: association.columns, child: target,
      parent: association.parents.target)
    let (children, keys) = try db.fetchKeyed(self, keys: relation.childColumns)
    let parents = try db.fetchGrouped(
      association.parents, keys: relation.parentColumns, matching: keys)
    return children.indices.map { index in (children[index], parents[index].first) }
  }
}

extension ModelQuery {
  /// Each parent with its children, `children[i]` those of `parents[i]`. Written through
  /// buffers: this code is not compiled for the models' types, and each generic subscript
  /// or `map` step looked array and tuple metadata up at run time (about 3,000
  /// instructions per parent).
  static func paired<Child>(_ parents: [M], _ children: [[Child]]) -> [(
    parent: M, children: [Child]
  )] {
    parents.withUnsafeBufferPointer { parents in
      children.withUnsafeBufferPointer { children in
        Array(unsafeUninitializedCapacity: parents.count) { buffer, count in
          for index in 0..<parents.count {
            (buffer.baseAddress! + index).initialize(to: (parents[index], children[index]))
          }
          count = parents.count
        }
      }
    }
  }
}

extension Connection {
  /// The columns linking `Child` to `Parent`, from the keys the child declares, else those
  /// SQLite reports for its table (kept with the model's table on this connection: no
  /// further read of the schema).
  /// - Throws: ``RelationError``; ``ModelError``, `SQLiteError` from checking the tables.
  func relation<Child: Model, Parent: Model>(
    _ child: Child.Type, _ parent: Parent.Type, columns: [String]?, child childTarget: String?,
    parent parentTarget: String?
  ) throws -> Relation {
    try Relation(
      child: child, parent: parent, columns: columns,
      childTable: modelTable(child, target: childTarget, for: .read)?.mapping,
      parentTable: modelTable(parent, target: parentTarget, for: .read)?.mapping)
  }

  /// `parent`'s children through the association, in its order.
  /// - Throws: `SQLiteError`; `DecodingError`; ``RelationError`` for a missing or an
  ///   ambiguous foreign key.
  public func fetchAll<Parent: Model, Child: Model>(
    _ association: HasMany<Parent, Child>, of parent: Parent
  ) throws -> [Child] {
    try association.query(of: parent).fetchAll(self)
  }

  /// `parent`'s child through the association, or `nil`.
  /// - Throws: as ``fetchAll(_:of:)``.
  public func fetchOne<Parent: Model, Child: Model>(
    _ association: HasOne<Parent, Child>, of parent: Parent
  ) throws -> Child? {
    try association.query(of: parent).fetchOne(self)
  }

  /// `child`'s parent through the association, or `nil` (for a NULL foreign key).
  /// - Throws: as ``fetchAll(_:of:)``.
  public func fetchOne<Child: Model, Parent: Model>(
    _ association: BelongsTo<Child, Parent>, of child: Child
  ) throws -> Parent? {
    try association.query(of: child).fetchOne(self)
  }

  /// The models of `query`, each with the values of its `keys` columns (`nil` when one is
  /// NULL), read from the same rows.
  func fetchKeyed<M: Model>(_ query: ModelQuery<M>, keys: [String]) throws -> (
    [M], [EagerKey?]
  ) {
    guard let table = try modelTable(M.self, target: query.target, for: .read) else {
      return ([], [])
    }
    let context = queryContext(table)
    var keyed = query
    keyed.selection = nil
    keyed.annotations += Self.keyColumns(keys, context)
    let sql = try keyed.selectSQL(in: context)
    return try withCachedStatement(sql.text, sql.statementArguments) { statement in
      try readKeyed(M.self, table, statement, keyCount: keys.count)
    }
  }

  /// For each of `rowKeys`, the models of `query` whose `keys` columns hold that key (none
  /// for a `nil` key), in the query's order: one statement per 10,000 distinct keys.
  func fetchGrouped<M: Model>(
    _ query: ModelQuery<M>, keys: [String], matching rowKeys: [EagerKey?]
  ) throws -> [[M]] {
    // Each distinct key is a group, numbered in the order first seen; each row of
    // `rowKeys` gets its key's group.
    var unique: [EagerKey] = []
    var groupOfKey: [EagerKey: Int] = [:]
    groupOfKey.reserveCapacity(rowKeys.count)
    var rowGroups: [Int] = []
    rowGroups.reserveCapacity(rowKeys.count)
    var previous: (key: EagerKey, group: Int)?
    for case let key in rowKeys {
      guard let key else {
        rowGroups.append(-1)
        continue
      }
      // No hashing for the key of the row before (children in their parent's order), one
      // hash when it is new (the keys of parents), two otherwise.
      if let previous, previous.key == key {
        rowGroups.append(previous.group)
        continue
      }
      if let group = groupOfKey.updateValue(unique.count, forKey: key) {
        groupOfKey[key] = group
        rowGroups.append(group)
        previous = (key, group)
        continue
      }
      previous = (key, unique.count)
      rowGroups.append(unique.count)
      unique.append(key)
    }
    guard !unique.isEmpty,
      let table = try modelTable(M.self, target: query.target, for: .read)
    else { return Array(repeating: [], count: rowKeys.count) }
    let context = queryContext(table)
    // Written through a pointer: this code is not compiled for `M`, and each generic
    // subscript or `map` step of an `[[M]]` looked the array's metadata up at run time.
    let groups = UnsafeMutablePointer<[M]>.allocate(capacity: unique.count)
    groups.initialize(repeating: [], count: unique.count)
    defer {
      groups.deinitialize(count: unique.count)
      groups.deallocate()
    }
    var filled = [Bool](repeating: false, count: unique.count)
    let chunk = 10_000 / keys.count
    var start = 0
    while start < unique.count {
      let slice = unique[start..<Swift.min(start + chunk, unique.count)]
      start += chunk
      func keyedSQL(_ condition: SQLExpression) throws -> SQL {
        var keyed = query
        keyed.selection = nil
        keyed.limitCount = nil
        keyed.offsetCount = nil
        keyed.filters.insert(condition, at: 0)
        let perParent = query.limitCount != nil || query.offsetCount != nil
        if perParent {
          keyed.orderings = []
          keyed.annotations.append(Self.numberWithinGroup(query, keys: keys, context: context))
        }
        keyed.annotations += Self.keyColumns(keys, context)
        let sql = try keyed.selectSQL(in: context)
        return perParent ? Self.keepingEachGroupsFirst(sql, query, keyCount: keys.count) : sql
      }
      // INTEGER keys go as one JSON array: preparing a statement of thousands of
      // parameters and binding each cost more than the rest of the Swift side of an eager
      // load. Where the JSON functions are missing (or a table shadows `json_each`), the
      // list of parameters.
      var prepared: Statement?
      if let array = Self.jsonArray(keys, slice, context) {
        let sql = try keyedSQL(array)
        prepared = try? prepare(sql.text)
        try prepared?.bind(sql.statementArguments)
      }
      if prepared == nil {
        let sql = try keyedSQL(Self.keyCondition(keys, slice, context))
        // The text changes with the number of keys: prepared apart, not kept in the cache.
        prepared = try prepare(sql.text)
        try prepared?.bind(sql.statementArguments)
      }
      guard let statement = prepared else { break }
      try readGroups(M.self, table, statement, keyCount: keys.count) { key, models in
        // A key not among those bound (equal in SQL only after a conversion) matches no
        // row here; the rows of a key come in runs, usually one (see `readGroups`).
        guard let group = key.flatMap({ groupOfKey[$0] }) else { return }
        if filled[group] { groups[group] += models } else { groups[group] = models }
        filled[group] = true
      }
    }
    let none: [M] = []  // made once: each `[]` of `[M]` here looks its metadata up
    return Array(unsafeUninitializedCapacity: rowGroups.count) { buffer, count in
      for (index, group) in rowGroups.enumerated() {
        (buffer.baseAddress! + index).initialize(to: group >= 0 ? groups[group] : none)
      }
      count = rowGroups.count
    }
  }

  /// The models of a statement's rows and, for each, the key in its last `keyCount`
  /// columns (`nil` when one is NULL).
  private func readKeyed<M: Model>(
    _ model: M.Type, _ table: ModelTable, _ statement: Statement, keyCount: Int
  ) throws -> ([M], [EagerKey?]) {
    let keys = RowKeys(first: statement.columnCount - keyCount, count: keyCount, grouping: false)
    if let mapped = table.mapped {
      // Row by row, each model with its own row's key: a `models(from:)` of the model's
      // own may skip rows or return its models in another order.
      let columns = table.readColumns(of: statement)
      var models: [M] = []
      while try keys.step(statement) {
        models.append(try mapped.readRow(statement.row, columns: columns, as: M.self))
      }
      return (models, keys.keys)
    }
    let decoder = RowDecoder(ignoredProperties: table.ignored, readingInPlace: statement)
    var models: [M] = []
    while try keys.step(statement) {
      models.append(try decoder.decode(M.self, from: statement.row))
    }
    return (models, keys.keys)
  }

  /// The models of a statement's rows, handed to `body` a run at a time: each run is of
  /// consecutive rows with the same key in the last `keyCount` columns (`nil` when one is
  /// NULL). A `RowMapped` model reads each run with its own `models(from:)`, compiled for
  /// its type, in one call. Rows of the same key usually come together (an index on the
  /// key columns gives them in key order); when they do not, a key has several runs.
  private func readGroups<M: Model>(
    _ model: M.Type, _ table: ModelTable, _ statement: Statement, keyCount: Int,
    _ body: (EagerKey?, [M]) -> Void
  ) throws {
    let keys = RowKeys(first: statement.columnCount - keyCount, count: keyCount, grouping: true)
    guard try keys.start(statement) else { return }
    let mapped = table.mapped
    let columns = mapped == nil ? nil : table.readColumns(of: statement)
    let decoder =
      mapped == nil ? RowDecoder(ignoredProperties: table.ignored, readingInPlace: statement) : nil
    while !keys.finished {
      let key = keys.current
      let handedOut = keys.handedOut
      keys.beginGroup()
      if let mapped, let columns {
        body(key, try mapped.readAll(statement, columns: columns, keys: keys, as: M.self))
      } else if let decoder {
        var models: [M] = []
        while try keys.step(statement) {
          models.append(try decoder.decode(M.self, from: statement.row))
        }
        body(key, models)
      }
      // A `models(from:)` of the model's own that reads no row would never get further.
      if keys.handedOut == handedOut { break }
    }
  }
}

extension RowMapped {
  /// Reads the current row of a statement as a model of this type, returned as `M`.
  static func readRow<M>(_ row: Row, columns: ColumnMap, as type: M.Type) throws -> M {
    assert(M.self == Self.self, "a RowMapped bridge called with another type")
    return unsafeBitCast(try Self(row: MappedRow(row: row, columns: columns)), to: M.self)
  }
}
