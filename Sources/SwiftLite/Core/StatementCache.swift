/// Prepared statements kept per connection, keyed by SQL text: by its bytes, as SQLite
/// reads it (two texts that differ only in Unicode normalization, equal Swift strings, are
/// two statements: `SELECT 'caf\u{E9}'` and `SELECT 'cafe\u{301}'` select different text).
///
/// A statement is handed out only when idle; a statement being stepped (a nested query of
/// the same SQL) makes the caller prepare a fresh, uncached one. A statement whose run
/// failed is evicted, so a broken statement is never reused.
final class StatementCache {
  private var statements: [ExactText: Statement] = [:]
  /// The statement handed out last: the same SQL run in a loop finds it with one comparison
  /// of bytes instead of hashing the SQL text each time.
  private var lastUsed: Statement?
  let capacity: Int

  init(capacity: Int) { self.capacity = capacity }

  var count: Int { statements.count }

  /// An idle cached statement for `sql`, or `nil`.
  func idleStatement(for sql: String) -> Statement? {
    if let lastUsed, lastUsed.sql.hasSameBytes(as: sql) {
      return lastUsed.isInUse ? nil : lastUsed
    }
    guard let statement = statements[ExactText(sql)] else { return nil }
    lastUsed = statement
    return statement.isInUse ? nil : statement
  }

  /// Whether `sql` has a cached statement that is busy.
  func isBusy(_ sql: String) -> Bool { statements[ExactText(sql)]?.isInUse == true }

  func insert(_ statement: Statement) {
    guard capacity > 0 else { return }
    if statements.count >= capacity, let victim = statements.first(where: { !$0.value.isInUse }) {
      statements[victim.key] = nil
    }
    statements[ExactText(statement.sql)] = statement
    lastUsed = statement
  }

  func evict(_ sql: String) {
    statements[ExactText(sql)] = nil
    if lastUsed?.sql.hasSameBytes(as: sql) == true { lastUsed = nil }
  }

  func removeAll() {
    statements.removeAll()
    lastUsed = nil
  }
}
