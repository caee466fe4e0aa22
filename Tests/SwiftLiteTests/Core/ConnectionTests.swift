import CSQLite
import Dispatch
import Foundation
import XCTest

@testable import SwiftLite

final class ConnectionTests: SQLiteTestCase {
  // MARK: Opening

  func testOpenCreatesTheFileAndKeepsData() throws {
    XCTAssertTrue(FileManager.default.fileExists(atPath: databasePath))
    XCTAssertEqual(db.path, databasePath)
    try db.execute("CREATE TABLE t(x INTEGER)")
    try db.run("INSERT INTO t(x) VALUES (?)", [42])
    try db.close()

    let reopened = try Connection(path: databasePath)
    XCTAssertEqual(try reopened.scalar(Int.self, "SELECT x FROM t"), 42)
  }

  func testOpenWithoutCreateFlagRefusesAMissingFile() throws {
    var options = OpenOptions()
    options.flags = [.readWrite]
    assertSQLiteError(try Connection(path: path("missing.sqlite"), options: options)) {
      XCTAssertEqual($0.code, .cannotOpen)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("missing.sqlite")))
  }

  func testReadOnlyOpenReadsButRefusesWrites() throws {
    try db.execute("CREATE TABLE t(x INTEGER); INSERT INTO t VALUES (1)")
    let reader = try Connection(path: databasePath, options: .readOnly)
    XCTAssertEqual(try reader.scalar(Int.self, "SELECT count(*) FROM t"), 1)
    assertSQLiteError(try reader.run("INSERT INTO t VALUES (2)")) {
      XCTAssertEqual($0.code, .readOnly)
    }
    assertSQLiteError(try reader.execute("CREATE TABLE u(y)")) {
      XCTAssertEqual($0.code, .readOnly)
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t"), 1)
  }

  func testReadOnlyOpenOfAMissingFileFails() {
    assertSQLiteError(try Connection(path: path("nothing.sqlite"), options: .readOnly)) {
      XCTAssertEqual($0.code, .cannotOpen)
    }
  }

  func testOpensThroughTheVFSTheOptionsName() throws {
    var options = OpenOptions()
    XCTAssertNil(options.vfs, "nil: SQLite's default VFS")
    // "unix-none", one of the unix VFS's variants: no file locks.
    options.vfs = "unix-none"
    let other = try Connection(path: path("other.sqlite"), options: options)
    try other.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
    XCTAssertEqual(try other.scalar(Int.self, "SELECT count(*) FROM t"), 1)
    XCTAssertEqual(
      try other.withUnsafeHandle { handle -> String in
        var name: UnsafeMutablePointer<CChar>?
        sqlite3_file_control(handle, "main", SQLITE_FCNTL_VFSNAME, &name)
        defer { sqlite3_free(name) }
        return name.map { String(cString: $0) } ?? ""
      }, "unix-none")
    try other.close()
  }

  func testAnUnknownVFSFailsTheOpen() {
    var options = OpenOptions()
    options.vfs = "no-such-vfs"
    assertSQLiteError(try Connection(path: path("vfs.sqlite"), options: options)) {
      XCTAssertEqual($0.code, .error)
      XCTAssertTrue($0.message.contains("no such vfs: no-such-vfs"), $0.message)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("vfs.sqlite")))
  }

  func testInMemoryDatabasesArePrivate() throws {
    let first = try Connection.inMemory()
    let second = try Connection.inMemory()
    XCTAssertEqual(first.path, ":memory:")
    try first.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
    XCTAssertEqual(try first.scalar(Int.self, "SELECT count(*) FROM t"), 1)
    assertSQLiteError(try second.query("SELECT * FROM t")) {
      XCTAssertEqual($0.code, .error)
      XCTAssertTrue($0.message.contains("no such table"), $0.message)
    }
    XCTAssertEqual(try first.journalMode(), .memory)
    XCTAssertEqual(try first.setJournalMode(.wal), .memory)  // an in-memory database stays so
  }

  func testURIFilenameWithReadOnlyMode() throws {
    try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (7)")
    let uri = URL(fileURLWithPath: databasePath).absoluteString + "?mode=ro"
    XCTAssertTrue(uri.hasPrefix("file:"))
    var options = OpenOptions()
    options.flags.insert(.uri)
    let reader = try Connection(path: uri, options: options)
    XCTAssertEqual(reader.path, uri)
    XCTAssertEqual(try reader.scalar(Int.self, "SELECT x FROM t"), 7)
    assertSQLiteError(try reader.run("INSERT INTO t VALUES (8)")) {
      XCTAssertEqual($0.code, .readOnly)
    }
  }

  func testURIFilenameWithSharedMemoryMode() throws {
    var options = OpenOptions()
    options.flags.insert(.uri)
    let name = "file:swiftlite-\(UUID().uuidString)?mode=memory&cache=shared"
    let first = try Connection(path: name, options: options)
    let second = try Connection(path: name, options: options)
    try first.execute("CREATE TABLE t(x); INSERT INTO t VALUES (3)")
    XCTAssertEqual(try second.scalar(Int.self, "SELECT x FROM t"), 3)
    // The URI was interpreted, not used as a file name.
    XCTAssertFalse(FileManager.default.fileExists(atPath: name))
  }

  func testMissingDirectoryGivesCannotOpen() {
    let missing = path("no/such/dir/db.sqlite")
    assertSQLiteError(try Connection(path: missing)) { error in
      XCTAssertEqual(error.code, .cannotOpen)
      XCTAssertTrue(error.message.contains(missing), error.message)
      XCTAssertFalse(error.isCorrupt)
    }
  }

  func testAFileThatIsNotADatabaseGivesNotADatabase() throws {
    let bogus = path("notes.sqlite")
    let text = String(repeating: "This is a text file, not an SQLite database.\n", count: 200)
    try text.write(toFile: bogus, atomically: true, encoding: .utf8)
    assertSQLiteError(try Connection(path: bogus)) { error in
      XCTAssertEqual(error.code, .notADatabase)
      XCTAssertTrue(error.isCorrupt)
      XCTAssertTrue(error.message.contains(bogus), error.message)
    }
    // The file is left untouched.
    XCTAssertEqual(try String(contentsOfFile: bogus, encoding: .utf8), text)
  }

  // MARK: Closing

  func testCloseReportsUnfinalizedStatementsThenSucceeds() throws {
    try db.execute("CREATE TABLE t(x)")
    try db.run("INSERT INTO t VALUES (?)", [1])  // leaves a cached statement behind
    do {
      let statement = try db.prepare("SELECT x FROM t")
      assertSQLiteError(try db.close()) { error in
        XCTAssertEqual(error.code, .busy)
        XCTAssertTrue(error.message.contains("SELECT x FROM t"), error.message)
        XCTAssertTrue(error.message.contains("1 statement"), error.message)
      }
      // Still open: the statement and the connection keep working.
      XCTAssertTrue(try statement.step())
      statement.reset()
      XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t"), 1)
    }
    try db.close()
    try db.close()  // closing twice is harmless
  }

  func testMethodsAfterCloseThrow() throws {
    try db.execute("CREATE TABLE t(x)")
    try db.close()
    let checks: [(String, () throws -> Void)] = [
      ("execute", { try self.db.execute("SELECT 1") }),
      ("prepare", { _ = try self.db.prepare("SELECT 1") }),
      ("run", { try self.db.run("INSERT INTO t VALUES (1)") }),
      ("query", { _ = try self.db.query("SELECT 1") }),
      ("queryFirst", { _ = try self.db.queryFirst("SELECT 1") }),
      ("scalar", { _ = try self.db.scalar(Int.self, "SELECT 1") }),
      ("forEachRow", { try self.db.forEachRow("SELECT 1") { _ in } }),
      ("transaction", { try self.db.transaction { _ in } }),
      ("savepoint", { try self.db.savepoint { _ in } }),
      ("setBusyTimeout", { try self.db.setBusyTimeout(1) }),
      ("journalMode", { _ = try self.db.journalMode() }),
      ("foreignKeysEnabled", { _ = try self.db.foreignKeysEnabled() }),
    ]
    for (name, call) in checks {
      assertSQLiteError(try call()) { error in
        XCTAssertEqual(error.code, .misuse, name)
        XCTAssertTrue(error.message.contains("closed"), "\(name): \(error.message)")
      }
    }
    // State accessors do not touch the freed handle.
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(db.changes, 0)
    db.interrupt()
    db.trace = nil
  }

  func testDroppingAConnectionWithAStatementStillAliveIsSafe() throws {
    var connection: Connection? = try Connection(path: databasePath)
    let traced = Unchecked<[String]>([])
    connection!.trace = { traced.value.append($0) }
    let statement = try connection!.prepare("SELECT 1")
    connection = nil  // deinit closes with sqlite3_close_v2, deferred until the statement goes
    XCTAssertTrue(try statement.step())
    XCTAssertEqual(try statement.row.get(Int.self, at: 0), 1)
  }

  // MARK: Raw SQL

  func testExecuteRunsManyStatements() throws {
    try db.execute(
      """
      CREATE TABLE t(x INTEGER);
      INSERT INTO t VALUES (1);  -- a comment
      INSERT INTO t VALUES (2);
      /* another comment */
      SELECT * FROM t;
      """)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT sum(x) FROM t"), 3)
    XCTAssertEqual(executedSQL.first, "CREATE TABLE t(x INTEGER);")
    XCTAssertEqual(executedSQL.filter { $0.contains("INSERT INTO t") }.count, 2)
    try db.execute("")
    try db.execute("  ;  ")
  }

  func testExecuteStopsAtTheFirstFailureAndNamesIt() throws {
    assertSQLiteError(
      try db.execute(
        "CREATE TABLE t(x NOT NULL); INSERT INTO t VALUES (1); INSERT INTO t VALUES (NULL); "
          + "INSERT INTO t VALUES (3)")
    ) { error in
      XCTAssertEqual(error.constraintKind, .notNull)
      XCTAssertEqual(error.sql, "INSERT INTO t VALUES (NULL);")
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT sum(x) FROM t"), 1)
    assertSQLiteError(try db.execute("SELECT 1; SELEKT 2")) { error in
      XCTAssertEqual(error.code, .error)
      XCTAssertTrue(error.message.contains("syntax error"), error.message)
      XCTAssertEqual(error.sql, "SELEKT 2")
    }
  }

  func testLastInsertRowIDChangesAndTotalChanges() throws {
    try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, x INTEGER)")
    let before = db.totalChanges
    try db.run("INSERT INTO t(id, x) VALUES (?, ?)", [10, 1])
    XCTAssertEqual(db.lastInsertRowID, 10)
    XCTAssertEqual(db.changes, 1)
    try db.run("INSERT INTO t(x) VALUES (?)", [2])
    XCTAssertEqual(db.lastInsertRowID, 11)
    try db.run("INSERT INTO t(x) VALUES (?)", [3])
    XCTAssertEqual(try db.run("UPDATE t SET x = x + 1"), 3)
    XCTAssertEqual(db.changes, 3)
    XCTAssertEqual(try db.run("DELETE FROM t WHERE x > ?", [2]), 2)
    XCTAssertEqual(db.totalChanges - before, 3 + 3 + 2)
  }

  func testBusyTimeoutMakesAWriterWaitForTheLock() throws {
    try db.execute("CREATE TABLE t(x)")
    let other = Unchecked(try openSecondConnection())
    try other.value.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")

    // With no timeout, the lock is an immediate busy error.
    try db.setBusyTimeout(0)
    assertSQLiteError(try db.run("INSERT INTO t VALUES (2)")) { XCTAssertTrue($0.isBusy) }

    // With a timeout, the writer waits until the other connection commits.
    try db.setBusyTimeout(30)
    let committed = expectation(description: "other connection committed")
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
      do { try other.value.execute("COMMIT") } catch { XCTFail("\(error)") }
      committed.fulfill()
    }
    try db.run("INSERT INTO t VALUES (2)")
    wait(for: [committed], timeout: 30)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT sum(x) FROM t"), 3)

    // Huge and negative timeouts are accepted, not a crash.
    try db.setBusyTimeout(.infinity)
    try db.setBusyTimeout(1e12)
    try db.setBusyTimeout(-1)
  }

  func testOpeningWaitsForAnExclusiveLockWithinTheBusyTimeout() throws {
    try db.execute("CREATE TABLE t(x); BEGIN EXCLUSIVE; INSERT INTO t VALUES (1)")
    let holder = Unchecked(db!)
    let released = expectation(description: "lock released")
    DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) {
      do { try holder.value.execute("COMMIT") } catch { XCTFail("\(error)") }
      released.fulfill()
    }
    // Opening reads the schema, which needs a shared lock: it waits instead of failing.
    let other = try openSecondConnection(busyTimeout: 30)
    wait(for: [released], timeout: 30)
    XCTAssertEqual(try other.scalar(Int.self, "SELECT count(*) FROM t"), 1)
  }

  func testInterruptStopsTheRunningStatement() throws {
    var seen = 0
    assertSQLiteError(
      try db.forEachRow(
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"
      ) { _ in
        seen += 1
        if seen == 100 { db.interrupt() }
      }
    ) { error in
      XCTAssertEqual(error.code, .interrupt)
    }
    XCTAssertEqual(seen, 100)
    // The connection is usable afterwards, and so is the same SQL.
    XCTAssertEqual(try db.scalar(Int.self, "SELECT 1"), 1)
    var count = 0
    try db.forEachRow(
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c LIMIT 5"
    ) { _ in count += 1 }
    XCTAssertEqual(count, 5)
  }

  func testJournalModeWALOnAFile() throws {
    XCTAssertEqual(try db.journalMode(), .delete)
    XCTAssertEqual(try db.setJournalMode(.wal), .wal)
    XCTAssertEqual(try db.journalMode(), .wal)
    try db.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)")
    XCTAssertTrue(FileManager.default.fileExists(atPath: databasePath + "-wal"))

    // WAL is persistent: a new connection sees it, and reads beside an open write.
    let other = try openSecondConnection()
    XCTAssertEqual(try other.journalMode(), .wal)
    try db.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (2)")
    XCTAssertEqual(try other.scalar(Int.self, "SELECT count(*) FROM t"), 1)
    try db.execute("COMMIT")
    XCTAssertEqual(try other.scalar(Int.self, "SELECT count(*) FROM t"), 2)

    var options = OpenOptions()
    options.journalMode = .wal
    let fresh = try Connection(path: path("fresh.sqlite"), options: options)
    XCTAssertEqual(try fresh.journalMode(), .wal)
  }

  func testForeignKeysAreOnByDefault() throws {
    XCTAssertTrue(try db.foreignKeysEnabled())
    try db.execute(
      "CREATE TABLE parent(id INTEGER PRIMARY KEY); "
        + "CREATE TABLE child(id INTEGER PRIMARY KEY, parent INTEGER REFERENCES parent(id))")
    assertSQLiteError(try db.run("INSERT INTO child(parent) VALUES (?)", [99])) {
      XCTAssertEqual($0.constraintKind, .foreignKey)
    }
    try db.setForeignKeysEnabled(false)
    XCTAssertFalse(try db.foreignKeysEnabled())
    try db.run("INSERT INTO child(parent) VALUES (?)", [99])

    var options = OpenOptions()
    options.foreignKeys = false
    let lax = try Connection(path: databasePath, options: options)
    XCTAssertFalse(try lax.foreignKeysEnabled())
  }

  func testLibraryVersion() {
    let version = Connection.sqliteVersion
    let parts = version.split(separator: ".").compactMap { Int($0) }
    XCTAssertEqual(parts.count, 3, version)
    XCTAssertEqual(parts.first, 3)
    let number = Connection.sqliteVersionNumber
    XCTAssertEqual(number, parts[0] * 1_000_000 + parts[1] * 1000 + parts[2])
    XCTAssertGreaterThanOrEqual(number, 3_033_000)
  }

  func testTraceHookReceivesEachStatementWithoutBoundValues() throws {
    clearExecutedSQL()
    try db.execute("CREATE TABLE t(x TEXT)")
    try db.run("INSERT INTO t(x) VALUES (?)", ["secret value"])
    _ = try db.query("SELECT x FROM t WHERE x = :x", ["x": "secret value"])
    XCTAssertEqual(
      executedSQL,
      [
        "CREATE TABLE t(x TEXT)",
        "INSERT INTO t(x) VALUES (?)",
        "SELECT x FROM t WHERE x = :x",
      ])
    XCTAssertFalse(executedSQL.joined().contains("secret"))

    db.trace = nil
    try db.run("INSERT INTO t(x) VALUES (?)", ["untraced"])
    XCTAssertEqual(executedSQL.count, 3)
  }

  func testTraceShowsTriggersOnceEach() throws {
    try db.execute(
      """
      CREATE TABLE t(x);
      CREATE TABLE log(y);
      CREATE TRIGGER t_log AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.x); END;
      """)
    clearExecutedSQL()
    try db.run("INSERT INTO t VALUES (?)", [1])
    XCTAssertEqual(
      executedSQL.filter { $0 == "INSERT INTO t VALUES (?)" }.count, 1, "\(executedSQL)")
    XCTAssertTrue(executedSQL.contains("-- TRIGGER t_log"), "\(executedSQL)")
  }

  func testSQLWithANulCharacterIsRefusedNotTruncated() throws {
    assertSQLiteError(try db.execute("CREATE TABLE a(x);\0CREATE TABLE b(y)")) {
      XCTAssertEqual($0.code, .misuse)
    }
    assertSQLiteError(try db.prepare("SELECT 1;\0DROP TABLE a")) {
      XCTAssertEqual($0.code, .misuse)
    }
    XCTAssertNil(try db.queryFirst("SELECT name FROM sqlite_schema"))
    // A NUL inside a bound value is fine: values are bound, not spliced.
    XCTAssertEqual(try db.scalar(String.self, "SELECT ?", ["a\0b"]), "a\0b")
  }
}

