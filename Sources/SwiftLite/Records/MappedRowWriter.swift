/// Where a ``RowMapped`` model writes its values: straight into the parameters of the
/// statement that stores it, or into a list of values, by position in the model's
/// ``RowMapped/mappedColumns``.
///
/// Valid only during ``RowMapped/write(to:)``; not `Sendable`.
public struct MappedRowWriter {
  @usableFromInline let statement: Statement?
  @usableFromInline let values: ValueList?
  /// Position -> parameter index (1-based) or index in `values`; `-1` for nothing.
  @usableFromInline let targets: ColumnMap

  init(statement: Statement, parameters: ColumnMap) {
    self.statement = statement
    self.values = nil
    self.targets = parameters
  }

  init(values: ValueList, slots: ColumnMap) {
    self.statement = nil
    self.values = values
    self.targets = slots
  }

  /// Writes the value of the property at a position of ``RowMapped/mappedColumns``; `nil`
  /// writes NULL.
  /// - Throws: `EncodingError.invalidValue` naming the column for a value SQLite cannot
  ///   store (NaN, a `UInt64` above `Int64.max`); `SQLiteError` when SQLite refuses the bind.
  @inlinable
  public func set<T: SQLiteValueConvertible>(_ value: T, at position: Int) throws {
    let indexes = targets.indexes
    guard position >= 0 && position < indexes.count else { return }
    let target = indexes[position]
    guard target >= 0 else { return }
    let converted: SQLiteValue
    do {
      converted = try value.sqliteValue()
    } catch let error as SQLiteError {
      throw targets.unstorable(value, error, at: position)
    }
    if let statement {
      try statement.bindValue(converted, at: Int32(truncatingIfNeeded: target))
    } else {
      values?.storage[target] = converted
    }
  }
}
