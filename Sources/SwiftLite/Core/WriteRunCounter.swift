/// How many times a statement that writes (not `sqlite3_stmt_readonly`, and not a BEGIN)
/// started a run on one connection: every statement of its `prepare`, its cache and
/// `execute(_:)`, DDL included, counted at the step that starts the run, before any
/// change is made; and C calls on the handle, a backup into it and a changeset applied to
/// it, counted once each.
///
/// A connection owns it, and so does each statement of the connection that writes, which
/// counts its own runs in ``Statement/step()``: one branch per step for a statement that
/// only reads. The count only grows, so an unchanged count means that nothing this
/// connection ran since could have written. Used on the connection's thread only.
final class WriteRunCounter {
  /// The runs counted so far. Written on every run of a writing statement, so without a
  /// dynamic exclusivity check: each access is a single load or store.
  @exclusivity(unchecked) var count: UInt64 = 0
  /// ``count`` and the connection's `totalChanges` when a transaction last began at a
  /// state with no uncommitted write and no write running (see
  /// `Connection.openingTransaction(_:)`); `nil` before that.
  var committed: (runs: UInt64, totalChanges: Int)?
  /// How many `Connection.withUnsafeHandle(_:)` bodies are running: their C calls write
  /// without a count, at any point of the body, which may use the connection meanwhile.
  var openUnsafeCalls = 0
  /// Whether C code was given the connection's handle (`withUnsafeHandle(_:)`, an
  /// extension): what it leaves registered (a function, a virtual table) may write later
  /// through the handle, from a statement that only reads, without a count.
  var mayWriteUncounted = false
}
