/// Where each position of a ``RowMapped`` model's ``RowMapped/mappedColumns`` is found: a
/// column of a result (reading), or a parameter of a statement or a slot of a list of
/// values (writing). Computed once per statement or per table, used for every row.
@usableFromInline final class ColumnMap {
  /// The index each position maps to; `-1` when it maps to nothing.
  @usableFromInline let indexes: ContiguousArray<Int>
  /// The model's column names, by position, for errors.
  @usableFromInline let names: [String]
  /// The names of the result's columns, for the error of a missing column.
  let available: [String]
  /// Whether every position maps to the column of its own number (position 0 to column 0,
  /// and so on): a read then needs the map only for the error of a position out of range.
  @usableFromInline let isIdentity: Bool
  /// The index of position 0 when each position maps to the index after the one before
  /// (parameters 1, 2, 3, ... of a writer), none of them `-1`; `nil` otherwise: a write
  /// then finds each position's index by adding, with no map to load.
  let sequenceStart: Int?

  init(indexes: ContiguousArray<Int>, names: [String], available: [String]) {
    self.indexes = indexes
    self.names = names
    self.available = available
    isIdentity = indexes.indices.allSatisfy { indexes[$0] == $0 }
    let start = indexes.first ?? 0
    sequenceStart =
      start >= 0 && indexes.indices.allSatisfy { indexes[$0] == start + $0 } ? start : nil
  }

  /// The map reading `names` from the columns of `layout`, matched as SQLite matches names.
  convenience init(reading names: [String], from layout: ColumnLayout) {
    self.init(
      indexes: ContiguousArray(names.map { layout.index(of: $0) ?? -1 }), names: names,
      available: layout.names)
  }

  /// The name of a position, or its number when it has none.
  @usableFromInline func name(at position: Int) -> String {
    names.indices.contains(position) ? names[position] : String(position)
  }

  /// The error for a position that maps to no column (or is out of range), as the
  /// `Codable` path reports a property without a column.
  @usableFromInline func missingColumn(at position: Int) -> DecodingError {
    Self.missingColumn(named: name(at: position), available: available)
  }

  /// The error for a position named `key` that maps to none of the columns `available`.
  static func missingColumn(named key: String, available: [String]) -> DecodingError {
    DecodingError.keyNotFound(
      ColumnKey(stringValue: key),
      .init(
        codingPath: [ColumnKey(stringValue: key)],
        debugDescription:
          "no column named '\(key)' (columns: \(available.joined(separator: ", ")))"))
  }

  /// The error for a value that cannot be stored, naming its column as the `Codable` path does.
  @usableFromInline func unstorable(_ value: Any, _ error: SQLiteError, at position: Int)
    -> EncodingError
  {
    let key = name(at: position)
    // `Codable` encodes an optional's wrapped value: report that, as it does.
    var reported = value
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .optional, let wrapped = mirror.children.first {
      reported = wrapped.value
    }
    return EncodingError.invalidValue(
      reported,
      .init(
        codingPath: [ColumnKey(stringValue: key)],
        debugDescription: "column '\(key)': \(error.message)"))
  }
}
