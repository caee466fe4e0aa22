import Dispatch
import Foundation
import XCTest

@testable import SwiftLite

final class DatabaseQueueTests: SQLiteTestCase {
  private var queue: DatabaseQueue!

  override func setUpWithError() throws {
    try super.setUpWithError()
    queue = try DatabaseQueue(path: path("queue.sqlite"))
    try queue.write { db in
      try db.execute(
        """
        CREATE TABLE event(id INTEGER PRIMARY KEY, source TEXT NOT NULL, n INTEGER NOT NULL);
        CREATE TABLE counter(id INTEGER PRIMARY KEY CHECK (id = 1), value INTEGER NOT NULL);
        INSERT INTO counter VALUES (1, 0);
        """)
    }
  }

  override func tearDownWithError() throws {
    queue = nil
    try super.tearDownWithError()
  }

  private func eventCount() throws -> Int {
    try queue.read { try $0.scalar(Int.self, "SELECT count(*) FROM event") ?? -1 }
  }

  private func counter() throws -> Int {
    try queue.read { try $0.scalar(Int.self, "SELECT value FROM counter") ?? -1 }
  }

  /// Reads the counter and writes it back plus one: lost updates show if writes interleave.
  private static func increment(_ db: Connection, source: String, n: Int) throws {
    let value = try db.scalar(Int.self, "SELECT value FROM counter") ?? 0
    try db.run("UPDATE counter SET value = ?", [value + 1])
    try db.run("INSERT INTO event(source, n) VALUES (?, ?)", [source, n])
  }

  private static func blockingWrite(_ queue: DatabaseQueue, n: Int) throws -> Int {
    try queue.write { db in
      try increment(db, source: "sync", n: n)
      return n
    }
  }

