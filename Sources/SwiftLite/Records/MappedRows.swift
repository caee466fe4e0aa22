/// The rows of a result as a ``RowMapped`` model reads them, one after another: what
/// ``RowMapped/models(from:)`` steps through.
///
/// Valid only during that call; not `Sendable`.
public struct MappedRows {
  @usableFromInline let statement: Statement
  @usableFromInline let columns: ColumnMap
  /// For an eager load: the keys taken down as the rows are stepped, or the end of a
  /// group of rows (see ``RowKeys``); `nil` for every other read.
  @usableFromInline let keys: RowKeys?

  init(statement: Statement, columns: ColumnMap, keys: RowKeys? = nil) {
    self.statement = statement
    self.columns = columns
    self.keys = keys
  }

  /// How many rows are likely to come, for reserving room: the length of the last group
  /// of an eager load; `0` when unknown.
  @usableFromInline var expectedCount: Int { keys?.lastRunLength ?? 0 }

  /// Steps to the next row and returns it (valid until the next call), or `nil` at the end,
  /// and `nil` again for every call after that: the rows are not started over.
  /// - Throws: `SQLiteError` when a step fails.
  @inlinable public func next() throws -> MappedRow? {
    // A row per step: one kept from an earlier step cannot read this one's values.
    let more =
      try keys.map { try $0.step(statement) } ?? (!statement.reachedEnd && statement.step())
    return more ? MappedRow(row: statement.row, columns: columns) : nil
  }
}
