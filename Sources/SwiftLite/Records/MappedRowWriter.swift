import Foundation

/// Where a ``RowMapped`` model writes its values: straight into the parameters of the
/// statement that stores it, or into a list of values, by position in the model's
/// ``RowMapped/mappedColumns``.
///
/// Valid only during ``RowMapped/write(to:)``; not `Sendable`.
public struct MappedRowWriter {
  // A writer lives only inside one `write(to:)` call, while the model table that makes it
  // keeps the statement, the list of values, the map and the marks alive: it holds them
  // without retaining them, so that making it, passing it and dropping it costs no
  // reference counting.
  /// The statement's parameters, bound straight through its handle, and the marks of the
  /// positions written (see ``ParameterMarks``); `nil` when writing into `values`.
  @usableFromInline let direct: DirectParameters?
  @usableFromInline unowned(unsafe) let values: ValueList?
  /// Position -> parameter index (1-based) or index in `values`; `-1` for nothing. Plain
  /// bits, its indexes read with the map borrowed: neither the map nor its array is
  /// retained, per value or per writer.
  @usableFromInline let targets: Unmanaged<ColumnMap>
  /// The number of positions (of `targets`' indexes).
  @usableFromInline let count: Int
  /// `targets`' ``ColumnMap/sequenceStart``, or `-1` when the map is not a sequence.
  @usableFromInline let sequenceStart: Int
  /// The format of each position's `Date`, when the table's are not all the standard one.
  /// Plain bits, as `targets`.
  @usableFromInline let dateFormats: Unmanaged<PositionDateForms>?

  init(
    statement: Statement, parameters: ColumnMap, marks: ParameterMarks,
    dateFormats: PositionDateForms? = nil
  ) {
    self.direct = DirectParameters(statement, marks: marks)
    self.values = nil
    self.targets = Unmanaged.passUnretained(parameters)
    self.count = parameters.indexes.count
    self.sequenceStart = parameters.sequenceStart ?? -1
    self.dateFormats = dateFormats.map(Unmanaged.passUnretained)
  }

  init(values: ValueList, slots: ColumnMap, dateFormats: PositionDateForms? = nil) {
    self.direct = nil
    self.values = values
    self.targets = Unmanaged.passUnretained(slots)
    self.count = slots.indexes.count
    self.sequenceStart = slots.sequenceStart ?? -1
    self.dateFormats = dateFormats.map(Unmanaged.passUnretained)
  }

  /// Writes the value of the property at a position of ``RowMapped/mappedColumns``; `nil`
  /// writes NULL.
  /// - Throws: `EncodingError.invalidValue` naming the column for a value SQLite cannot
  ///   store (NaN, a `UInt64` above `Int64.max`); `SQLiteError` when SQLite refuses the bind.
  // Always inlined: specialized, all but one type check fold away, and a model's
  // `write(to:)` then binds each value with no call of its own around the bind.
  @inlinable @inline(__always)
  public func set<T: SQLiteValueConvertible>(_ value: T, at position: Int) throws {
    guard position >= 0 && position < count else {
      throw outOfRange(position, count: count, value)
    }
    let target: Int
    if sequenceStart >= 0 {
      target = sequenceStart &+ position
    } else {
      target = targets._withUnsafeGuaranteedRef { $0.indexes[position] }
      guard target >= 0 else { return }
    }
    if let direct {
      direct.mark(position, positions: count)
      // The common types bound directly; specialized, all but one check folds away. Each
      // binds what `sqliteValue()` would give; anything else takes the general path.
      let parameter = Int32(truncatingIfNeeded: target)
      if T.self == Int64.self {
        return try direct.bind(unsafeBitCast(value, to: Int64.self), at: parameter)
      }
      if T.self == Int.self {
        return try direct.bind(Int64(unsafeBitCast(value, to: Int.self)), at: parameter)
      }
      if T.self == String.self {
        return try direct.bind(unsafeBitCast(value, to: String.self), at: parameter)
      }
      if T.self == Double.self, !unsafeBitCast(value, to: Double.self).isNaN {
        return try direct.bind(unsafeBitCast(value, to: Double.self), at: parameter)
      }
    }
    let converted: SQLiteValue
    do {
      // A date in its column's format (the type checks fold away once specialized).
      if T.self == Date.self || T.self == Date?.self, let formats = dateFormats,
        let format = formats._withUnsafeGuaranteedRef({ $0.forms[position] }),
        let date = value as? Date
      {
        converted = try format.value(for: date)
      } else {
        converted = try value.sqliteValue()
      }
    } catch let error as SQLiteError {
      throw targets.takeUnretainedValue().unstorable(value, error, at: position)
    }
    if let direct {
      try direct.statement.bindValue(converted, at: Int32(truncatingIfNeeded: target))
    } else {
      values?.storage[target] = converted
    }
  }

  /// A position that ``RowMapped/mappedColumns`` does not have: a typo in `write(to:)`
  /// that would otherwise lose the value.
  @usableFromInline func outOfRange(_ position: Int, count: Int, _ value: Any) -> EncodingError {
    EncodingError.invalidValue(
      value,
      .init(
        codingPath: [],
        debugDescription:
          "position \(position) is outside mappedColumns, which has \(count) column(s)"))
  }
}