  func testManyThreadsWriteWithoutLosingAny() throws {
    let queue = self.queue!
    let iterations = 200
    let errors = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: iterations) { index in
      do {
        try queue.write { db in try Self.increment(db, source: "thread", n: index) }
        // Reads interleave with the writes.
        _ = try queue.read { try $0.scalar(Int.self, "SELECT count(*) FROM event") }
      } catch {
        errors.mutate { $0.append("\(index): \(error)") }
      }
    }
    XCTAssertEqual(errors.value, [])
    XCTAssertEqual(try counter(), iterations)
    XCTAssertEqual(try eventCount(), iterations)
    let sum = try queue.read { try $0.scalar(Int.self, "SELECT sum(n) FROM event") }
    XCTAssertEqual(sum, iterations * (iterations - 1) / 2)
    let distinct = try queue.read { try $0.scalar(Int.self, "SELECT count(DISTINCT n) FROM event") }
    XCTAssertEqual(distinct, iterations)
  }

  func testManyTasksWriteWithoutLosingAny() async throws {
    let queue = self.queue!
    let tasks = 300
    let written = try await withThrowingTaskGroup(of: Int.self) { group in
      for index in 0..<tasks {
        group.addTask {
          if index.isMultiple(of: 3) {
            // The synchronous API from a task works too.
            return try Self.blockingWrite(queue, n: index)
          }
          return try await queue.write { db in
            try Self.increment(db, source: "task", n: index)
            return index
          }
        }
      }
      var sum = 0
      for try await index in group { sum += index }
      return sum
    }
    XCTAssertEqual(written, tasks * (tasks - 1) / 2)
    let (value, count, sum) = try await queue.read { db in
      (
        try db.scalar(Int.self, "SELECT value FROM counter") ?? -1,
        try db.scalar(Int.self, "SELECT count(*) FROM event") ?? -1,
        try db.scalar(Int.self, "SELECT sum(n) FROM event") ?? -1
      )
    }
    XCTAssertEqual(value, tasks)
    XCTAssertEqual(count, tasks)
    XCTAssertEqual(sum, written)
  }

  func testTwoQueuesOnOneFileDoNotLoseWrites() throws {
    let first = self.queue!
    let second = try DatabaseQueue(path: path("queue.sqlite"))
    let iterations = 60
    let errors = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: iterations) { index in
      let queue = index.isMultiple(of: 2) ? first : second
      do {
        try queue.write { db in try Self.increment(db, source: "two", n: index) }
      } catch {
        errors.mutate { $0.append("\(index): \(error)") }
      }
    }
    XCTAssertEqual(errors.value, [])
    XCTAssertEqual(try counter(), iterations)
    XCTAssertEqual(
      try second.read { try $0.scalar(Int.self, "SELECT value FROM counter") }, iterations)
  }

  func testReentrantCallsDoNotDeadlock() throws {
    let queue = self.queue!
    let finished = expectation(description: "nested calls returned")
    let outcome = Locked<Result<Int, any Error>?>(nil)
    DispatchQueue.global().async {
      let result = Result {
        try queue.write { db -> Int in
          try db.run("INSERT INTO event(source, n) VALUES ('outer', 1)")
          let seen = try queue.read { db in
            try queue.read { try $0.scalar(Int.self, "SELECT count(*) FROM event") ?? -1 }
          }
          try queue.write { db in try db.run("INSERT INTO event(source, n) VALUES ('inner', 2)") }
          return seen
        }
      }
      outcome.mutate { $0 = result }
      finished.fulfill()
    }
    // A deadlock fails here instead of hanging the suite.
    wait(for: [finished], timeout: 20)
    XCTAssertEqual(try outcome.value?.get(), 1)
    XCTAssertEqual(try eventCount(), 2)
  }

  func testWriteInsideReadThrowsReadOnly() throws {
    assertSQLiteError(
      try queue.read { _ in
        try self.queue.write { try $0.run("INSERT INTO event(source, n) VALUES ('no', 0)") }
      }
    ) { error in
      XCTAssertEqual(error.code, .readOnly)
      XCTAssertTrue(error.message.contains("inside read"), error.message)
    }
    // A write statement run directly in a read is refused by SQLite.
    assertSQLiteError(
      try queue.read { try $0.run("INSERT INTO event(source, n) VALUES ('no', 0)") }
    ) {
      XCTAssertEqual($0.code, .readOnly)
    }
    XCTAssertEqual(try eventCount(), 0)
    // The queue writes again afterwards.
    try queue.write { try $0.run("INSERT INTO event(source, n) VALUES ('yes', 1)") }
    XCTAssertEqual(try eventCount(), 1)
  }

  func testAThrowingWriteRollsBack() throws {
    XCTAssertThrowsError(
      try queue.write { db in
        try db.run("INSERT INTO event(source, n) VALUES ('lost', 1)")
        try db.run("UPDATE counter SET value = 99")
        throw TestError(id: 3)
      }
    ) { XCTAssertEqual($0 as? TestError, TestError(id: 3)) }
    XCTAssertEqual(try eventCount(), 0)
    XCTAssertEqual(try counter(), 0)
    // Checked from another connection on the file, too.
    let reader = try Connection(path: path("queue.sqlite"), options: .readOnly)
    XCTAssertEqual(try reader.scalar(Int.self, "SELECT count(*) FROM event"), 0)
  }

  func testANestedThrowingWriteRollsBackOnlyItself() throws {
    try queue.write { db in
      try db.run("INSERT INTO event(source, n) VALUES ('kept', 1)")
      XCTAssertThrowsError(
        try self.queue.write { db in
          try db.run("INSERT INTO event(source, n) VALUES ('dropped', 2)")
          throw TestError()
        })
      try db.run("INSERT INTO event(source, n) VALUES ('kept', 3)")
    }
    let sources = try queue.read { db in
      try db.query("SELECT source FROM event ORDER BY n").map { try $0.get(String.self, at: 0) }
    }
    XCTAssertEqual(sources, ["kept", "kept"])
  }

  func testAsyncReadAndWrite() async throws {
    let id = try await queue.write { db -> Int64 in
      try db.run("INSERT INTO event(source, n) VALUES (?, ?)", ["async", 5])
      return db.lastInsertRowID
    }
    let source = try await queue.read { db in
      try db.scalar(String.self, "SELECT source FROM event WHERE id = ?", [id])
    }
    XCTAssertEqual(source, "async")
    do {
      try await queue.write { db in
        try db.run("INSERT INTO event(source, n) VALUES ('lost', 6)")
        throw TestError(id: 6)
      }
      XCTFail("no error")
    } catch let error as TestError {
      XCTAssertEqual(error.id, 6)
    }
    do {
      try await queue.read { try $0.run("DELETE FROM event") }
      XCTFail("no error")
    } catch let error as SQLiteError {
      XCTAssertEqual(error.code, .readOnly)
    }
    let count = try await queue.read { try $0.scalar(Int.self, "SELECT count(*) FROM event") }
    XCTAssertEqual(count, 1)

    // The synchronous API inside an async closure runs inline on the same connection.
    let queue = self.queue!
    let nested = try await queue.write { _ in
      try queue.write { try $0.run("INSERT INTO event(source, n) VALUES ('nested', 7)") }
      return try queue.read { try $0.scalar(Int.self, "SELECT count(*) FROM event") ?? -1 }
    }
    XCTAssertEqual(nested, 2)
  }

  func testWriteWithoutTransactionAndInMemoryQueue() throws {
    let memory = try DatabaseQueue.inMemory()
    try memory.write { try $0.execute("CREATE TABLE t(x)") }
    try memory.writeWithoutTransaction { db in
      XCTAssertFalse(db.isInTransaction)
      try db.run("INSERT INTO t VALUES (1)")
    }
    XCTAssertEqual(try memory.read { try $0.scalar(Int.self, "SELECT count(*) FROM t") }, 1)
    try queue.writeWithoutTransaction { db in
      XCTAssertEqual(try db.setJournalMode(.wal), .wal)
    }
    try queue.write { db in XCTAssertTrue(db.isInTransaction) }
  }

  func testInterruptFromAnotherThread() throws {
    let queue = self.queue!
    let done = DispatchSemaphore(value: 0)
    let outcome = Locked<(any Error)?>(nil)
    DispatchQueue.global().async {
      do {
        try queue.read { db in
          _ = try db.scalar(
            Int.self,
            "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT max(x) FROM c")
        }
      } catch {
        outcome.mutate { $0 = error }
      }
      done.signal()
    }
    // The query may not have started yet; interrupt until it ends.
    var attempts = 0
    while done.wait(timeout: .now() + 0.05) == .timedOut {
      attempts += 1
      guard attempts < 400 else { return XCTFail("the query was never interrupted") }
      queue.interrupt()
    }
    let error = try XCTUnwrap(outcome.value as? SQLiteError)
    XCTAssertEqual(error.code, .interrupt)
    XCTAssertEqual(try counter(), 0)  // the queue still works
  }
}

