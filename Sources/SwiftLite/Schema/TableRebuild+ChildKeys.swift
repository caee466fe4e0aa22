// The foreign keys of other tables that name columns of the rebuilt table: a renamed one
// is renamed in place so that they follow (see `steps()`), a removed one is refused.
extension TableRebuild {
  /// A foreign key of another table naming columns of this one.
  struct ChildKey {
    /// The table that holds the key.
    let child: String
    /// This table, as the key spells it.
    let parent: String
    /// The columns of this table the key names, in order.
    let columns: [String]
  }

  /// The keys of `children` (the tables that reference this one) that name their parent
  /// columns; a key naming none references the primary key, and is not listed.
  /// - Throws: `SQLiteError` when reading the schema fails.
  func childKeys(_ children: [String]) throws -> [ChildKey] {
    var found: [ChildKey] = []
    for child in children where child.asciiCaseFolded != table.asciiCaseFolded {
      var byID: [Int: (parent: String, columns: [(seq: Int, name: String)])] = [:]
      for key in try db.query("PRAGMA foreign_key_list(" + SQLIdentifier.quote(child) + ")") {
        let parent = try key.get(String.self, "table")
        guard parent.asciiCaseFolded == table.asciiCaseFolded,
          let column = try key.get(String?.self, "to")
        else { continue }
        byID[try key.get(Int.self, "id"), default: (parent, [])].columns.append(
          (try key.get(Int.self, "seq"), column))
      }
      found += byID.keys.sorted().compactMap { id in
        byID[id].map {
          ChildKey(
            child: child, parent: $0.parent,
            columns: $0.columns.sorted { $0.seq < $1.seq }.map(\.name))
        }
      }
    }
    return found
  }

  /// One ``MigrationError/foreignKeyMismatch(table:child:parent:columns:)`` per key of
  /// another table that names a column the rebuilt table no longer has (removed, not
  /// renamed: a renamed one is renamed in place and the key follows it).
  /// - Throws: `SQLiteError` when reading the schema fails.
  func removedKeyColumnRefusals() throws -> [MigrationError] {
    let children = try SchemaInspector(db).tablesReferencing(table)
    let kept = Set(diff.sources.map(\.source.asciiCaseFolded))
    return try childKeys(children).compactMap { key in
      let removed = key.columns.filter { !kept.contains($0.asciiCaseFolded) }
      guard !removed.isEmpty else { return nil }
      return .foreignKeyMismatch(
        table: table, child: key.child, parent: table, columns: removed)
    }
  }
}
