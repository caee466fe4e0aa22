import Foundation
import XCTest

@testable import SwiftLite

/// A queue's kept BEGIN IMMEDIATE and COMMIT, and a read's cached
/// `PRAGMA query_only` (Core/Connection+Transactions.swift, Access/SerializedDatabase.swift):
/// whatever cuts a read or a write short, the next write must work and see only
/// committed rows.
final class KeptTransactionStatementsTests: TemporaryDirectoryTestCase {
  private func queue() throws -> DatabaseQueue {
    let queue = try DatabaseQueue(path: path())
    try queue.write { db in try db.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)") }
    return queue
  }

  /// Interrupts the queue the first time a statement starting with `prefix` starts, from
  /// inside SQLite's trace of it: deterministic, it lands on that very statement.
  private func interruptOnce(_ queue: DatabaseQueue, at prefix: String) throws {
    let fired = Unchecked(false)
    try queue.writeWithoutTransaction { db in
      db.trace = { sql in
        if !fired.value, sql.hasPrefix(prefix) {
          fired.value = true
          queue.interrupt()
        }
      }
    }
  }

  private func stopTracing(_ queue: DatabaseQueue) throws {
    try queue.writeWithoutTransaction { db in db.trace = nil }
  }

  /// An interrupt landing on the read's restore of `query_only` leaves the
  /// connection writable.
  func testAnInterruptOnTheQueryOnlyRestoreLeavesWritesWorking() throws {
    let queue = try queue()
    try interruptOnce(queue, at: "PRAGMA query_only = 0")
    _ = try? queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") }
    try stopTracing(queue)
    try queue.write { db in try db.execute("INSERT INTO t(v) VALUES ('after')") }
    XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") }, 1)
  }

  /// An interrupt landing on the read's `query_only = 1` fails that read
  /// only.
  func testAnInterruptOnTheQueryOnlySetLeavesWritesWorking() throws {
    let queue = try queue()
    try interruptOnce(queue, at: "PRAGMA query_only = 1")
    _ = try? queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") }
    try stopTracing(queue)
    try queue.write { db in try db.execute("INSERT INTO t(v) VALUES ('after')") }
    XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") }, 1)
  }

  /// An interrupt landing on a write's kept COMMIT: the write either committed (and says
  /// so) or threw and left nothing; the next write works either way.
  func testAnInterruptOnTheKeptCommitLeavesAnHonestAnswer() throws {
    let queue = try queue()
    try interruptOnce(queue, at: "COMMIT")
    let committed: Bool
    do {
      try queue.write { db in try db.execute("INSERT INTO t(v) VALUES ('cut')") }
      committed = true
    } catch {
      committed = false
    }
    try stopTracing(queue)
    XCTAssertEqual(
      try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") },
      committed ? 1 : 0)
    try queue.write { db in try db.execute("INSERT INTO t(v) VALUES ('after')") }
    XCTAssertFalse(try queue.writeWithoutTransaction { db in db.isInTransaction })
    XCTAssertEqual(
      try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") },
      committed ? 2 : 1)
  }

  /// An interrupt landing on a write's kept BEGIN IMMEDIATE: that write throws, the next
  /// one works.
  func testAnInterruptOnTheKeptBeginLeavesTheNextWriteWorking() throws {
    let queue = try queue()
    try interruptOnce(queue, at: "BEGIN IMMEDIATE")
    XCTAssertThrowsError(
      try queue.write { db in try db.execute("INSERT INTO t(v) VALUES ('cut')") })
    try stopTracing(queue)
    try queue.write { db in try db.execute("INSERT INTO t(v) VALUES ('after')") }
    XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") }, 1)
  }

  /// The user's own BEGIN inside `write {}` is refused and the write rolled
  /// back; the next write works.
  func testAUsersOwnBeginInsideWriteIsRefusedAndTheNextWriteWorks() throws {
    let queue = try queue()
    XCTAssertThrowsError(
      try queue.write { db in
        try db.execute("INSERT INTO t(v) VALUES ('cut')")
        try db.execute("BEGIN")
      })
    try queue.write { db in try db.execute("INSERT INTO t(v) VALUES ('after')") }
    XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") }, 1)
  }

  /// A deferred foreign key violation refuses the kept COMMIT: the write throws, nothing of
  /// it stays, and the next write (whose COMMIT is prepared again) works.
  func testADeferredForeignKeyViolationAtTheKeptCommitRollsBack() throws {
    let queue = try queue()
    try queue.writeWithoutTransaction { db in
      try db.execute("PRAGMA foreign_keys = ON")
      try db.execute(
        "CREATE TABLE child(id INTEGER PRIMARY KEY, parent INTEGER"
          + " REFERENCES t(id) DEFERRABLE INITIALLY DEFERRED)")
    }
    XCTAssertThrowsError(
      try queue.write { db in try db.execute("INSERT INTO child(parent) VALUES (42)") })
    try queue.write { db in
      try db.execute("INSERT INTO t(id, v) VALUES (42, 'parent')")
      try db.execute("INSERT INTO child(parent) VALUES (42)")
    }
    XCTAssertEqual(
      try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM child") }, 1)
  }

  /// A read nested in a write (query_only on and off inside the write's
  /// transaction, through the statement cache) and a table made in the write leave the
  /// write committing everything, and the next write works.
  func testANestedReadAndASchemaChangeInsideAWriteCommitEverything() throws {
    let queue = try queue()
    try queue.write { db in
      try db.execute("INSERT INTO t(v) VALUES ('before')")
      XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") }, 1)
      XCTAssertThrowsError(
        try queue.read { db in try db.execute("INSERT INTO t(v) VALUES ('no')") })
      try db.execute("CREATE TABLE made(id INTEGER PRIMARY KEY)")
      try db.execute("INSERT INTO t(v) VALUES ('after')")
    }
    try queue.write { db in try db.execute("INSERT INTO made DEFAULT VALUES") }
    XCTAssertEqual(try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") }, 2)
    XCTAssertEqual(
      try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM made") }, 1)
  }

  /// Closing the queue's connection from inside a write: whatever the close answers, the
  /// write's answer is honest (a write that returns committed its row, one that throws left
  /// none), and the queue neither crashes nor hangs afterwards.
  func testClosingTheConnectionInsideAWriteLeavesAnHonestAnswer() throws {
    let queue = try queue()
    var closeError: Error?
    let committed: Bool
    do {
      try queue.write { db in
        try db.execute("INSERT INTO t(v) VALUES ('inside')")
        do { try db.close() } catch { closeError = error }
      }
      committed = true
    } catch {
      committed = false
    }
    if let closeError {
      // The close was refused: the queue goes on as before.
      XCTAssertTrue(committed, "refused close, yet the write failed: \(closeError)")
      XCTAssertEqual(
        try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM t") }, 1)
      try queue.write { db in try db.execute("INSERT INTO t(v) VALUES ('after')") }
    } else {
      XCTAssertFalse(committed, "the connection closed mid-write, yet the write reported success")
      let reopened = try Connection(path: path())
      XCTAssertEqual(try reopened.scalar(Int.self, "SELECT count(*) FROM t"), 0)
      try reopened.close()
    }
  }
}
