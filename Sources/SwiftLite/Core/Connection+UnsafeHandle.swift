internal import CSQLite

// The escape hatches to the C API: the connection's own `sqlite3*` for what SwiftLite does
// not wrap, and loading a run-time extension.
extension Connection {
  /// Runs `body` with the connection's `sqlite3*` handle, for C calls SwiftLite does not
  /// wrap (`sqlite3_db_config`, `sqlite3_file_control`, a virtual table module...). Import
  /// the `CSQLite` product of this package (`import CSQLite`) to call them.
  ///
  /// ```swift
  /// import CSQLite
  ///
  /// let db = try Connection.inMemory()
  /// try db.execute("CREATE TABLE t(x)")
  /// try db.run("INSERT INTO t VALUES (1), (2)")
  /// let changes = try db.withUnsafeHandle { handle in
  ///   sqlite3_changes64(handle)  // 2
  /// }
  /// ```
  ///
  /// The rules, which SwiftLite cannot check:
  /// - Use the handle inside `body` only: do not keep it, and never close it
  ///   (`sqlite3_close`), finalize a statement SwiftLite prepared, or change the
  ///   authorizer, the update, commit, rollback or trace hooks: observation, the query cache
  ///   and ``trace`` rely on them.
  /// - `body` runs on the caller's thread, which is the connection's: inside a queue's or a
  ///   pool's closure, as for every other call (from elsewhere this throws `.misuse`).
  /// - Leave no transaction open that SwiftLite does not know of, and no statement
  ///   mid-step.
  /// - A schema change made through the handle is noticed: when `PRAGMA schema_version`
  ///   moved during `body`, SwiftLite forgets what it kept about model tables on this
  ///   connection, and its cached statements are prepared again by SQLite as usual. C code
  ///   left registered (a function, a virtual table) may change the schema later, from a
  ///   statement that only reads: from the first call on, a model table's check on this
  ///   connection reads `PRAGMA schema_version` too, and trusts nothing checked inside a
  ///   write transaction.
  /// - A change made through the handle (rows or schema) counts, for observation and the
  ///   query cache, as a change of every table: which tables C calls wrote is not known.
  /// - Returns: what `body` returns.
  /// - Throws: `.misuse` when the connection is closed or used outside its owner's closure;
  ///   what `body` throws.
  public func withUnsafeHandle<T>(_ body: (OpaquePointer) throws -> T) throws -> T {
    try ensureOpen(nil)
    // Whatever C calls do counts as a write: nothing tells which they made. Until `body`
    // returns, a C call may still write after anything it does through the connection.
    writeRunCounter.count &+= 1
    writeRunCounter.openUnsafeCalls += 1
    writeRunCounter.mayWriteUncounted = true
    defer { writeRunCounter.openUnsafeCalls -= 1 }
    let before = schemaVersion()
    let changesBefore = sqlite3_total_changes64(handle)
    defer {
      let schemaMoved = schemaVersion() != before
      if schemaMoved { removeAllAttachments() }
      // Statements prepared through the handle report no tables, and WITHOUT ROWID and
      // virtual tables have no update hook.
      if schemaMoved || sqlite3_total_changes64(handle) != changesBefore {
        tableActivity.noteEverythingChanged(inTransaction: sqlite3_get_autocommit(handle) == 0)
      }
    }
    return try body(handle)
  }

  /// Loads a run-time loadable extension (a shared library such as `spellfix.so`) into this
  /// connection. Extension loading is turned on for this call only
  /// (`SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION`, C API only: SQL's `load_extension()` stays
  /// off), then off again. See <https://sqlite.org/loadext.html>.
  ///
  /// ```swift
  /// import Foundation
  ///
  /// let db = try Connection.inMemory()
  /// let pcre = "/usr/lib/sqlite3/pcre.so"  // Debian's sqlite3-pcre package
  /// if FileManager.default.fileExists(atPath: pcre) { try db.loadExtension(path: pcre) }
  /// ```
  /// An extension lives as long as its connection: over a ``DatabasePool``, load it on
  /// every connection through ``OpenOptions/connectionSetup``.
  /// - Parameters:
  ///   - path: the shared library's path (SQLite also tries it with the platform's suffix).
  ///   - entryPoint: the C function to call, or `nil` for SQLite's default
  ///     (`sqlite3_extension_init`, or one derived from the file name).
  /// - Throws: `SQLiteError` (`.error`) naming the library and SQLite's reason when it
  ///   cannot be loaded or its entry point fails; `.misuse` when closed or for a path or
  ///   entry point holding NUL.
  public func loadExtension(path: String, entryPoint: String? = nil) throws {
    try ensureOpen(nil)
    if path.utf8.contains(0) || entryPoint?.utf8.contains(0) == true {
      throw SQLiteError.misuse("an extension path or entry point cannot contain NUL")
    }
    // An extension's initialization may run SQL of its own on the connection, and its
    // functions may later, from statements that only read.
    writeRunCounter.count &+= 1
    writeRunCounter.mayWriteUncounted = true
    try SQLiteError.check(
      swiftlite_db_config_flag(handle, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1), handle)
    defer { _ = swiftlite_db_config_flag(handle, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0) }
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_load_extension(handle, path, entryPoint, &message)
    guard code != SQLITE_OK else { return }
    let reason = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
    sqlite3_free(message)
    throw SQLiteError(
      extendedCode: SQLiteError.Code(rawValue: code),
      message: "cannot load the extension '\(path)': \(reason)")
  }

  /// `PRAGMA schema_version`, or `nil` when it cannot be read; housekeeping, kept out of
  /// ``trace``.
  private func schemaVersion() -> Int? {
    isTraceSuppressed = true
    defer { isTraceSuppressed = false }
    return try? scalar(Int.self, "PRAGMA schema_version")
  }
}
