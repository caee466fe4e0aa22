import Dispatch
import Foundation
import XCTest

@testable import SwiftLite

/// The queue under stress: interrupts, escaped connections, many per-target tables, error
/// messages, parameter names and BUSY explained.
final class QueueStressTests: SQLiteTestCase {
  private struct Note: Model, Equatable {
    var id: Int64?
    var text: String
    static let primaryKey = ["id"]
  }

  // MARK: Interrupts

  /// A thread calls interrupt() with no pause while writes run. Every failed write must end
  /// its transaction before the next closure: no row of a failed write stays, no
  /// transaction stays open, and no write reports a transaction left by
  /// writeWithoutTransaction (which is never called here).
  func testAnInterruptStormNeverLeavesAFailedWritesTransactionOpen() throws {
    let queue = try DatabaseQueue(path: path("storm.sqlite"))
    try queue.write { db in try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, n INTEGER)") }
    let stop = Locked(false)
    let storm = Thread {
      while !stop.value { queue.interrupt() }
    }
    storm.start()
    defer { stop.mutate { $0 = true } }

    var committed: [Int] = []
    var failures = 0
    var openAfterAClosure = 0
    var errors: [Int: String] = [:]
    for n in 0..<8_000 {
      do {
        try queue.write { db in
          // Retried through interrupts, so most writes get a row in before they fail: the
          // rollback then runs under the storm.
          var inserted = false
          for _ in 0..<50 where !inserted {
            do {
              try db.run("INSERT INTO item(id, n) VALUES (?, ?)", [n, n])
              inserted = true
            } catch SQLiteError.Code.interrupt {}
          }
          // A write whose INSERT never got past the storm must not commit without its row.
          if !inserted || n % 2 == 0 { throw TestError(id: n) }
          // Some work an interrupt can land on once the row exists.
          _ = try db.scalar(
            Int.self,
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 200) "
              + "SELECT sum(x) FROM c")
        }
        committed.append(n)
      } catch let error as SQLiteError {
        failures += 1
        errors[n] = String(describing: error)
        XCTAssertFalse(
          error.message.contains("writeWithoutTransaction"), "misleading error: \(error)")
        XCTAssertFalse(error.message.contains("left open"), "stuck transaction: \(error)")
      } catch is TestError {
        failures += 1
      }
      if try queue.writeWithoutTransaction({ $0.isInTransaction }) { openAfterAClosure += 1 }
    }
    stop.mutate { $0 = true }
    while storm.isExecuting { usleep(100) }

