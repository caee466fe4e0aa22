/// How a transaction takes its locks. See <https://sqlite.org/lang_transaction.html>.
public enum TransactionKind: String, Sendable {
  /// Locks are taken when first needed (SQLite's default).
  case deferred = "DEFERRED"
  /// The write lock is taken at once: a busy database fails at BEGIN, not mid-way.
  case immediate = "IMMEDIATE"
  /// Like immediate; in WAL mode the same, otherwise readers are shut out too.
  case exclusive = "EXCLUSIVE"
}

extension Connection {
  /// Runs `body` in a transaction: commits when it returns, rolls back when it throws and
  /// rethrows that first error.
  ///
  /// ```swift
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE account(id INTEGER PRIMARY KEY, balance INTEGER)")
  /// try db.run("INSERT INTO account VALUES (1, 100), (2, 0)")
  /// let (from, to) = (1, 2)
  ///
  /// try db.transaction(.immediate) { db in
  ///   try db.run("UPDATE account SET balance = balance - 10 WHERE id = ?", [from])
  ///   try db.run("UPDATE account SET balance = balance + 10 WHERE id = ?", [to])
  /// }
  /// ```
  /// - Parameters:
  ///   - kind: the locking behaviour; `.deferred` by default.
  ///   - body: the work; it receives this connection.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws (after rolling back), or `SQLiteError` when BEGIN or
  ///   COMMIT fails (a failed COMMIT is rolled back too); BEGIN fails inside another
  ///   transaction: use ``savepoint(_:_:)`` to nest. When SQLite rolls the transaction
  ///   back by itself (a write interrupted, a full disk), every later statement of `body`
  ///   throws `.abortRollback` rather than run, and commit, outside it.
  @discardableResult
  public func transaction<T>(
    _ kind: TransactionKind = .deferred, _ body: (Connection) throws -> T
  ) throws -> T {
    try openingTransaction { try execute("BEGIN " + kind.rawValue + " TRANSACTION") }
    return try inOpenTransaction(body) { try execute("COMMIT TRANSACTION") }
  }

  /// Runs `body` in the transaction a BEGIN just opened, then ends it with `commit`; rolls
  /// back when either throws, and rethrows.
  func inOpenTransaction<T>(_ body: (Connection) throws -> T, commit: () throws -> Void)
    throws -> T
  {
    let result: T
    do {
      transactionGuard.depth += 1
      defer { transactionGuard.depth -= 1 }
      result = try body(self)
    } catch {
      rollbackQuietly("ROLLBACK TRANSACTION")
      throw error
    }
    do {
      try commit()
    } catch {
      rollbackQuietly("ROLLBACK TRANSACTION")
      throw error
    }
    return result
  }

  /// Runs `body` inside a savepoint: released when it returns, rolled back to its start
  /// when it throws (and the error rethrown). Savepoints nest, inside a transaction or not.
  /// - Parameters:
  ///   - name: a name for the savepoint; a unique one is made when `nil`.
  ///   - body: the work; it receives this connection.
  /// - Returns: what `body` returns.
  /// - Throws: what `body` throws, or `SQLiteError` when SAVEPOINT or RELEASE fails.
  @discardableResult
  public func savepoint<T>(_ name: String? = nil, _ body: (Connection) throws -> T) throws -> T {
    let quoted = SQLIdentifier.quote(name ?? nextSavepointName())
    // A savepoint outside a transaction opens one, which SQLite may roll back as a whole.
    let opensTransaction = !isInTransaction
    // The outermost savepoint is rolled back with its transaction: `ROLLBACK TO` then
    // `RELEASE` would commit it, writing the restored pages and the file's change counter
    // (and, for a schema change, telling every other connection that the schema changed).
    let rollback =
      opensTransaction
      ? "ROLLBACK TRANSACTION"
      : "ROLLBACK TO SAVEPOINT " + quoted + "; RELEASE SAVEPOINT " + quoted
    try openingTransaction { try execute("SAVEPOINT " + quoted) }
    let result: T
    do {
      if opensTransaction { transactionGuard.depth += 1 }
      defer { if opensTransaction { transactionGuard.depth -= 1 } }
      result = try body(self)
    } catch {
      rollbackQuietly(rollback)
      throw error
    }
    do {
      try execute("RELEASE SAVEPOINT " + quoted)
    } catch {
      rollbackQuietly(rollback)
      throw error
    }
    return result
  }

  /// Rolls back after a failure whose error is the one to report. SQLite may already have
  /// rolled back on its own (after SQLITE_FULL, SQLITE_IOERR, ...), in which case the
  /// rollback's own "no transaction is active" error is expected and not the news.
  ///
  /// An ``interrupt()`` racing with the failure could land on the rollback itself and leave
  /// the transaction open for the next caller to write into and never commit: interrupts
  /// are held off while it runs (see ``withInterruptsHeld(_:)``).
  func rollbackQuietly(_ sql: String) {
    withInterruptsHeld {
      for _ in 0..<3 {
        guard isInTransaction else { return }
        do {
          try execute(sql)
          return
        } catch let error as SQLiteError where error.code == .interrupt {
          continue
        } catch {
          // The first error is rethrown by the caller; a failed rollback is not the news.
          return
        }
      }
    }
  }
}
