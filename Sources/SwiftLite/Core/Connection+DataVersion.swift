internal import CSQLite

// What a connection can tell, without running a statement, about the state of the main
// database it last read: whether its transaction has written to it. The schema catalogue
// (Schema/SchemaCatalogue+Checkpoint.swift) uses it to decide when what it checked can
// be kept past a transaction's end.
extension Connection {
  /// Whether the open transaction has written to the main database: changes a rollback
  /// would undo (`sqlite3_txn_state` is `SQLITE_TXN_WRITE`). `false` outside a
  /// transaction, in a transaction that only read, and on a closed connection.
  var hasUncommittedWrites: Bool {
    isOpen && sqlite3_txn_state(handle, "main") == SQLITE_TXN_WRITE
  }
}
