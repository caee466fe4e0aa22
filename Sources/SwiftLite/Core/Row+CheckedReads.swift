// The fast reads of a row of a statement whose connection has an owner, after the full
// check: out of line, so that rows of statements without one pay nothing for them.
extension Row {
  @usableFromInline @inline(never) func checkedInteger(at index: Int) -> Int64? {
    guard let (handle, columnCount) = checkedCursor() else { return nil }
    return Statement.columnInt64(handle, columnCount: columnCount, at: index)
  }

  @inline(never) func checkedText(at index: Int, allowingNull: Bool) -> String?? {
    guard let (handle, columnCount) = checkedCursor() else { return nil }
    return Statement.columnText(
      handle, columnCount: columnCount, at: index, allowingNull: allowingNull)
  }

  @inline(never) func checkedReal(at index: Int, allowingNull: Bool) -> Double?? {
    guard let (handle, columnCount) = checkedCursor() else { return nil }
    return Statement.columnDouble(
      handle, columnCount: columnCount, at: index, allowingNull: allowingNull)
  }

  @inline(never) func checkedOptionalInteger(at index: Int) -> Int64?? {
    guard let (handle, columnCount) = checkedCursor() else { return nil }
    return Statement.columnOptionalInt64(handle, columnCount: columnCount, at: index)
  }
}
