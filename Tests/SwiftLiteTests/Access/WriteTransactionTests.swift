import Foundation
import XCTest

@testable import SwiftLite

/// The transaction of each write closure: a COMMIT that fails rolls back, a BEGIN that finds
/// the file busy fails alone, and the next write starts clean either way.
final class WriteTransactionTests: SQLiteTestCase {
  private func makeQueue(busyTimeout: Double = 5) throws -> DatabaseQueue {
    var options = OpenOptions()
    options.busyTimeout = busyTimeout
    let queue = try DatabaseQueue(path: databasePath, options: options)
    try queue.write { db in
      try db.execute(
        "CREATE TABLE parent(id INTEGER PRIMARY KEY);"
          + "CREATE TABLE child(id INTEGER PRIMARY KEY, parent INTEGER "
          + "REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)")
    }
    return queue
  }

  func testAFailedCommitRollsBackAndTheNextWriteCommits() throws {
    let queue = try makeQueue()
    try queue.writeWithoutTransaction { db in try db.execute("PRAGMA foreign_keys = ON") }
    // The deferred foreign key fails at COMMIT, not at the INSERT.
    assertSQLiteError(
      try queue.write { db in try db.run("INSERT INTO child VALUES (1, 42)") }
    ) { XCTAssertEqual($0.code, .constraint) }
    XCTAssertFalse(try queue.writeWithoutTransaction { $0.isInTransaction })
    try queue.write { db in
      try db.run("INSERT INTO parent VALUES (42)")
      try db.run("INSERT INTO child VALUES (1, 42)")
    }
    XCTAssertEqual(try queue.read { try $0.scalar(Int.self, "SELECT count(*) FROM child") }, 1)
    try queue.close()
  }

  func testABusyBeginFailsAndTheNextWriteStartsAfresh() throws {
    let queue = try makeQueue(busyTimeout: 0)
    try queue.write { db in try db.run("INSERT INTO parent VALUES (1)") }
    let other = try openSecondConnection()
    try other.execute("BEGIN IMMEDIATE")
    assertSQLiteError(try queue.write { db in try db.run("INSERT INTO parent VALUES (2)") }) {
      XCTAssertEqual($0.code, .busy)
    }
    try other.execute("COMMIT")
    try queue.write { db in try db.run("INSERT INTO parent VALUES (2)") }
    XCTAssertEqual(try queue.read { try $0.scalar(Int.self, "SELECT count(*) FROM parent") }, 2)
    try other.close()
    try queue.close()
  }

  func testAPoolWriteAfterASchemaChangeByAnotherConnectionCommits() throws {
    let pool = try DatabasePool(path: path("pool.sqlite"))
    try pool.write { db in try db.execute("CREATE TABLE a(x)") }
    let other = try Connection(path: path("pool.sqlite"))
    try other.execute("CREATE TABLE b(y); INSERT INTO b VALUES (1)")
    try other.close()
    try pool.write { db in try db.run("INSERT INTO b VALUES (2)") }
    XCTAssertEqual(try pool.read { try $0.scalar(Int.self, "SELECT sum(y) FROM b") }, 3)
    try pool.close()
  }
}
