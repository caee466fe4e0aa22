// Transactions for the closures of `DatabaseQueue` and `DatabasePool`, which open one per
// closure: their BEGIN and COMMIT are prepared once per connection and kept on it, so a
// closure pays for stepping them, not for parsing them again nor for finding them by text.
extension Connection {
  /// Runs one statement of SwiftLite's own (a BEGIN, a COMMIT, a pragma) through the
  /// statement cache, without arguments, stepping it to its end. Takes its text as a
  /// `String`, so that it never goes through the interpolated form of a layer above.
  /// - Throws: `SQLiteError` when it fails.
  func runCached(_ sql: String) throws {
    try withCachedStatement(sql, bind: { _ in }, Self.stepToEnd(_:))
  }

  /// Steps `statement` until it has no more rows.
  private static func stepToEnd(_ statement: Statement) throws {
    while try statement.step() {}
  }

  /// The prepared BEGIN and COMMIT of one kind of transaction, kept on a connection as an
  /// attachment: dropped with the other attachments (when the connection closes or the
  /// schema changes under a reader) and prepared again on the next use.
  final class TransactionStatements {
    let begin: Statement
    let commit: Statement

    init(begin: Statement, commit: Statement) {
      self.begin = begin
      self.commit = commit
    }
  }

  /// Like ``transaction(_:_:)``, with BEGIN and COMMIT prepared once per connection: for
  /// code that opens a transaction per call, many times on one connection. They run as
  /// any statement does: checked against the owner's thread, traced, interruptible.
  /// - Throws: as ``transaction(_:_:)``.
  func cachedTransaction<T>(_ kind: TransactionKind, _ body: (Connection) throws -> T) throws
    -> T
  {
    let statements = try transactionStatements(kind)
    try openingTransaction { try runKept(statements.begin, kind: kind) }
    return try inOpenTransaction(body) { try runKept(statements.commit, kind: kind) }
  }

  /// The kept statements of `kind`, prepared on first use.
  private func transactionStatements(_ kind: TransactionKind) throws -> TransactionStatements {
    let key = AttachmentKey(type: ObjectIdentifier(TransactionStatements.self), name: kind.rawValue)
    let kept = attachments(of: TransactionStatements.self)
    if let statements = kept.value(for: key) { return statements }
    let statements = TransactionStatements(
      begin: try keptStatement("BEGIN " + kind.rawValue + " TRANSACTION"),
      commit: try keptStatement("COMMIT TRANSACTION"))
    kept.set(statements, for: key)
    return statements
  }

  private func keptStatement(_ sql: String) throws -> Statement {
    try ensureOpen(sql)
    let statement = try prepareStatement(sql, persistent: true)
    statement.owner = owner
    statement.transactionGuard = transactionGuard
    return statement
  }

  /// Steps a kept statement to its end and resets it. BEGIN and COMMIT name no table, so
  /// the table activity has nothing to learn from them. A failed one is dropped, to be
  /// prepared again.
  private func runKept(_ statement: Statement, kind: TransactionKind) throws {
    try ensureOpen(statement.sql)
    defer { statement.resetNow() }
    do {
      while try statement.step() {}
    } catch {
      attachments(of: TransactionStatements.self).remove(
        AttachmentKey(type: ObjectIdentifier(TransactionStatements.self), name: kind.rawValue))
      throw error
    }
  }
}
