internal import CSQLite

// What a connection can tell, without running a statement, about the state of the main
// database it last read: whether its transaction has written to it, and whether a statement
// that writes is still running (its changes are made but not yet counted). The schema catalogue
// (Schema/SchemaCatalogue+Checkpoint.swift) uses it to decide when what it checked can
// be kept past a transaction's end.
extension Connection {
  /// Whether the open transaction has written to the main database: changes a rollback
  /// would undo (`sqlite3_txn_state` is `SQLITE_TXN_WRITE`). `false` outside a
  /// transaction, in a transaction that only read, and on a closed connection.
  var hasUncommittedWrites: Bool {
    isOpen && sqlite3_txn_state(handle, "main") == SQLITE_TXN_WRITE
  }

  /// Whether a statement that writes (not `sqlite3_stmt_readonly`) has stepped and not yet
  /// been reset: an `UPDATE ... RETURNING` read part way, say. Its changes are made, but
  /// `sqlite3_total_changes` counts them only when it ends.
  var hasWriteInProgress: Bool { hasStatementInProgress(writing: true) }
}
