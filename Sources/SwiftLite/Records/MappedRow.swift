/// A row as a ``RowMapped`` model reads it: by position in the model's
/// ``RowMapped/mappedColumns``, each position already matched to its column.
///
/// Valid only during ``RowMapped/init(row:)``; not `Sendable`.
public struct MappedRow {
  /// The row itself, for reads the positions do not cover.
  public var row: Row { inPlace }
  /// The row, moved along by a loop that hands one value to each step (see
  /// ``MappedRows/forEachRow(_:)``).
  @usableFromInline var inPlace: Row
  /// How many positions there are when each reads the column of its own number (see
  /// ``ColumnMap/isIdentity``), else `0`: such a read takes its position as the index,
  /// with no map to load and none to retain for each row.
  @usableFromInline let identityCount: Int
  /// The map of the positions; `nil` when they are the identity.
  @usableFromInline let columns: ColumnMap?

  @inlinable init(row: Row, columns: ColumnMap) {
    inPlace = row
    if columns.isIdentity {
      identityCount = columns.indexes.count
      self.columns = nil
    } else {
      identityCount = 0
      self.columns = columns
    }
  }

  /// Makes this value the row of its statement that keeps `number` (see ``Row/move(to:)``).
  @inlinable mutating func move(to number: UInt64) { inPlace.move(to: number) }

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
    let index: Int
    if UInt(bitPattern: position) < UInt(bitPattern: identityCount) {
      index = position
    } else {
      guard let indexes = columns?.indexes, position >= 0 && position < indexes.count,
        indexes[position] >= 0
      else { throw missingColumn(at: position) }
      index = indexes[position]
    }
    return try inPlace.get(T.self, at: index)
  }

  /// The error for a position that maps to no column, or is out of range.
  @usableFromInline func missingColumn(at position: Int) -> DecodingError {
    if let columns { return columns.missingColumn(at: position) }
    // The identity maps every position in range: this one has no name, only its number.
    return ColumnMap.missingColumn(named: String(position), available: inPlace.columnNames)
  }
}
