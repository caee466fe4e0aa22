/// Prepared statements kept per connection, keyed by SQL text.
///
/// A statement is handed out only when idle; a statement being stepped (a nested query of
/// the same SQL) makes the caller prepare a fresh, uncached one. A statement whose run
/// failed is evicted, so a broken statement is never reused.
final class StatementCache {
  private var statements: [String: Statement] = [:]
  /// The statement handed out last: the same SQL run in a loop finds it with one string
  /// comparison (a pointer compare for a literal) instead of hashing the SQL text each time.
  private var lastUsed: Statement?
  let capacity: Int

  init(capacity: Int) { self.capacity = capacity }

  var count: Int { statements.count }

  /// An idle cached statement for `sql`, or `nil`.
  func idleStatement(for sql: String) -> Statement? {
    if let lastUsed, lastUsed.sql == sql {
      return lastUsed.isInUse ? nil : lastUsed
    }
    guard let statement = statements[sql] else { return nil }
    lastUsed = statement
    return statement.isInUse ? nil : statement
  }

  /// Whether `sql` has a cached statement that is busy.
  func isBusy(_ sql: String) -> Bool { statements[sql]?.isInUse == true }

  func insert(_ statement: Statement) {
    guard capacity > 0 else { return }
    if statements.count >= capacity, let victim = statements.first(where: { !$0.value.isInUse }) {
      statements[victim.key] = nil
    }
    statements[statement.sql] = statement
    lastUsed = statement
  }

  func evict(_ sql: String) {
    statements[sql] = nil
    if lastUsed?.sql == sql { lastUsed = nil }
  }

  func removeAll() {
    statements.removeAll()
    lastUsed = nil
  }
}
