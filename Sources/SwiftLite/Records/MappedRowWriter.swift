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
  @usableFromInline unowned(unsafe) let statement: Statement?
  /// The statement's handle: integers, doubles and strings are bound through it without
  /// building an ``SQLiteValue`` or touching the statement.
  @usableFromInline let handle: OpaquePointer?
  @usableFromInline unowned(unsafe) let values: ValueList?
  /// Position -> parameter index (1-based) or index in `values`; `-1` for nothing.
  @usableFromInline unowned(unsafe) let targets: ColumnMap
  /// `targets`' indexes, held by the writer itself: read through the unretained map, the
  /// array would be retained and released around every value.
  @usableFromInline let indexes: ContiguousArray<Int>
  /// Where each position written to the statement is marked with `generation`, so that the
  /// positions a model leaves unwritten can be bound NULL afterwards (see
  /// ``ParameterMarks``); `nil` when writing into `values`.
  @usableFromInline let marks: UnsafeMutablePointer<UInt32>?
  @usableFromInline let generation: UInt32
  /// The format of each position's `Date`, when the table's are not all the standard one.
  @usableFromInline let dateFormats: ContiguousArray<ColumnDateForm?>?

  init(
    statement: Statement, parameters: ColumnMap, marks: ParameterMarks,
    dateFormats: ContiguousArray<ColumnDateForm?>? = nil
  ) {
    self.statement = statement
    self.handle = statement.handle
    self.values = nil
    self.targets = parameters
    self.indexes = parameters.indexes
    self.marks = marks.marks
    self.generation = marks.generation
    self.dateFormats = dateFormats
  }

  init(values: ValueList, slots: ColumnMap, dateFormats: ContiguousArray<ColumnDateForm?>? = nil) {
    self.statement = nil
    self.handle = nil
    self.values = values
    self.targets = slots
    self.indexes = slots.indexes
    self.marks = nil
    self.generation = 0
    self.dateFormats = dateFormats
  }

  /// Writes the value of the property at a position of ``RowMapped/mappedColumns``; `nil`
  /// writes NULL.
  /// - Throws: `EncodingError.invalidValue` naming the column for a value SQLite cannot
  ///   store (NaN, a `UInt64` above `Int64.max`); `SQLiteError` when SQLite refuses the bind.
  // Always inlined: specialized, all but one type check fold away, and a model's
  // `write(to:)` then binds each value with no call of its own around the bind.
  @inlinable @inline(__always)
  public func set<T: SQLiteValueConvertible>(_ value: T, at position: Int) throws {
    guard position >= 0 && position < indexes.count else {
      throw outOfRange(position, count: indexes.count, value)
    }
    let target = indexes[position]
    guard target >= 0 else { return }
    if let handle, let marks {
      // Marked, and counted the first time in this write (see ``ParameterMarks``).
      if marks[position] != generation {
        marks[position] = generation
        marks[indexes.count] &+= 1
      }
      // The common types bound directly; specialized, all but one check folds away. Each
      // binds what `sqliteValue()` would give; anything else takes the general path.
      let parameter = Int32(truncatingIfNeeded: target)
      if T.self == Int64.self {
        return try mappedBind(unsafeBitCast(value, to: Int64.self), to: handle, at: parameter)
      }
      if T.self == Int.self {
        let number = Int64(unsafeBitCast(value, to: Int.self))
        return try mappedBind(number, to: handle, at: parameter)
      }
      if T.self == String.self {
        return try mappedBind(unsafeBitCast(value, to: String.self), to: handle, at: parameter)
      }
      if T.self == Double.self, !unsafeBitCast(value, to: Double.self).isNaN {
        return try mappedBind(unsafeBitCast(value, to: Double.self), to: handle, at: parameter)
      }
    }
    let converted: SQLiteValue
    do {
      // A date in its column's format (the type checks fold away once specialized).
      if T.self == Date.self || T.self == Date?.self, let formats = dateFormats,
        let format = formats[position], let date = value as? Date
      {
        converted = try format.value(for: date)
      } else {
        converted = try value.sqliteValue()
      }
    } catch let error as SQLiteError {
      throw targets.unstorable(value, error, at: position)
    }
    if let statement {
      try statement.bindValue(converted, at: Int32(truncatingIfNeeded: target))
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

/// The marks of the positions a ``RowMapped`` model wrote into a statement, one per
/// position: a write marks each position it sets with a new generation, and the positions
/// left with an older mark are bound NULL afterwards. Cheaper than clearing every
/// parameter before each write, which SQLite does one parameter at a time.
///
/// One more slot, after the positions, counts the positions a ``MappedRowWriter`` marked in
/// this generation: when it marked every position that names a parameter, nothing is left
/// to bind NULL and the positions are not looked at.
final class ParameterMarks {
  let marks: UnsafeMutablePointer<UInt32>
  let count: Int
  private(set) var generation: UInt32 = 0
  /// How many positions of `mappedFor`'s map name a parameter, once counted.
  private var mapped = 0
  private var mappedFor: ObjectIdentifier?

  init(count: Int) {
    self.count = count
    marks = .allocate(capacity: count + 1)
    marks.initialize(repeating: 0, count: count + 1)
  }

  deinit { marks.deallocate() }

  /// Starts a write: a generation no position is marked with yet, and no position counted.
  func next() {
    generation &+= 1
    if generation == 0 {
      marks.update(repeating: 0, count: count + 1)
      generation = 1
    }
    marks[count] = 0
  }

  /// Marks `position` as written by the current write.
  @inline(__always) func mark(_ position: Int) { marks[position] = generation }

  /// Binds NULL to parameter `position + 1` for every position the last write left
  /// unmarked: for a statement whose parameters are the positions, in order.
  func bindNullToUnwritten(_ statement: Statement) throws {
    for position in 0..<count where marks[position] != generation {
      try statement.bindValue(.null, at: Int32(truncatingIfNeeded: position + 1))
    }
  }

  /// Binds NULL to the parameter of every position the last ``MappedRowWriter`` write left
  /// unmarked.
  func bindNullToUnwritten(_ statement: Statement, parameters: ColumnMap) throws {
    let map = ObjectIdentifier(parameters)
    if mappedFor != map {
      mapped = parameters.indexes.prefix(count).filter { $0 >= 0 }.count
      mappedFor = map
    }
    // The writer counted each position it marked once, and marks only positions that
    // name a parameter: all of them marked, none is left.
    if Int(marks[count]) == mapped { return }
    for position in 0..<count where marks[position] != generation {
      let target = parameters.indexes[position]
      if target > 0 { try statement.bindValue(.null, at: Int32(truncatingIfNeeded: target)) }
    }
  }
}
