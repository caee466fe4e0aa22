/// What a migration does to a table's full-text indexes (``TableSchema/fullTextIndexes``):
/// each declared index compared with the FTS5 table and triggers the database has, by the
/// bytes of their statements in `sqlite_schema`.
///
/// - A missing index is created and indexes every row.
/// - One whose FTS5 table differs (columns, tokenizer, prefix indexes) is dropped, created
///   again and indexes every row.
/// - One whose triggers differ (those of an earlier SwiftLite, whose update trigger fired on
///   every update) gets the current triggers; its content is kept, unless a trigger was
///   missing and the index may lag behind the table.
///
/// A table rebuild recreates every declared index itself (see ``TableRebuild``), whatever
/// this finds. Indexes no model declares are left as they are.
struct FullTextIndexMigration {
  /// What to do to one index.
  enum Action {
    case create
    case recreate
    case replaceTriggers(indexRows: Bool)
  }

  /// The table's schema, with its declared indexes.
  let desired: TableSchema
  /// The changes found, in declaration order.
  private(set) var changes: [SchemaChange] = []
  /// The indexes to change, with what to do.
  private(set) var actions: [(index: FullTextIndex, action: Action)] = []

  /// Compares the declared indexes of `desired` with the database. Reads only.
  /// - Throws: `SQLiteError` when reading the schema fails.
  init(_ desired: TableSchema, in db: Connection) throws {
    self.desired = desired
    func storedSQL(_ type: String, _ name: String) throws -> String? {
      try db.scalar(
        String.self, "SELECT sql FROM sqlite_schema WHERE type = ? AND name = ? COLLATE NOCASE",
        [type, name])
    }
    for index in desired.fullTextIndexes {
      guard let table = try storedSQL("table", index.name) else {
        changes.append(.fullTextIndexAdded(index.name))
        actions.append((index, .create))
        continue
      }
      guard table.hasSameBytes(as: index.createTableSQL) else {
        changes.append(.fullTextIndexChanged(index.name))
        actions.append((index, .recreate))
        continue
      }
      let stored = try index.triggerNames.map { try storedSQL("trigger", $0) }
      let wanted = index.triggerSQL(keyColumns: desired.fullTextKeyColumns)
      let current = zip(stored, wanted).allSatisfy { $0?.hasSameBytes(as: $1) == true }
      if !current {
        changes.append(.fullTextTriggersChanged(index.name))
        actions.append((index, .replaceTriggers(indexRows: stored.contains(nil))))
      }
    }
  }

  /// The steps for a table that is not rebuilt.
  var steps: [MigrationPlan.Step] {
    let keys = desired.fullTextKeyColumns
    return actions.flatMap { index, action -> [MigrationPlan.Step] in
      switch action {
      case .create:
        return index.creationSteps(keyColumns: keys)
      case .recreate:
        return index.dropSQL.map { .init($0, "drop full-text index \(index.name) to recreate it") }
          + index.creationSteps(keyColumns: keys)
      case .replaceTriggers(let indexRows):
        return index.dropTriggersSQL.map {
          .init($0, "drop an outdated trigger of full-text index \(index.name)")
        }
          + index.triggerSQL(keyColumns: keys).map {
            .init($0, "create a trigger that keeps full-text index \(index.name) in sync")
          }
          + (indexRows ? [.init(index.rebuildSQL, "index every row in \(index.name)")] : [])
      }
    }
  }

  /// The steps that recreate every declared index once the table is rebuilt: its FTS5
  /// table over the new columns, its triggers, and every row indexed again.
  static func rebuildSteps(_ desired: TableSchema) -> [MigrationPlan.Step] {
    desired.fullTextIndexes.flatMap { index in
      [
        MigrationPlan.Step(
          "DROP TABLE IF EXISTS " + index.quotedName,
          "drop full-text index \(index.name), to recreate it over the rebuilt table")
      ] + index.creationSteps(keyColumns: desired.fullTextKeyColumns)
    }
  }
}
