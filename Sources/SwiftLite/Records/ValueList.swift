/// The values of one model, one per column of its table, filled by a ``MappedRowWriter``.
@usableFromInline final class ValueList {
  @usableFromInline var storage: ContiguousArray<SQLiteValue>

  init(count: Int) { storage = ContiguousArray(repeating: .null, count: count) }
}
