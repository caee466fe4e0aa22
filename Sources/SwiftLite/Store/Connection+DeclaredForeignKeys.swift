// A mapped table's foreign keys are its own: a key the model declares must say the same,
// or the model's associations would link other rows than the table's keys do.
extension Connection {
  /// Checks each foreign key `model` declares against those SQLite reports for its table
  /// (`reported`, from the description just read). A declared key contradicts the table's
  /// when the table has keys to the same parent table but none on the same columns, or one
  /// on the same columns that references other parent columns (a key naming none
  /// references the parent's primary key), or when its columns reference another table.
  /// A key to a parent the table has no key to stands (a table without `REFERENCES`).
  /// - Throws: ``RelationError/foreignKeyMismatch(model:table:declared:reported:)``;
  ///   `SQLiteError` when reading a parent's primary key fails.
  func checkDeclaredForeignKeys<M: Model>(
    _ model: M.Type, table: String, reported: [ForeignKey]
  ) throws {
    func folded(_ names: [String]) -> [ExactText] { names.map(\.asciiCaseFolded) }
    for declared in M.foreignKeys {
      let columns = folded(declared.columns)
      let toParent = reported.filter { SchemaCatalogue.sameName($0.table, declared.table) }
      let onColumns = reported.filter { folded($0.columns) == columns }
      let mismatch = RelationError.foreignKeyMismatch(
        model: String(describing: model), table: table, declared: declared,
        reported: toParent.isEmpty ? onColumns : toParent)
      guard let same = toParent.first(where: { folded($0.columns) == columns }) else {
        // Keys to the parent on other columns, or these columns to another table.
        if !toParent.isEmpty || !onColumns.isEmpty { throw mismatch }
        continue
      }
      if declared.parentColumns.isEmpty && same.parentColumns.isEmpty { continue }
      let parentKey = { try self.primaryKey(ofTable: declared.table) }
      let declaredParents =
        declared.parentColumns.isEmpty ? try parentKey() : declared.parentColumns
      let reportedParents = same.parentColumns.isEmpty ? try parentKey() : same.parentColumns
      // A parent table that is missing, or without a primary key, leaves nothing to compare.
      guard let declaredParents, let reportedParents else { continue }
      if folded(declaredParents) != folded(reportedParents) {
        throw RelationError.foreignKeyMismatch(
          model: String(describing: model), table: table, declared: declared, reported: [same])
      }
    }
  }

  /// A table's primary key as SQLite reports it, `nil` when the table is missing or has none.
  private func primaryKey(ofTable table: String) throws -> [String]? {
    let key = try SchemaCatalogue.describe(table, in: self).tableSchema?.primaryKey ?? []
    return key.isEmpty ? nil : key
  }
}
