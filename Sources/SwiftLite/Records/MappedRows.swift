/// The rows of a result as a ``RowMapped`` model reads them, one after another: what
/// ``RowMapped/models(from:)`` steps through.
///
/// Valid only during that call; not `Sendable`.
public struct MappedRows {
  @usableFromInline let statement: Statement
  @usableFromInline let columns: ColumnMap

  /// Steps to the next row and returns it (valid until the next call), or `nil` at the end.
  /// - Throws: `SQLiteError` when a step fails.
  @inlinable public func next() throws -> MappedRow? {
    // A row per step: one kept from an earlier step cannot read this one's values.
    try statement.step() ? MappedRow(row: statement.row, columns: columns) : nil
  }
}
