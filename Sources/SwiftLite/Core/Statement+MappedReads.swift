internal import CSQLite

// The bind of a model table's lookup by primary key: the one key bound to parameter 1 of a
// statement the table prepared with exactly one parameter. The caller checked the
// connection (open, the owner's thread) just before, and the step checks the thread again.
extension Statement {
  /// Binds `key` to parameter 1: an integer straight through the handle, any other value
  /// as ``bindValue(_:at:)`` binds it.
  /// - Throws: `SQLiteError` when SQLite refuses the bind, or for NaN.
  func bindKey(_ key: SQLiteValue) throws(SQLiteError) {
    if case .integer(let number) = key {
      let code = sqlite3_bind_int64(handle, 1, number)
      if code == SQLITE_OK { return }
    }
    try bindValue(key, at: 1)
  }
}

extension Statement {
  /// Whether `layout` is the statement's layout now (no re-prepare has changed it since it
  /// was read): a map of its columns made for it still holds.
  func hasLayout(_ layout: ColumnLayout) -> Bool { cachedLayout === layout }
}
