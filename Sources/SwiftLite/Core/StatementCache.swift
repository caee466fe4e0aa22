/// Prepared statements kept per connection, keyed by SQL text.
///
/// A statement is handed out only when idle; a statement being stepped (a nested query of
/// the same SQL) makes the caller prepare a fresh, uncached one. A statement whose run
/// failed is evicted, so a broken statement is never reused.
final class StatementCache {
  private var statements: [String: Statement] = [:]
  let capacity: Int

  init(capacity: Int) { self.capacity = capacity }

  var count: Int { statements.count }

  /// An idle cached statement for `sql`, or `nil`.
  func idleStatement(for sql: String) -> Statement? {
    guard let statement = statements[sql], !statement.isInUse else { return nil }
    return statement
  }

  /// Whether `sql` has a cached statement that is busy.
  func isBusy(_ sql: String) -> Bool { statements[sql]?.isInUse == true }

  func insert(_ statement: Statement) {
    if statements.count >= capacity, let victim = statements.first(where: { !$0.value.isInUse }) {
      statements[victim.key] = nil
    }
    statements[statement.sql] = statement
  }

  func evict(_ sql: String) { statements[sql] = nil }

  func removeAll() { statements.removeAll() }
}
