internal import CSQLite

/// Watches over the transactions that ``Connection/transaction(_:_:)`` and
/// ``Connection/savepoint(_:_:)`` open, for every statement of one connection.
///
/// SQLite rolls a whole transaction back by itself when a write statement in it is
/// interrupted, or fails on a full disk or an I/O error. A closure that catches that error
/// and goes on would then run its next statements outside any transaction, each committing
/// on its own: half of the closure's work would stay while the closure as a whole fails.
/// While such a closure runs (`depth > 0`), a statement finding the connection back in
/// autocommit mode is refused instead. The cost is one integer comparison per statement
/// outside those closures, and one `sqlite3_get_autocommit` call inside them.
final class TransactionGuard {
  /// How many closures that rely on an open transaction are running.
  var depth = 0

  /// Throws when a closure relies on a transaction that SQLite has rolled back.
  @inline(__always)
  func check(_ db: OpaquePointer?, sql: String?) throws(SQLiteError) {
    guard depth > 0, let db, sqlite3_get_autocommit(db) != 0 else { return }
    throw SQLiteError(
      extendedCode: .abortRollback,
      message: "the transaction was rolled back by SQLite after an earlier error in it (an "
        + "interrupt, a full disk or an I/O error): this statement would run outside it and "
        + "commit on its own, so it is refused; let that first error end the closure",
      sql: sql)
  }
}
