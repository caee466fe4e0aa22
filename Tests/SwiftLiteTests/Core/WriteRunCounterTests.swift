import CSQLite
import Foundation
import XCTest

@testable import SwiftLite

/// A connection counts each run of a statement that writes, from whichever entry point,
/// when the run starts; a BEGIN and statements that only read count nothing.
final class WriteRunCounterTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute("CREATE TABLE t(x INTEGER PRIMARY KEY, y)")
  }

  /// How many runs `body` added to the count.
  private func runs(_ body: () throws -> Void) rethrows -> UInt64 {
    let before = db.writeRuns
    try body()
    return db.writeRuns - before
  }

  func testEachEntryPointCountsTheRunsOfStatementsThatWrite() throws {
    XCTAssertEqual(try runs { try db.run("INSERT INTO t(y) VALUES (?)", [1]) }, 1)
    XCTAssertEqual(try runs { try db.execute("INSERT INTO t(y) VALUES (2); DELETE FROM t") }, 2)
    let insert = try db.prepare("INSERT INTO t(y) VALUES (?)")
    XCTAssertEqual(
      try runs {
        for value in 0..<3 {
          try insert.bind(values: value)
          try insert.run()
        }
      }, 3)
    XCTAssertEqual(try runs { try db.execute("CREATE TABLE u(a); DROP TABLE u") }, 2)
    XCTAssertEqual(try runs { try db.withUnsafeHandle { _ in } }, 1)
  }

  func testAWriteIsCountedWhenItStartsNotWhenItEnds() throws {
    try db.execute("INSERT INTO t(y) VALUES (1), (2)")
    let update = try db.prepare("UPDATE t SET y = y + 1 RETURNING x")
    XCTAssertEqual(try runs { XCTAssertTrue(try update.step()) }, 1)
    XCTAssertEqual(try runs { XCTAssertTrue(try update.step()) }, 0, "the same run")
    update.reset()
    // A write that fails counted as much: it may have changed rows before it failed.
    XCTAssertEqual(
      try runs { XCTAssertThrowsError(try db.run("INSERT INTO t(x) VALUES (1)")) }, 1)
  }

  func testReadsAndTransactionStatementsCountNothing() throws {
    XCTAssertEqual(
      try runs {
        _ = try db.query("SELECT * FROM t")
        try db.execute("BEGIN IMMEDIATE; COMMIT; begin exclusive transaction; END")
        try db.transaction(.immediate) { _ in }
        try db.transaction(.exclusive) { _ in }
        try db.savepoint { _ in }
      }, 0)
  }

  func testAnImmediateTransactionHoldsNoUncommittedWriteUntilAWriteRuns() throws {
    try db.transaction(.immediate) { db in
      XCTAssertEqual(sqlite3_txn_state(db.handle, "main"), SQLITE_TXN_WRITE)
      XCTAssertFalse(db.hasUncommittedWrites)
      _ = try db.query("SELECT * FROM t")
      XCTAssertFalse(db.hasUncommittedWrites)
      try db.run("UPDATE t SET y = 0 WHERE 0")
      XCTAssertTrue(db.hasUncommittedWrites, "a write ran, even one that changed no row")
    }
    XCTAssertFalse(db.hasUncommittedWrites)
    // A BEGIN the connection did not run itself, after writes in autocommit mode: nothing
    // says the transaction holds no write, so it is taken as holding some.
    try db.run("INSERT INTO t(y) VALUES (1)")
    try db.execute("BEGIN IMMEDIATE")
    XCTAssertTrue(db.hasUncommittedWrites)
    try db.execute("ROLLBACK")
  }
}