final class DoubleQuotedStringTests: XCTestCase {
  func testADoubleQuotedWordIsAnIdentifierNotAString() throws {
    let db = try Connection.inMemory()
    try db.execute("CREATE TABLE t(name TEXT); INSERT INTO t VALUES ('ann')")
    XCTAssertEqual(try db.scalar(String.self, "SELECT \"name\" FROM t"), "ann")
    // A misspelled column in double quotes is an error, not the string 'nmae'.
    XCTAssertThrowsError(try db.query("SELECT * FROM t WHERE \"nmae\" = 'ann'")) { error in
      XCTAssertTrue((error as? SQLiteError)?.message.contains("no such column") == true, "\(error)")
    }
    // The legacy quirk can be asked for.
    var options = OpenOptions()
    options.doubleQuotedStringLiterals = true
    let legacy = try Connection.inMemory(options: options)
    XCTAssertEqual(try legacy.scalar(String.self, "SELECT \"not a column\""), "not a column")
  }
}

/// `run` returns the rows its own statement changed, not an earlier statement's count.
final class RunChangeCountTests: SQLiteTestCase {
  func testRunReturnsZeroForAStatementThatChangesNoRow() throws {
    try db.execute("CREATE TABLE t(x)")
    XCTAssertEqual(try db.run("INSERT INTO t VALUES (1), (2), (3)"), 3)
    // sqlite3_changes still holds the INSERT's 3 after statements that are not DML.
    XCTAssertEqual(try db.run("SELECT x FROM t"), 0)
    XCTAssertEqual(try db.run("CREATE TABLE u(y)"), 0)
    XCTAssertEqual(try db.run("PRAGMA user_version = 7"), 0)
    XCTAssertEqual(try db.run("UPDATE t SET x = 0 WHERE x > ?", [99]), 0)
    XCTAssertEqual(try db.run("DELETE FROM t WHERE x = ?", [2]), 1)
  }

