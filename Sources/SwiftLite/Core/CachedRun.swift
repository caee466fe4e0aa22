/// One run of a cached statement, between ``Connection/beginCachedRun(_:)`` and
/// ``Connection/endCachedRun(_:failed:)``: the statement, and what ending the run needs.
@usableFromInline struct CachedRun {
  /// The statement, in use for this run.
  @usableFromInline let statement: Statement
  /// Whether the statement is the cache's (a failed run evicts it) or a fresh one made
  /// while the cached one was busy.
  let cached: Bool
  /// The connection's activity when it tracks reads, `nil` otherwise.
  let activity: TableActivity?
  /// `sqlite3_total_changes64` before the run, when activity is tracked.
  let changesBefore: Int64
}
