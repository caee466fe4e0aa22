/// The key an eager load groups a row by: the values of its key columns, one value alone
/// for the usual one-column key (no array to build and hash per row).
enum EagerKey: Hashable {
  case one(SQLiteValue)
  case several([SQLiteValue])

  /// The key's values, in column order, for binding.
  var values: [SQLiteValue] {
    switch self {
    case .one(let value): return [value]
    case .several(let values): return values
    }
  }

  /// The key in `count` columns of `row` from column `first`, or `nil` when one of them
  /// is NULL.
  /// - Throws: `DecodingError.dataCorrupted` for TEXT that is not valid UTF-8.
  static func key(in row: Row, first: Int, count: Int) throws -> EagerKey? {
    if count == 1 {
      // An INTEGER key, the common case, read without the general path.
      if let number = row.integer(at: first) { return .one(.integer(number)) }
      let value = try row[first]
      return value.isNull ? nil : .one(compared(value))
    }
    var values: [SQLiteValue] = []
    values.reserveCapacity(count)
    for index in first..<(first + count) {
      let value = try row[index]
      if value.isNull { return nil }
      values.append(compared(value))
    }
    return .several(values)
  }

  /// The value as SQLite's `=` compares it: a REAL with an integer value equals that
  /// INTEGER (`1.0 = 1`), so a child whose key another program stored as `1.0` belongs to
  /// parent `1`. Other values compare by class and bytes.
  private static func compared(_ value: SQLiteValue) -> SQLiteValue {
    if case .real(let number) = value, let integer = Int64(exactly: number) {
      return .integer(integer)
    }
    return value
  }
}

/// The keys of the rows an eager load steps through, in the last columns of each row:
/// ``MappedRows`` steps with it, so that a ``RowMapped`` model's own `models(from:)`,
/// compiled for its type, reads the rows while the keys are taken down.
///
/// Either it keeps the key of every row stepped (``keys``), or it stops at the end of
/// each run of rows with the same key (``grouping``): `models(from:)` then returns one
/// group's models, and the next call goes on with the next group.
@usableFromInline final class RowKeys {
  /// The first key column and the number of them.
  let first: Int
  let count: Int
  let grouping: Bool
  /// The key of each row stepped, when not grouping.
  private(set) var keys: [EagerKey?] = []
  /// When grouping: the key of the group being read, or the next one.
  private(set) var current: EagerKey?
  /// When grouping: the statement stands on the first row of the group `current`, not
  /// yet handed out.
  private var pending = false
  /// The statement has no more rows.
  private(set) var finished = false
  /// When grouping: the group handed out has ended (or the rows have), and until
  /// ``beginGroup()`` every step says so: a `models(from:)` that asks again after the end
  /// of its group must not get the next group's first row.
  private var groupEnded = false
  /// The number of rows handed out so far.
  private(set) var handedOut = 0
  /// When grouping: the number of rows of the last group that ended, `0` before the first.
  @usableFromInline private(set) var lastRunLength = 0
  private var runStart = 0

  init(first: Int, count: Int, grouping: Bool) {
    self.first = first
    self.count = count
    self.grouping = grouping
  }

  /// Steps `statement` to its first row and takes its key: `false` without one.
  /// - Throws: `SQLiteError` when the step fails; `DecodingError` for an unreadable key.
  func start(_ statement: Statement) throws -> Bool {
    guard try statement.step() else {
      finished = true
      return false
    }
    setCurrent(try EagerKey.key(in: statement.row, first: first, count: count))
    pending = true
    return true
  }

  /// Lets the next step hand out the next group's rows (see ``step(_:)``).
  func beginGroup() { groupEnded = false }

  /// The INTEGER of a one-column `current`, for the quick comparison of ``step(_:)``.
  private var currentNumber: Int64?

  private func endRun() {
    lastRunLength = handedOut - runStart
    runStart = handedOut
  }

  private func setCurrent(_ key: EagerKey?) {
    current = key
    if case .one(.integer(let number)) = key { currentNumber = number } else { currentNumber = nil }
  }

  /// Steps to the next row of `statement`: `false` at the end of the rows, or, when
  /// grouping, at the end of the group (the statement then stands on the next group's
  /// first row, which the next call hands out).
  /// - Throws: `SQLiteError` when the step fails; `DecodingError` for an unreadable key.
  @usableFromInline func step(_ statement: Statement) throws -> Bool {
    if grouping {
      if groupEnded { return false }
      if pending {
        pending = false
        handedOut += 1
        return true
      }
      guard !finished, try statement.step() else {
        finished = true
        groupEnded = true
        endRun()
        return false
      }
      // An INTEGER key the same as the group's, the common case: no key is built.
      if count == 1, let number = integerKey(statement), number == currentNumber {
        handedOut += 1
        return true
      }
      let key = try EagerKey.key(in: statement.row, first: first, count: count)
      if key == current {
        handedOut += 1
        return true
      }
      setCurrent(key)
      pending = true
      groupEnded = true
      endRun()
      return false
    }
    guard !finished, try statement.step() else {
      finished = true
      return false
    }
    if count == 1, let number = integerKey(statement) {
      keys.append(.one(.integer(number)))
    } else {
      keys.append(try EagerKey.key(in: statement.row, first: first, count: count))
    }
    handedOut += 1
    return true
  }

  /// The one-column key of the row `statement` just stepped to, when it is INTEGER; `nil`
  /// otherwise (the general path then reads it). Read from the statement itself, with no
  /// `Row` to make: the step that reached the row ran here, on this thread, a moment ago,
  /// after the checks every step makes.
  @inline(__always) private func integerKey(_ statement: Statement) -> Int64? {
    Statement.columnInt64(statement.handle, columnCount: statement.columnCount, at: first)
  }
}

extension RowMapped {
  /// The models of the rows of `statement` that `keys` hands out (see ``RowKeys``), read
  /// by this type's ``models(from:)``, compiled for it.
  static func readAll<M>(
    _ statement: Statement, columns: ColumnMap, keys: RowKeys, as type: M.Type
  ) throws -> [M] {
    assert(M.self == Self.self, "a RowMapped bridge called with another type")
    let models = try models(from: MappedRows(statement: statement, columns: columns, keys: keys))
    return unsafeBitCast(models, to: [M].self)
  }
}