  func testRunCountsOnlyTheStatementsOwnRowsWhenTriggersFire() throws {
    try db.execute(
      """
      CREATE TABLE t(x); CREATE TABLE log(x);
      CREATE TRIGGER t_log AFTER INSERT ON t BEGIN
        INSERT INTO log VALUES (new.x); INSERT INTO log VALUES (new.x);
      END;
      """)
    XCTAssertEqual(try db.run("INSERT INTO t VALUES (?)", [1]), 1)
  }
}

/// A path is handed to C as a string ending at its first NUL.
final class OpenPathNulTests: SQLiteTestCase {
  func testAPathHoldingANulIsRefusedNotCutShort() throws {
    let requested = path("a.sqlite") + "\0.backup"
    // Before: this opened (and created) a.sqlite, and reported the requested path.
    assertSQLiteError(try Connection(path: requested)) { error in
      XCTAssertEqual(error.code, .cannotOpen)
      XCTAssertTrue(error.message.contains("NUL"), error.message)
    }
    XCTAssertFalse(FileManager.default.fileExists(atPath: path("a.sqlite")))
  }
}

final class ReadOnlyConnectionTests: SQLiteTestCase {
  func testIsReadOnlySaysHowTheFileWasOpened() throws {
    XCTAssertFalse(db.isReadOnly)
    let reader = try Connection(path: databasePath, options: .readOnly)
    XCTAssertTrue(reader.isReadOnly)
    try reader.close()
    XCTAssertFalse(reader.isReadOnly)
  }
}
