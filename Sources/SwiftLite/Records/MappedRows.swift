/// The rows of a result as a ``RowMapped`` model reads them, one after another: what
/// ``RowMapped/models(from:)`` steps through.
///
/// Valid only during that call; not `Sendable`.
public struct MappedRows {
  @usableFromInline let statement: Statement
  @usableFromInline let row: MappedRow

  init(statement: Statement, columns: ColumnMap) {
    self.statement = statement
    self.row = MappedRow(row: statement.row, columns: columns)
  }

  /// Steps to the next row and returns it (valid until the next call), or `nil` at the end.
  /// - Throws: `SQLiteError` when a step fails.
  @inlinable public func next() throws -> MappedRow? {
    try statement.step() ? row : nil
  }
}
