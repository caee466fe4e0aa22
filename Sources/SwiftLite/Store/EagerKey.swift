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

  /// The key in the last `count` columns of `row` (from column `first`), or `nil` when one
  /// of them is NULL.
  /// - Throws: `DecodingError.dataCorrupted` for TEXT that is not valid UTF-8.
  @inline(__always)
  static func key(in row: Row, first: Int, count: Int) throws -> EagerKey? {
    if count == 1 {
      // An INTEGER key, the common case, read without the general path.
      if let number = row.integer(at: first) { return .one(.integer(number)) }
      let value = try row[first]
      return value.isNull ? nil : .one(value)
    }
    var values: [SQLiteValue] = []
    values.reserveCapacity(count)
    for index in first..<(first + count) {
      let value = try row[index]
      if value.isNull { return nil }
      values.append(value)
    }
    return .several(values)
  }

  /// Every remaining row of `statement`, read by `read`, and the key in its last
  /// `keyCount` columns. Generic, so that a caller that knows the model's type (a
  /// ``RowMapped`` bridge) gets it compiled for that type.
  @inline(__always)
  static func readAll<T>(
    _ statement: Statement, keyCount: Int, _ read: (Row) throws -> T
  ) throws -> ([T], [EagerKey?]) {
    var models: [T] = []
    var keys: [EagerKey?] = []
    let first = statement.columnCount - keyCount
    while try statement.step() {
      let row = statement.row
      models.append(try read(row))
      keys.append(try key(in: row, first: first, count: keyCount))
    }
    return (models, keys)
  }

  /// The models of each group, for each of `rowGroups` (a group number, or `-1` for
  /// none, which gets no models): `groupOf[i]` is the group of `models[i]` (`-1` for none).
  /// The models keep their order within a group.
  static func gather<T>(_ models: [T], groupOf: [Int], groupCount: Int, rowGroups: [Int])
    -> [[T]]
  {
    var sizes = [Int](repeating: 0, count: groupCount)
    for group in groupOf where group >= 0 { sizes[group] += 1 }
    var groups = sizes.map { size -> [T] in
      var group: [T] = []
      group.reserveCapacity(size)
      return group
    }
    for index in models.indices {
      let group = groupOf[index]
      if group >= 0 { groups[group].append(models[index]) }
    }
    return rowGroups.map { $0 >= 0 ? groups[$0] : [] }
  }
}

// The bridges of eager loading to a `RowMapped` model's own code: reading and grouping
// compiled for the model's type, where code generic over any `Model` would look generic
// metadata up at run time for each row.
extension RowMapped {
  /// Every remaining row of `statement` as a model of this type, with its key (see
  /// ``EagerKey/readAll(_:keyCount:_:)``).
  static func readKeyed<M>(_ statement: Statement, columns: ColumnMap, keyCount: Int, as type: M.Type)
    throws -> ([M], [EagerKey?])
  {
    assert(M.self == Self.self, "a RowMapped bridge called with another type")
    let (models, keys) = try EagerKey.readAll(statement, keyCount: keyCount) { row in
      try Self(row: MappedRow(row: row, columns: columns))
    }
    return (unsafeBitCast(models, to: [M].self), keys)
  }

  /// ``EagerKey/gather(_:groupOf:groupCount:rowGroups:)`` compiled for this type.
  static func gather<M>(_ models: [M], groupOf: [Int], groupCount: Int, rowGroups: [Int])
    -> [[M]]
  {
    assert(M.self == Self.self, "a RowMapped bridge called with another type")
    let groups = EagerKey.gather(
      unsafeBitCast(models, to: [Self].self), groupOf: groupOf, groupCount: groupCount,
      rowGroups: rowGroups)
    return unsafeBitCast(groups, to: [[M]].self)
  }
}
