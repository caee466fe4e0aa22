/// An index over one or more columns of a model's table, declared in ``Model/indexes``.
public struct TableIndex: Sendable, Hashable {
  /// The indexed columns, in order.
  public let columns: [String]
  /// Whether the index is `UNIQUE`.
  public let isUnique: Bool
  /// An explicit name; `nil` for the default `<table>_on_<col1>_<col2>`. On a per-target
  /// table (``Model/tableName(target:)``) an explicit name becomes `<name>_<table>`, so
  /// that each target table has its own index.
  public let name: String?

  /// An index over `columns`.
  /// - Parameters:
  ///   - columns: the columns, in order.
  ///   - unique: `true` for a unique index.
  ///   - name: an explicit name (suffixed with `_<table>` on a per-target table), or `nil`
  ///     for the default.
  public init(_ columns: [String], unique: Bool = false, name: String? = nil) {
    self.columns = columns
    self.isUnique = unique
    self.name = name
  }

  /// The name the index has in the model's own table `table`: the explicit name, else the
  /// default. (``TableSchema`` suffixes an explicit name on per-target tables.)
  public func resolvedName(table: String) -> String {
    name ?? (table + "_on_" + columns.joined(separator: "_"))
  }
}