    print("interrupt storm: \(committed.count) writes committed, \(failures) failed")
    XCTAssertEqual(openAfterAClosure, 0, "a failed write left its transaction open")
    XCTAssertGreaterThan(failures, 0)
    let stored = try queue.read { db in
      try db.query("SELECT id FROM item ORDER BY id").map { try $0.get(Int.self, at: 0) }
    }
    let strays = Set(stored).symmetricDifference(committed).sorted()
    XCTAssertEqual(
      strays, [],
      "a failed write's row stayed, or a committed one is gone: "
        + strays.map { "\($0): \(errors[$0] ?? "no error")" }.joined(separator: "; "))
    // Another connection can write: nothing holds the write lock.
    var options = OpenOptions()
    options.busyTimeout = 0
    let other = try Connection(path: path("storm.sqlite"), options: options)
    try other.run("INSERT INTO item(id, n) VALUES (-1, -1)", [])
    try other.close()
    try queue.close()
  }

  /// A read's `PRAGMA query_only = 0` cannot be cut short by an interrupt: the queue never
  /// stays read-only.
  func testAnInterruptStormDuringReadsNeverLeavesTheQueueReadOnly() throws {
    let queue = try DatabaseQueue(path: path("storm-read.sqlite"))
    try queue.write { db in try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY)") }
    let stop = Locked(false)
    let storm = Thread {
      while !stop.value { queue.interrupt() }
    }
    storm.start()
    for _ in 0..<1_000 {
      _ = try? queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM item") }
    }
    stop.mutate { $0 = true }
    while storm.isExecuting { usleep(100) }
    try queue.write { db in try db.run("INSERT INTO item(id) VALUES (1)") }
    XCTAssertEqual(try queue.read { try $0.scalar(Int.self, "SELECT count(*) FROM item") }, 1)
  }

  /// An interrupted write makes SQLite roll the whole transaction back. A closure that
  /// catches that error and goes on would run its next statements outside the transaction,
  /// each committing alone: they are refused instead, and nothing of the closure stays.
  func testStatementsAfterSQLiteRolledTheTransactionBackAreRefused() throws {
    try db.execute("CREATE TABLE t(x)")
    try db.run("INSERT INTO t VALUES (0)")
    let insert = try db.prepare("INSERT INTO t VALUES (2)")
    var interrupted = false
    XCTAssertThrowsError(
      try db.transaction(.immediate) { db in
        try db.run("INSERT INTO t VALUES (1)")
        // A statement still running keeps SQLite from clearing the interrupt, so it lands
        // on the insert's first step.
        try? db.forEachRow("SELECT x FROM t") { _ in
          db.interrupt()
          do { try insert.run() } catch SQLiteError.Code.interrupt { interrupted = true }
        }
        XCTAssertTrue(interrupted)
        XCTAssertFalse(db.isInTransaction, "SQLite rolled the transaction back")
        self.assertSQLiteError(try db.run("INSERT INTO t VALUES (3)")) {
          XCTAssertEqual($0.extendedCode, .abortRollback)
        }
        self.assertSQLiteError(try insert.run()) {
          XCTAssertEqual($0.extendedCode, .abortRollback)
        }
      })
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t"), 1)
    try db.run("INSERT INTO t VALUES (4)")  // outside a transaction closure, as before
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t"), 2)
  }

  // MARK: Escaped connections

  func testAConnectionUsedOutsideItsClosureThrowsMisuse() throws {
    let queue = try DatabaseQueue(path: path("escape.sqlite"))
    try queue.write { db in try db.execute("CREATE TABLE t(x)") }
    let escaped = try queue.read { $0 }
    let statement = try queue.read { db in try db.prepare("SELECT count(*) FROM t") }
    for attempt in [
      { _ = try escaped.query("SELECT 1") },
      { try escaped.execute("INSERT INTO t VALUES (1)") },
      { _ = try escaped.prepare("SELECT 1") },
      { _ = try statement.step() },
      { try escaped.close() },
    ] {
      assertSQLiteError(try attempt()) { error in
        XCTAssertEqual(error.code, .misuse)
        XCTAssertTrue(error.message.contains("outside its closures"), error.message)
      }
    }
    // Beside the queue's own work it still throws rather than running.
    let errors = Locked(0)
    let shared = Unchecked(escaped)  // the very misuse under test
    DispatchQueue.concurrentPerform(iterations: 2) { index in
      for n in 0..<200 {
        if index == 0 {
          _ = try? queue.write { db in try db.run("INSERT INTO t VALUES (?)", [n]) }
        } else if (try? shared.value.run("INSERT INTO t VALUES (?)", [-n])) == nil {
          errors.mutate { $0 += 1 }
        }
      }
    }
    XCTAssertEqual(errors.value, 200)
    XCTAssertEqual(try queue.read { try $0.scalar(Int.self, "SELECT count(*) FROM t") }, 200)
    // Inside a closure, the same connection and statement work.
    XCTAssertEqual(try queue.read { _ in try statement.step() }, true)
    try queue.read { _ in statement.reset() }
  }

  // MARK: Model tables

  /// The per-connection cache of checked model tables stays bounded however many
  /// per-target tables a connection uses, and an evicted one is checked again.
  func testManyPerTargetTablesKeepTheCacheBounded() throws {
    for target in 0..<(Connection.attachmentCapacity * 3) {
      try db.save(Note(id: nil, text: "t\(target)"), target: "chat\(target)")
      XCTAssertLessThanOrEqual(
        db.attachments(of: ModelTable.self).count, Connection.attachmentCapacity)
    }
    XCTAssertEqual(try db.findAll(Note.self, target: "chat0").map(\.text), ["t0"])
    try db.save(Note(id: nil, text: "again"), target: "chat0")
    XCTAssertEqual(try db.count(Note.self, target: "chat0"), 2)
  }

  /// Memory stays flat: past the cache's bound, each new per-target table used through
  /// models costs about what it costs through raw SQL (SQLite's own schema), not the
  /// 10 KB a checked table kept before. The connections have no trace hook (the test
  /// base class's hook logs every statement, which would grow by itself).
  func testManyPerTargetTablesKeepMemoryFlat() throws {
    let warmUp = Connection.attachmentCapacity + 50
    let count = 1_500
    let raw = try Connection(path: path("raw.sqlite"))
    func rawTable(_ target: Int) throws {
      try raw.execute("CREATE TABLE \"Note_chat\(target)\"(id INTEGER PRIMARY KEY, text TEXT)")
      try raw.run("INSERT INTO \(identifier: "Note_chat\(target)")(text) VALUES ('x')")
      _ = try raw.query("SELECT id, text FROM \(identifier: "Note_chat\(target)")")
    }
    for target in 0..<warmUp { try rawTable(target) }
    let rawBefore = residentMemoryBytes() ?? 0
    for target in warmUp..<(warmUp + count) { try rawTable(target) }
    let rawGrowth = (residentMemoryBytes() ?? 0) - rawBefore
    try raw.close()

    let models = try Connection(path: path("models.sqlite"))
    func modelTable(_ target: Int) throws {
      try models.save(Note(id: nil, text: "x"), target: "chat\(target)")
      _ = try models.findAll(Note.self, target: "chat\(target)")
    }
    for target in 0..<warmUp { try modelTable(target) }
    let modelBefore = residentMemoryBytes() ?? 0
    for target in warmUp..<(warmUp + count) { try modelTable(target) }
    let modelGrowth = (residentMemoryBytes() ?? 0) - modelBefore
    XCTAssertLessThanOrEqual(
      models.attachments(of: ModelTable.self).count, Connection.attachmentCapacity)
    try models.close()
    // Without a bound, the cached tables alone would add about 15 MB.
    print("per-target tables: models +\(modelGrowth >> 10) KB, raw SQL +\(rawGrowth >> 10) KB")
    XCTAssertLessThan(
      modelGrowth - rawGrowth, 4 << 20,
      "models grew RSS by \(modelGrowth >> 10) KB, raw SQL by \(rawGrowth >> 10) KB")
  }

  // MARK: Errors

  func testEveryErrorTypeHasAUsefulLocalizedDescription() throws {
    let errors: [any Error] = [
      SQLiteError(extendedCode: .busy, message: "database is locked"),
      ModelError.tableNotFound(table: "note"),
      MigrationError.readOnlyConnection(table: "note", strategy: "rebuild"),
      MigratorError.insideTransaction,
      DatabaseDirectoryError.userIDTooLong(bytes: 300, limit: 247),
    ]
    for error in errors {
      XCTAssertEqual(error.localizedDescription, String(describing: error))
      XCTAssertFalse(error.localizedDescription.contains("operation could not be completed"))
    }
    assertSQLiteError(try db.execute("SELECT * FROM missing")) { error in
      XCTAssertTrue((error as any Error).localizedDescription.contains("no such table: missing"))
    }
  }

  func testPagingParametersDoNotCollideWithTheCallersNames() throws {
    try db.save([
      Note(id: nil, text: "Ann"), Note(id: nil, text: "Bob"), Note(id: nil, text: "Ann"),
    ])
    let found = try db.findAll(
      Note.self, where: "text = :swiftlite_limit", ["swiftlite_limit": "Ann"], orderBy: "id",
      limit: 1)
    XCTAssertEqual(found.map(\.text), ["Ann"])
    let page = try db.findAll(
      Note.self, where: "text = :swiftlite_offset OR text = :swiftlite_limit_1",
      ["swiftlite_offset": "Ann", "swiftlite_limit_1": "Bob"], orderBy: "id", limit: 2,
      offset: 1)
    XCTAssertEqual(page.map(\.id), [2, 3])
  }

  // MARK: BUSY explained

  /// A deferred transaction that read, then writes while another connection holds the
  /// write lock, gets BUSY at once: the message says why and to use `.immediate`.
  func testABusyThatDoesNotWaitSaysToUseImmediate() throws {
    try db.setJournalMode(.wal)
    try db.execute("CREATE TABLE t(x)")
    let other = try openSecondConnection(busyTimeout: 5)
    try other.execute("BEGIN IMMEDIATE; INSERT INTO t VALUES (1)")
    try db.transaction(.deferred) { db in
      _ = try db.scalar(Int.self, "SELECT count(*) FROM t")
      assertSQLiteError(try db.run("INSERT INTO t VALUES (2)")) { error in
        XCTAssertEqual(error.code, .busy)
        XCTAssertTrue(error.message.contains(".immediate"), error.message)
        XCTAssertTrue(error.message.contains("without waiting for the busy timeout"))
      }
    }
    try other.execute("COMMIT")
    // A stale snapshot: the other connection committed after this one read.
    try db.transaction(.deferred) { db in
      _ = try db.scalar(Int.self, "SELECT count(*) FROM t")
      try other.run("INSERT INTO t VALUES (3)")
      assertSQLiteError(try db.run("INSERT INTO t VALUES (4)")) { error in
        XCTAssertEqual(error.extendedCode.rawValue, 517)  // SQLITE_BUSY_SNAPSHOT
        XCTAssertTrue(error.message.contains("snapshot"), error.message)
        XCTAssertTrue(error.message.contains(".immediate"), error.message)
      }
    }
    // An ordinary BUSY (nothing read yet) is not explained that way.
    try other.execute("BEGIN IMMEDIATE")
    try db.setBusyTimeout(0)
    assertSQLiteError(try db.execute("BEGIN IMMEDIATE")) { error in
      XCTAssertEqual(error.code, .busy)
      XCTAssertFalse(error.message.contains(".immediate"))
    }
    try other.execute("ROLLBACK")
    try other.close()
  }

  // MARK: Close

  func testACloseWaitsForQueuedWorkThenRefusesMore() throws {
    let queue = try DatabaseQueue(path: path("close.sqlite"))
    try queue.write { db in try db.execute("CREATE TABLE t(x)") }
    let group = DispatchGroup()
    for n in 0..<50 {
      DispatchQueue.global().async(group: group) {
        _ = try? queue.write { db in try db.run("INSERT INTO t VALUES (?)", [n]) }
      }
    }
    group.wait()
    try queue.close()
    assertSQLiteError(try queue.read { _ in 1 }) { error in
      XCTAssertEqual(error.code, .misuse)
      XCTAssertTrue(error.message.contains("closed"), error.message)
    }
    try queue.close()  // again: nothing to do
    let reopened = try Connection(path: path("close.sqlite"))
    XCTAssertEqual(try reopened.scalar(Int.self, "SELECT count(*) FROM t"), 50)
    try reopened.close()
  }

  func testACloseFromInsideAClosureIsRefused() throws {
    let queue = try DatabaseQueue(path: path("close-inside.sqlite"))
    try queue.read { _ in
      assertSQLiteError(try queue.close()) { error in XCTAssertEqual(error.code, .misuse) }
    }
    XCTAssertEqual(try queue.read { try $0.scalar(Int.self, "SELECT 1") }, 1)
  }
}

extension QueueStressTests {
  /// A statement that escaped its closure and is released on another thread while the
  /// queue works is finalized by the queue, not beside it.
  func testEscapedStatementsReleasedOnAnotherThreadAreFinalizedSafely() throws {
    let queue = try DatabaseQueue(path: path("escape.sqlite"))
    try queue.write { try $0.execute("CREATE TABLE t(x); INSERT INTO t VALUES (1)") }
    let done = Locked(false)
    let worker = Thread {
      var n = 0
      while !done.value {
        _ = try? queue.read { db in
          let statement = try db.prepare("SELECT x + \(n % 50) FROM t")
          return try statement.step()
        }
        n += 1
      }
    }
    worker.start()
    for n in 0..<5_000 {
      let escaped = try queue.read { db in try db.prepare("SELECT \(n % 97) FROM t") }
      _ = escaped  // released here, outside the queue's closures
    }
    done.mutate { $0 = true }
    XCTAssertEqual(try queue.read { try $0.scalar(Int.self, "SELECT count(*) FROM t") }, 1)
  }
}
