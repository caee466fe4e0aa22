/// Where an expression is written: which table's mapping resolves its columns, by what
/// name that table is referred to, and how the mappings of other models are found.
struct SQLContext {
  /// The mapping of the table whose columns are written unqualified, or `nil` to write
  /// every column as named.
  let mapping: TableMapping?
  /// The name by which the current table is referred to (its name, or an alias).
  let qualifier: String
  /// How deep in subqueries this context is (0 for the statement itself).
  let depth: Int
  /// Whether columns are written as named, with no mapping (so a missing mapping does not
  /// mean a missing table).
  let isVerbatim: Bool
  /// The mapping of a model's table on the connection, or `nil` when the table is missing
  /// (or when columns are written as named).
  let resolve: (_ model: any Model.Type, _ target: String?) throws -> TableMapping?

  /// Columns written as named, subqueries selecting `*`: for expressions interpolated
  /// into ``SQL``, and for showing a query's SQL.
  static func verbatim(qualifier: String = "") -> SQLContext {
    SQLContext(
      mapping: nil, qualifier: qualifier, depth: 0, isVerbatim: true, resolve: { _, _ in nil })
  }

  /// The context of a statement over a table of the connection.
  init(
    mapping: TableMapping?, qualifier: String, depth: Int = 0, isVerbatim: Bool = false,
    resolve: @escaping (_ model: any Model.Type, _ target: String?) throws -> TableMapping?
  ) {
    self.mapping = mapping
    self.qualifier = qualifier
    self.depth = depth
    self.isVerbatim = isVerbatim
    self.resolve = resolve
  }

  /// The column in this table's spelling: a property name maps to its column; any other
  /// name, and any qualified column, is written as named.
  func quoted(_ column: Column) -> String {
    if column.table != nil { return column.quoted }
    return SQLIdentifier.quote(columnName(column.name))
  }

  /// The table's column for a property name (matched as SQLite matches names), or the
  /// name itself when no property has it.
  func columnName(_ name: String) -> String {
    guard let mapping else { return name }
    if let index = mapping.properties.firstIndex(of: name) { return mapping.columns[index] }
    let folded = name.asciiCaseFolded
    if let index = mapping.properties.firstIndex(where: { $0.asciiCaseFolded == folded }) {
      return mapping.columns[index]
    }
    return name
  }

  /// A context for a subquery over another table, referred to by `alias`.
  func nested(mapping: TableMapping?, alias: String) -> SQLContext {
    SQLContext(
      mapping: mapping, qualifier: alias, depth: depth + 1, isVerbatim: isVerbatim, resolve: resolve
    )
  }
}
