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
    if let keys {
      guard try keys.step(statement) else { return nil }
      return MappedRow(row: statement.row, columns: columns)
    }
    // One call per row: the step, which gives the number the new row keeps.
    guard !statement.reachedEnd, let number = try statement.stepToRow() else { return nil }
    return MappedRow(row: Row(statement: statement, number: number), columns: columns)
  }

  /// Hands every remaining row to `body`, one after another, as ``next()`` would return
  /// them. Inlined, with `body`: outside an eager load, one call per row (the step), and
  /// the row is made once and moved to each new row number, so that the statement is
  /// retained only for the value `body` takes, not around each step too.
  /// - Throws: `SQLiteError` when a step fails, or what `body` throws (which stops).
  @inlinable func forEachRow(_ body: (MappedRow) throws -> Void) throws {
    if keys != nil {
      while let row = try next() { try body(row) }
      return
    }
    guard !statement.reachedEnd, let first = try statement.stepToRow() else { return }
    var row = MappedRow(row: Row(statement: statement, number: first), columns: columns)
    while true {
      try body(row)
      guard let number = try statement.stepToRow() else { return }
      row.move(to: number)
    }
  }
}