/// A transaction left open by an earlier closure must not swallow later writes.
final class DatabaseQueueOpenTransactionTests: SQLiteTestCase {
  func testAWriteDoesNotJoinATransactionLeftOpenByAnEarlierClosure() throws {
    let queue = try DatabaseQueue(path: databasePath)
    try queue.write { try $0.execute("CREATE TABLE t(x)") }
    try queue.writeWithoutTransaction { try $0.execute("BEGIN") }  // never committed
    // Before: this became a savepoint inside the open transaction, reported success, and
    // was lost when that transaction rolled back.
    assertSQLiteError(try queue.write { try $0.run("INSERT INTO t VALUES (1)") }) { error in
      XCTAssertEqual(error.code, .misuse)
      XCTAssertTrue(error.message.contains("transaction"), error.message)
    }
    try queue.writeWithoutTransaction { try $0.execute("ROLLBACK") }
    try queue.write { try $0.run("INSERT INTO t VALUES (2)") }
    XCTAssertEqual(try db.scalar(String.self, "SELECT group_concat(x) FROM t"), "2")
  }

  func testAWriteNestedInOwnTransactionHandlingStillJoinsIt() throws {
    let queue = try DatabaseQueue(path: databasePath)
    try queue.write { try $0.execute("CREATE TABLE t(x)") }
    try queue.writeWithoutTransaction { db in
      try db.execute("BEGIN")
      try queue.write { try $0.run("INSERT INTO t VALUES (1)") }
      try db.execute("COMMIT")
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t"), 1)
  }
}

extension DatabaseQueueTests {
  /// A queue's read is one read transaction: another connection's commit does not show
  /// halfway through it.
  func testAReadSeesOneSnapshotWhileAnotherQueueCommits() throws {
    // In WAL mode a writer may commit while a read transaction is open (with a rollback
    // journal, the open read makes the commit wait, which is how it keeps its snapshot).
    let file = path("snapshot.sqlite")
    var options = OpenOptions()
    options.journalMode = .wal
    let a = try DatabaseQueue(path: file, options: options)
    let b = try DatabaseQueue(path: file, options: options)
    try b.write { try $0.execute("CREATE TABLE t(x)") }
    let counts = try a.read { db -> [Int] in
      let before = try db.scalar(Int.self, "SELECT count(*) FROM t") ?? -1
      try b.write { try $0.run("INSERT INTO t VALUES (1)") }
      let after = try db.scalar(Int.self, "SELECT count(*) FROM t") ?? -1
      return [before, after]
    }
    XCTAssertEqual(counts, [0, 0])
    XCTAssertEqual(try a.read { try $0.scalar(Int.self, "SELECT count(*) FROM t") }, 1)
  }
}
