internal import CSQLite

// What a connection can tell, without running a statement, about the state of the main
// database it last read: whether its transaction may have written to it, and whether any
// statement that writes ran since a given moment. The schema catalogue
// (Schema/SchemaCatalogue+Checkpoint.swift) uses it to decide when what it checked can
// be kept past a transaction's end.
extension Connection {
  /// How many times a statement that writes started a run on this connection (see
  /// ``WriteRunCounter``): unchanged between two reads, nothing this connection ran in
  /// between could have written, rows or schema.
  var writeRuns: UInt64 { writeRunCounter.count }

  /// Whether C code was given this connection's handle, and may have left something that
  /// writes without moving ``writeRuns`` (see ``WriteRunCounter/mayWriteUncounted``).
  var mayWriteUncounted: Bool { writeRunCounter.mayWriteUncounted }

  /// Whether the open transaction may hold writes to the main database that a rollback
  /// would undo. `false` outside a transaction, in a transaction that only read, on a
  /// closed connection, and in a write transaction (`BEGIN IMMEDIATE`, say) in which
  /// nothing written has run since the connection was last at a committed state (see
  /// ``openingTransaction(_:)``): no statement that writes started and no row changed.
  /// `true` inside ``withUnsafeHandle(_:)``, whose C calls may write later in its body
  /// without moving any count; and in any write transaction where C code may write
  /// uncounted (``mayWriteUncounted``).
  var hasUncommittedWrites: Bool {
    if writeRunCounter.openUnsafeCalls > 0 { return true }
    guard isOpen, sqlite3_txn_state(handle, "main") == SQLITE_TXN_WRITE else { return false }
    if writeRunCounter.mayWriteUncounted { return true }
    guard let committed = writeRunCounter.committed else { return true }
    return committed.runs != writeRunCounter.count || committed.totalChanges != totalChanges
  }

  /// Runs `begin`, a BEGIN (or a SAVEPOINT that opens a transaction), and notes the counts
  /// as those of a committed state when it ran at one: in autocommit mode, with no write
  /// running (a write statement stepping holds a write transaction, on the main database
  /// or another; any of them counts). A BEGIN writes nothing and counts as no write, so a
  /// write transaction that starts there holds nothing uncommitted until a write runs.
  /// - Throws: what `begin` throws; nothing is noted then.
  func openingTransaction(_ begin: () throws -> Void) rethrows {
    let committed =
      isOpen && sqlite3_get_autocommit(handle) != 0
      && sqlite3_txn_state(handle, nil) != SQLITE_TXN_WRITE
    try begin()
    if committed { writeRunCounter.committed = (writeRunCounter.count, totalChanges) }
  }

  /// Whether the prepared `statement` counts as a write (see ``WriteRunCounter``): it is
  /// not `sqlite3_stmt_readonly`, and is not a BEGIN, which changes nothing although
  /// `BEGIN IMMEDIATE` and `BEGIN EXCLUSIVE` are not read-only (they take the write lock).
  static func countsAsWrite(_ statement: OpaquePointer) -> Bool {
    guard sqlite3_stmt_readonly(statement) == 0 else { return false }
    guard var text = sqlite3_sql(statement) else { return true }
    while text.pointee == 0x20 || (0x09...0x0D).contains(text.pointee) { text += 1 }
    for letter in "begin".utf8 {
      guard UInt8(bitPattern: text.pointee) | 0x20 == letter else { return true }
      text += 1
    }
    // The keyword ends there: a blank, `;`, a comment or the end of the text.
    let next = UInt8(bitPattern: text.pointee)
    return next == UInt8(ascii: "_") || next >= 0x80
      || (next | 0x20 >= UInt8(ascii: "a") && next | 0x20 <= UInt8(ascii: "z"))
      || (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9"))
  }
}
