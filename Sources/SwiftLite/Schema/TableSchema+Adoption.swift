// The schema of an adopted table: the model's, keeping what the existing table has that the
// model does not declare, so that taking a table under management loses nothing.
extension TableSchema {
  /// The model's schema (`self`) laid over the table as it is (`stored`): what the table
  /// has and the model does not declare is kept, so planning against the result changes
  /// only what the model adds.
  ///
  /// Kept: the columns' names as the table spells them, their declared types (the model
  /// was checked to fit their affinity), nullability, DEFAULTs and UNIQUE constraints, the
  /// columns the model lacks (unless listed in `droppable`), the table's foreign keys and
  /// indexes, and STRICT.
  /// - Returns: the schema to plan against, and one line per feature kept.
  /// - Parameters:
  ///   - stored: the table as it is.
  ///   - droppable: columns the model lacks that may go (with their values).
  ///   - renamed: the model's renamed properties, new name -> old column names: an old
  ///     column whose new name the table lacks is renamed, not kept beside it.
  func keeping(
    _ stored: TableSchema, droppable: Set<String>, renamed renames: [String: [String]] = [:]
  )
    -> (TableSchema, kept: [String])
  {
    var result = self
    var kept: [String] = []
    let storedByName = Dictionary(
      stored.columns.map { ($0.name.asciiCaseFolded, $0) }, uniquingKeysWith: { a, _ in a })
    var storedName: [String: String] = [:]  // model name -> the table's spelling
    for index in result.columns.indices {
      let column = result.columns[index]
      guard let existing = storedByName[column.name.asciiCaseFolded] else { continue }
      storedName[column.name] = existing.name
      result.columns[index].name = existing.name
      if existing.type != column.type {
        kept.append("declared type \(existing.type) of \(existing.name)")
        result.columns[index].type = existing.type
      }
      if existing.isNotNull != column.isNotNull
        && !(hasRowIDAlias && primaryKey.first == column.name)
      {
        kept.append("\(existing.name) " + (existing.isNotNull ? "NOT NULL" : "nullable"))
        result.columns[index].isNotNull = existing.isNotNull
      }
      if column.defaultSQL == nil, let value = existing.defaultSQL {
        kept.append("DEFAULT \(value) of \(existing.name)")
        result.columns[index].defaultSQL = value
      }
      if existing.isUnique && !column.isUnique {
        kept.append("UNIQUE on \(existing.name)")
        result.columns[index].isUnique = true
      }
    }
    let matched = Set(result.columns.map(\.name.asciiCaseFolded))
    // The old column each rename takes its values from: the newest old name the table has.
    let renamedAway = renames.compactMap { new, old -> String? in
      guard storedByName[new.asciiCaseFolded] == nil, columns.contains(where: { $0.name == new })
      else { return nil }
      return old.first { storedByName[$0.asciiCaseFolded] != nil }
    }
    let droppableNames = Set((droppable.union(renamedAway)).map(\.asciiCaseFolded))
    for column in stored.columns where !matched.contains(column.name.asciiCaseFolded) {
      guard !droppableNames.contains(column.name.asciiCaseFolded) else { continue }
      kept.append("column \(column.name), which the model does not have")
      result.columns.append(column)
    }
    func renamed(_ names: [String]) -> [String] { names.map { storedName[$0] ?? $0 } }
    func folded(_ names: [String]) -> [ExactText] { names.map(\.asciiCaseFolded) }

    result.primaryKey = renamed(primaryKey)
    if folded(result.primaryKey) == folded(stored.primaryKey) {
      result.primaryKey = stored.primaryKey
    }
    result.foreignKeys = foreignKeys.map {
      ForeignKey(
        renamed($0.columns), references: $0.table, $0.parentColumns, onDelete: $0.onDelete,
        onUpdate: $0.onUpdate)
    }
    for key in stored.foreignKeys
    where !result.foreignKeys.contains(where: {
      folded($0.columns) == folded(key.columns)
        && $0.table.asciiCaseFolded == key.table.asciiCaseFolded
    }) {
      kept.append(
        "foreign key (\(key.columns.joined(separator: ", "))) REFERENCES \(key.table)")
      result.foreignKeys.append(key)
    }
    result.indexes = indexes.map { index in
      // An index the table has on the same columns is the same index, whatever its name.
      if let existing = stored.indexes.first(where: {
        folded($0.columns) == folded(renamed(index.columns)) && $0.isUnique == index.isUnique
      }) {
        return existing
      }
      return IndexDefinition(
        name: index.name, columns: renamed(index.columns), isUnique: index.isUnique)
    }
    for index in stored.indexes where !result.indexes.contains(index) {
      kept.append("index \(index.name)")
      result.indexes.append(index)
    }
    if stored.isStrict != isStrict {
      kept.append(stored.isStrict ? "STRICT" : "not STRICT")
      result.isStrict = stored.isStrict
    }
    return (result, kept)
  }
}
