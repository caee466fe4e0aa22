/// A row as a ``RowMapped`` model reads it: by position in the model's
/// ``RowMapped/mappedColumns``, each position already matched to its column.
///
/// Valid only during ``RowMapped/init(row:)``; not `Sendable`.
public struct MappedRow {
  /// The row itself, for reads the positions do not cover.
  public let row: Row
  @usableFromInline let columns: ColumnMap

  @usableFromInline init(row: Row, columns: ColumnMap) {
    self.row = row
    self.columns = columns
  }

  /// The value at a position of ``RowMapped/mappedColumns``, its type inferred:
  /// `name = try row.get(1)`.
  /// - Throws: `DecodingError` naming the column: `.keyNotFound` when the result has no
  ///   such column, `.valueNotFound` for NULL read as a non-optional type,
  ///   `.typeMismatch` for another storage class or an out-of-range integer,
  ///   `.dataCorrupted` for TEXT that is not valid UTF-8 read as a `String`.
  @inlinable @inline(__always)
  public func get<T: SQLiteValueConvertible>(_ position: Int) throws -> T {
    try get(T.self, position)
  }

  /// The value at a position of ``RowMapped/mappedColumns`` as a Swift type.
  /// - Throws: what ``get(_:)`` throws.
  // Always inlined, as `Row.get(_:at:)` is: a model's `init(row:)` then reads each column
  // with no call of its own around the one that reads the value.
  @inlinable @inline(__always)
  public func get<T: SQLiteValueConvertible>(_ type: T.Type, _ position: Int) throws -> T {
    let indexes = columns.indexes
    guard position >= 0 && position < indexes.count, indexes[position] >= 0 else {
      throw columns.missingColumn(at: position)
    }
    return try row.get(T.self, at: indexes[position])
  }
}
