/// The marks of the positions a model wrote into a statement, one per
/// position: a write marks each position it sets with a new generation, and the positions
/// left with an older mark are bound NULL afterwards. Cheaper than clearing every
/// parameter before each write, which SQLite does one parameter at a time.
///
/// One more slot, after the positions, counts the positions a direct writer marked in this
/// generation (``DirectParameters/mark(_:positions:)``): when it marked every position that
/// names a parameter, nothing is left to bind NULL and the positions are not looked at.
///
/// Not `Sendable`: it belongs to the statement it marks for.
final class ParameterMarks {
  @usableFromInline let marks: UnsafeMutablePointer<UInt32>
  let count: Int
  @usableFromInline private(set) var generation: UInt32 = 0
  /// How many positions of `mappedFor`'s indexes name a parameter, once counted.
  private var mapped = 0
  private var mappedFor: ObjectIdentifier?

  init(count: Int) {
    self.count = count
    marks = .allocate(capacity: count + 1)
    marks.initialize(repeating: 0, count: count + 1)
  }

  deinit { marks.deallocate() }

  /// Starts a write: a generation no position is marked with yet, and no position counted.
  /// Inlined, the wrap of the generation to 0 out of line.
  @inline(__always) func next() {
    generation &+= 1
    if generation == 0 { restartGenerations() }
    marks[count] = 0
  }

  /// Clears every mark, for generations that wrapped around to 0.
  @inline(never) private func restartGenerations() {
    marks.update(repeating: 0, count: count + 1)
    generation = 1
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

  /// Binds NULL to the parameter of every position the last direct write left unmarked:
  /// `indexes` gives each position's parameter (from 1; -1 for none), and `map` is the
  /// object that owns them, so that their count is made once.
  ///
  /// Inlined, the binds out of line: a write that marked every position that names a
  /// parameter (the writer counted each once, and marks only those) pays two loads and a
  /// comparison.
  @inline(__always) func bindNullToUnwritten(
    _ statement: Statement, indexes: ContiguousArray<Int>, of map: ObjectIdentifier
  ) throws {
    if mappedFor == map, Int(marks[count]) == mapped { return }
    try bindNullToUnwrittenNow(statement, indexes: indexes, of: map)
  }

  /// The work of ``bindNullToUnwritten(_:indexes:of:)``, counting the positions that name
  /// a parameter first for a map not counted yet.
  @inline(never) private func bindNullToUnwrittenNow(
    _ statement: Statement, indexes: ContiguousArray<Int>, of map: ObjectIdentifier
  ) throws {
    if mappedFor != map {
      mapped = indexes.prefix(count).filter { $0 >= 0 }.count
      mappedFor = map
    }
    if Int(marks[count]) == mapped { return }
    for position in 0..<count where marks[position] != generation {
      let target = indexes[position]
      if target > 0 { try statement.bindValue(.null, at: Int32(truncatingIfNeeded: target)) }
    }
  }
}
