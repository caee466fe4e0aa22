// A model's full-text indexes as part of its table's schema: checked against the columns
// when the schema is inferred, and the columns whose change moves a row's key.
extension TableSchema {
  /// The columns, besides the indexed ones, that the update trigger of a full-text index
  /// watches: the INTEGER PRIMARY KEY, which is the rowid the index refers to.
  var fullTextKeyColumns: [String] { hasRowIDAlias ? [primaryKey[0]] : [] }

  /// The model's declared full-text indexes, checked: each over the model's table (named
  /// with the model's spelling of the columns), with a row identity the table has.
  /// - Throws: the error `invalid` makes, naming what does not hold.
  static func checkedFullTextIndexes<M: Model>(
    of model: M.Type, _ schema: TableSchema, _ invalid: (String) -> ModelError
  ) throws -> [FullTextIndex] {
    var names = Set<ExactText>()
    return try M.fullTextIndexes.map { index in
      guard index.table.asciiCaseFolded == schema.name.asciiCaseFolded else {
        throw invalid(
          "the full-text index \(index.name) is over table \(index.table), not the model's "
            + "\(schema.name): declare it as FullTextIndex(\(String(describing: model)).self, "
            + "columns: ...)")
      }
      guard !index.columns.isEmpty else {
        throw invalid("the full-text index \(index.name) has no columns")
      }
      let key = index.contentRowID
      guard
        key.asciiCaseFolded == ExactText("rowid")
          || (schema.hasRowIDAlias && key.asciiCaseFolded == schema.primaryKey[0].asciiCaseFolded)
      else {
        throw invalid(
          "the full-text index \(index.name) identifies rows by '\(key)', which is neither "
            + "rowid nor the table's INTEGER PRIMARY KEY")
      }
      guard names.insert(index.name.asciiCaseFolded).inserted else {
        throw invalid("two full-text indexes are named \(index.name)")
      }
      if let prefix = index.prefixes.first(where: { !(1...999).contains($0) }) {
        throw invalid(
          "the full-text index \(index.name) has prefix length \(prefix); FTS5 takes 1 to 999")
      }
      var checked = index
      checked.table = schema.name
      return checked
    }
  }
}
