import Foundation

// SQLite's documented table rebuild (https://sqlite.org/lang_altertable.html#otheralter):
// create the new table, copy every row in one INSERT ... SELECT, drop the old table,
// rename the new one, recreate indexes and triggers, check foreign keys.
extension AutoMigration {
  /// The steps that rebuild the stored table as the diff's desired one, keeping every row.
  /// - Parameter lossy: columns whose unconvertible values may become NULL.
  static func rebuildSteps(_ diff: SchemaDiff, lossy: Set<String>, in db: Connection) throws
    -> [MigrationPlan.Step]
  {
    let stored = diff.stored
    let desired = diff.desired
    let added = diff.added
    var retyped: [ColumnDefinition] = []
    var backfilled: Set<String> = []
    for change in diff.changes {
      switch change {
      case .columnRetyped(let name, _, _):
        if let column = desired.column(named: name) { retyped.append(column) }
      case .nullabilityChanged(let name, _, true): backfilled.insert(name)
      default: break
      }
    }
    let carriesRenames = diff.carriesRenames
    let table = desired.name
    let quotedTable = SQLIdentifier.quote(table)
    let inspector = SchemaInspector(db)
    var sources = diff.sources.map { (target: $0.target, source: $0.source) }
    var steps: [MigrationPlan.Step] = []
    let temporary = "swiftlite_new_" + table
    let quotedTemporary = SQLIdentifier.quote(temporary)
    // A renamed column that another table's foreign key names is renamed in place first:
    // ALTER TABLE RENAME COLUMN rewrites those references (the rebuild alone would leave
    // them naming a column that no longer exists). The copy then reads the new name, and
    // the children's recorded definitions follow the rewrite, so they need no rebuild.
    var childKeys: [(child: String, parent: String, columns: [String])] = []
    for child in try inspector.tablesReferencing(table)
    where child.asciiCaseFolded != table.asciiCaseFolded {
      var byID: [Int: (parent: String, columns: [(seq: Int, name: String)])] = [:]
      for key in try db.query("PRAGMA foreign_key_list(" + SQLIdentifier.quote(child) + ")") {
        let parent = try key.get(String.self, "table")
        guard parent.asciiCaseFolded == table.asciiCaseFolded,
          let column = try key.get(String?.self, "to")
        else { continue }
        byID[try key.get(Int.self, "id"), default: (parent, [])].columns.append(
          (try key.get(Int.self, "seq"), column))
      }
      childKeys += byID.keys.sorted().compactMap { id in
        byID[id].map { (child, $0.parent, $0.columns.sorted { $0.seq < $1.seq }.map(\.name)) }
      }
    }
    let referenced = Set(childKeys.flatMap(\.columns).map(\.asciiCaseFolded))
    var renamedInPlace: [String: String] = [:]
    sources = sources.map { target, source in
      guard source != target.name, referenced.contains(source.asciiCaseFolded) else {
        return (target, source)
      }
      steps.append(
        .init(
          "ALTER TABLE " + quotedTable + " RENAME COLUMN " + SQLIdentifier.quote(source)
            + " TO " + SQLIdentifier.quote(target.name),
          "rename column \(source) to \(target.name) in place, so that the foreign keys "
            + "referencing it follow"))
      renamedInPlace[source.asciiCaseFolded] = target.name
      return (target, target.name)
    }
    if !renamedInPlace.isEmpty {
      for key in childKeys
      where key.columns.contains(where: { renamedInPlace[$0.asciiCaseFolded] != nil }) {
        func clause(_ columns: [String]) -> String {
          "REFERENCES " + SQLIdentifier.quote(key.parent) + " ("
            + columns.map(SQLIdentifier.quote).joined(separator: ", ") + ")"
        }
        steps.append(
          .init(
            "UPDATE " + SQLIdentifier.quote(recordTable)
              + " SET definition = replace(definition, ?1, ?2) WHERE table_name = ?3",
            "record that the foreign key of \(key.child) follows the rename",
            arguments: [
              .text(clause(key.columns)),
              .text(clause(key.columns.map { renamedInPlace[$0.asciiCaseFolded] ?? $0 })),
              .text(key.child),
            ]))
      }
    }
    let currentSource = Dictionary(
      sources.map { ($0.target.name, $0.source) }, uniquingKeysWith: { a, _ in a })
    // A STRICT table refuses a value that does not convert at the INSERT itself, before
    // the checks below could report it as a lossy change (or set it to NULL when that is
    // permitted): retyped values are converted in a table that is not STRICT first.
    let staged = desired.isStrict && retyped.contains { $0.acceptedClasses != nil }
    let converting = staged ? "swiftlite_stage_" + table : temporary
    let quotedConverting = SQLIdentifier.quote(converting)
    if staged {
      var loose = desired
      loose.isStrict = false
      loose.autoIncrement = false
      loose.foreignKeys = []
      for index in loose.columns.indices where loose.columns[index].type == "ANY" {
        loose.columns[index].type = "BLOB"  // no affinity: values stay as they are
      }
      steps.append(
        .init(
          loose.createTableSQL(as: converting),
          "create a table that is not STRICT to convert the values in"))
    } else {
      steps.append(.init(desired.createTableSQL(as: temporary), "create the new table"))
    }
    let copied = sources.filter { target, _ in !added.contains { $0.name == target.name } }
    // A table whose key is not an INTEGER alias still numbers its rows (insert returns
    // the rowid; an FTS table may point at it): the copy keeps each row's rowid, under a
    // name that no column hides, rather than numbering the rows afresh.
    var keptRowID = ""
    if !desired.hasRowIDAlias,
      try db.scalar(
        Bool.self,
        "SELECT wr FROM pragma_table_list WHERE schema = 'main' AND name = ? COLLATE NOCASE",
        [table]) == false
    {
      let taken = Set((stored.columns + desired.columns).map(\.name.asciiCaseFolded))
      keptRowID =
        ["rowid", "_rowid_", "oid"].first { !taken.contains($0) }.map { $0 + ", " } ?? ""
    }
    steps.append(
      .init(
        "INSERT INTO " + quotedConverting + " (" + keptRowID
          + copied.map { SQLIdentifier.quote($0.target.name) }.joined(separator: ", ")
          + ") SELECT " + keptRowID
          + copied.map { target, source in
            let column = SQLIdentifier.quote(source)
            guard backfilled.contains(target.name), let value = target.defaultSQL else {
              return column
            }
            return "coalesce(" + column + ", " + value + ")"
          }.joined(separator: ", ")
          + " FROM " + quotedTable,
        "copy every row in one statement"
          + (carriesRenames ? ", carrying renamed columns across" : "")))
    for column in retyped {
      guard let accepted = column.acceptedClasses else { continue }
      let wrongClass =
        " WHERE typeof(" + SQLIdentifier.quote(column.name) + ") NOT IN ("
        + accepted.map { "'\($0)'" }.joined(separator: ", ") + ")"
      if lossy.contains(column.name) {
        steps.append(
          .init(
            "UPDATE " + quotedConverting + " SET " + SQLIdentifier.quote(column.name) + " = NULL"
              + wrongClass,
            "set values of \(column.name) that are not \(column.type) to NULL (permitted)"))
      } else {
        steps.append(
          .init(
            "SELECT 1 FROM " + quotedConverting + wrongClass + " LIMIT 1",
            "check every value of \(column.name) converted to \(column.type)",
            failure: .lossyTypeChange(table: table, column: column.name, newType: column.type)))
        // Some conversions keep the class but round: an integer above 2^53 made REAL, a
        // REAL made TEXT (15 significant digits). Compare with the old table's values.
        let source = SQLIdentifier.quote(currentSource[column.name] ?? column.name)
        let rounded: String? =
          switch column.type {
          case "REAL": "typeof(\(source)) = 'integer' AND CAST(\(source) AS REAL) <> \(source)"
          case "TEXT":
            "typeof(\(source)) = 'real' AND CAST(CAST(\(source) AS TEXT) AS REAL) <> \(source)"
          default: nil
          }
        if let rounded {
          steps.append(
            .init(
              "SELECT 1 FROM " + quotedTable + " WHERE " + rounded + " LIMIT 1",
              "check no value of \(column.name) is rounded by the change to \(column.type)",
              failure: .lossyTypeChange(table: table, column: column.name, newType: column.type)))
        }
      }
    }
    if staged {
      let names = copied.map { SQLIdentifier.quote($0.target.name) }.joined(separator: ", ")
      steps.append(.init(desired.createTableSQL(as: temporary), "create the new table"))
      steps.append(
        .init(
          "INSERT INTO " + quotedTemporary + " (" + keptRowID + names + ") SELECT " + keptRowID
            + names + " FROM " + quotedConverting,
          "copy the converted rows into the STRICT table"))
      steps.append(.init("DROP TABLE " + quotedConverting, "drop the conversion table"))
    }
    if desired.autoIncrement {
      // The new table's sequence starts from the largest copied key; a larger key once
      // given and deleted since must not be given again (AUTOINCREMENT's promise).
      steps.append(
        .init(
          "UPDATE sqlite_sequence SET seq = max(seq, coalesce("
            + "(SELECT max(seq) FROM sqlite_sequence WHERE name = ?1), 0)) WHERE name = ?2",
          "carry the AUTOINCREMENT sequence over", arguments: [.text(table), .text(temporary)]))
      steps.append(
        .init(
          "INSERT INTO sqlite_sequence (name, seq) SELECT ?2, max(seq) FROM sqlite_sequence"
            + " WHERE name = ?1 AND NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?2)"
            + " HAVING count(*) > 0",
          "carry the AUTOINCREMENT sequence over (empty table)",
          arguments: [.text(table), .text(temporary)]))
    }
    let triggers = try db.query(
      "SELECT sql FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = ? COLLATE NOCASE"
        + " AND sql IS NOT NULL",
      [table]
    ).map { try $0.get(String.self, at: 0) }
    steps.append(.init("DROP TABLE " + quotedTable, "drop the old table"))
    steps.append(
      .init(
        "ALTER TABLE " + quotedTemporary + " RENAME TO " + quotedTable,
        "give the new table the old name"))
    steps += desired.indexes.map { .init(desired.createIndexSQL($0), "create index \($0.name)") }
    steps += triggers.map { .init($0, "recreate a trigger") }
    if !triggers.isEmpty {
      // A trigger is compiled only with a statement that fires it: one naming a removed
      // or renamed column would let the migration commit and every later write fail.
      // Statements that touch no row compile them now, inside the transaction.
      let names = desired.columns.map { SQLIdentifier.quote($0.name) }
      steps.append(
        .init(
          "INSERT INTO " + quotedTable + " (" + names.joined(separator: ", ") + ") SELECT "
            + names.joined(separator: ", ") + " FROM " + quotedTable + " WHERE 0",
          "check the recreated INSERT triggers compile against the new columns"))
      steps.append(
        .init(
          "UPDATE " + quotedTable + " SET "
            + names.map { $0 + " = " + $0 }.joined(separator: ", ") + " WHERE 0",
          "check the recreated UPDATE triggers compile against the new columns"))
      steps.append(
        .init(
          "DELETE FROM " + quotedTable + " WHERE 0",
          "check the recreated DELETE triggers compile against the new columns"))
    }
    steps.append(
      .init(
        "PRAGMA foreign_key_check(" + quotedTable + ")", "check foreign keys",
        failure: .foreignKeyViolation(table: table)))
    // The rows of tables that reference this one must still find their parent (a changed
    // primary key, say, would strand them).
    for child in try inspector.tablesReferencing(table) where child != table {
      steps.append(
        .init(
          "PRAGMA foreign_key_check(" + SQLIdentifier.quote(child) + ")",
          "check the foreign keys of \(child), which references \(table)",
          failure: .foreignKeyViolation(table: table)))
    }
    return steps
  }
}
