/// An index over one or more columns of a model's table, declared in ``Model/indexes``.
public struct TableIndex: Sendable, Hashable {
  /// The indexed columns, in order.
  public let columns: [String]
  /// Whether the index is `UNIQUE`.
  public let isUnique: Bool
  /// An explicit name; `nil` for the default `<table>_on_<col1>_<col2>`.
  public let name: String?

  /// An index over `columns`.
  /// - Parameters:
  ///   - columns: the columns, in order.
  ///   - unique: `true` for a unique index.
  ///   - name: an explicit name, or `nil` for the default.
  public init(_ columns: [String], unique: Bool = false, name: String? = nil) {
    self.columns = columns
    self.isUnique = unique
    self.name = name
  }

  /// The name the index has in a given table.
  public func resolvedName(table: String) -> String {
    name ?? (table + "_on_" + columns.joined(separator: "_"))
  }
}
