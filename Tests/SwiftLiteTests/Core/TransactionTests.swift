import Foundation
import XCTest

@testable import SwiftLite

final class TransactionTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute("CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE)")
    try db.run("INSERT INTO item(name) VALUES (?)", ["before"])
  }

  /// The names stored in the file, read through a second connection.
  private func namesInTheFile() throws -> [String] {
    let reader = try openSecondConnection()
    return try reader.query("SELECT name FROM item ORDER BY id").map {
      try $0.get(String.self, at: 0)
    }
  }

  func testCommitWhenTheBodyReturns() throws {
    clearExecutedSQL()
    let count = try db.transaction { db in
      XCTAssertTrue(db.isInTransaction)
      try db.run("INSERT INTO item(name) VALUES (?)", ["a"])
      try db.run("INSERT INTO item(name) VALUES (?)", ["b"])
      return try db.scalar(Int.self, "SELECT count(*) FROM item") ?? 0
    }
    XCTAssertEqual(count, 3)
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try namesInTheFile(), ["before", "a", "b"])
    XCTAssertEqual(executedSQL.first, "BEGIN DEFERRED TRANSACTION")
    XCTAssertEqual(executedSQL.last, "COMMIT TRANSACTION")
  }

  func testRollbackWhenTheBodyThrowsLeavesTheFileAsItWas() throws {
    let fileBefore = try namesInTheFile()
    XCTAssertThrowsError(
      try db.transaction { db in
        try db.run("INSERT INTO item(name) VALUES (?)", ["a"])
        try db.run("UPDATE item SET name = 'changed' WHERE name = 'before'")
        throw TestError(id: 7)
      }
    ) { XCTAssertEqual($0 as? TestError, TestError(id: 7)) }
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try namesInTheFile(), fileBefore)
    XCTAssertEqual(executedSQL.last, "ROLLBACK TRANSACTION")

    // An SQLite error inside the body is rethrown as it was, after the rollback.
    assertSQLiteError(
      try db.transaction { db in
        try db.run("INSERT INTO item(name) VALUES (?)", ["c"])
        try db.run("INSERT INTO item(name) VALUES (?)", ["before"])
      }
    ) { XCTAssertEqual($0.constraintKind, .unique) }
    XCTAssertEqual(try namesInTheFile(), fileBefore)
  }

  func testAnErrorTheBodyCatchesDoesNotRollBack() throws {
    try db.transaction { db in
      try db.run("INSERT INTO item(name) VALUES (?)", ["a"])
      XCTAssertThrowsError(try db.run("INSERT INTO item(name) VALUES (?)", ["a"]))
      try db.run("INSERT INTO item(name) VALUES (?)", ["b"])
    }
    XCTAssertEqual(try namesInTheFile(), ["before", "a", "b"])
  }

  func testTransactionKinds() throws {
    let other = try openSecondConnection(busyTimeout: 0)

    // Deferred takes no lock until the first statement: another connection still writes.
    try db.transaction(.deferred) { _ in
      try other.run("INSERT INTO item(name) VALUES ('other deferred')")
    }
    // Immediate takes the write lock at BEGIN: another writer is refused, a reader is not.
    try db.transaction(.immediate) { _ in
      assertSQLiteError(try other.run("INSERT INTO item(name) VALUES ('x')")) {
        XCTAssertTrue($0.isBusy)
      }
      XCTAssertEqual(try other.scalar(Int.self, "SELECT count(*) FROM item"), 2)
    }
    // Exclusive (rollback journal) shuts readers out too.
    try db.transaction(.exclusive) { db in
      try db.run("INSERT INTO item(name) VALUES ('exclusive')")
      assertSQLiteError(try other.scalar(Int.self, "SELECT count(*) FROM item")) {
        XCTAssertTrue($0.isBusy)
      }
    }
    XCTAssertEqual(try namesInTheFile(), ["before", "other deferred", "exclusive"])
    XCTAssertTrue(executedSQL.contains("BEGIN IMMEDIATE TRANSACTION"))
    XCTAssertTrue(executedSQL.contains("BEGIN EXCLUSIVE TRANSACTION"))
  }

  func testBeginFailureRunsNothing() throws {
    let other = try openSecondConnection(busyTimeout: 0)
    try db.execute("BEGIN IMMEDIATE")
    var ran = false
    assertSQLiteError(try other.transaction(.immediate) { _ in ran = true }) {
      XCTAssertEqual($0.code, .busy)
    }
    XCTAssertFalse(ran)
    try db.execute("ROLLBACK")
  }

  func testTransactionInsideATransactionIsRefusedAndTheOuterOneSurvives() throws {
    try db.transaction { db in
      try db.run("INSERT INTO item(name) VALUES ('outer')")
      assertSQLiteError(try db.transaction { _ in XCTFail("must not run") }) { error in
        XCTAssertEqual(error.code, .error)
        XCTAssertTrue(error.message.contains("within a transaction"), error.message)
      }
      XCTAssertTrue(db.isInTransaction)
    }
    XCTAssertEqual(try namesInTheFile(), ["before", "outer"])
  }

  func testNestedSavepointsRollBackPartially() throws {
    try db.transaction { db in
      try db.run("INSERT INTO item(name) VALUES ('1')")
      XCTAssertThrowsError(
        try db.savepoint { db in
          try db.run("INSERT INTO item(name) VALUES ('2')")
          try db.savepoint { db in try db.run("INSERT INTO item(name) VALUES ('3')") }
          throw TestError()
        })
      try db.savepoint("kept") { db in
        try db.run("INSERT INTO item(name) VALUES ('4')")
        XCTAssertThrowsError(
          try db.savepoint("inner \"quoted\" name") { db in
            try db.run("INSERT INTO item(name) VALUES ('5')")
            throw TestError()
          })
        try db.run("INSERT INTO item(name) VALUES ('6')")
      }
      XCTAssertTrue(db.isInTransaction)
    }
    XCTAssertEqual(try namesInTheFile(), ["before", "1", "4", "6"])
  }

  func testSavepointOutsideATransaction() throws {
    XCTAssertFalse(db.isInTransaction)
    let value = try db.savepoint { db in
      XCTAssertTrue(db.isInTransaction)
      try db.run("INSERT INTO item(name) VALUES ('saved')")
      return 5
    }
    XCTAssertEqual(value, 5)
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try namesInTheFile(), ["before", "saved"])

    XCTAssertThrowsError(
      try db.savepoint { db in
        try db.run("INSERT INTO item(name) VALUES ('dropped')")
        throw TestError(id: 2)
      }
    ) { XCTAssertEqual($0 as? TestError, TestError(id: 2)) }
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try namesInTheFile(), ["before", "saved"])
  }

  func testFailingCommitRollsBackAndThrows() throws {
    try db.execute(
      """
      CREATE TABLE parent(id INTEGER PRIMARY KEY);
      CREATE TABLE child(
        id INTEGER PRIMARY KEY,
        parent INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED);
      """)
    var bodyFinished = false
    assertSQLiteError(
      try db.transaction { db in
        try db.run("INSERT INTO item(name) VALUES ('lost')")
        try db.run("INSERT INTO child(parent) VALUES (?)", [42])  // checked at COMMIT
        bodyFinished = true
      }
    ) { error in
      XCTAssertEqual(error.constraintKind, .foreignKey)
      XCTAssertEqual(error.sql, "COMMIT TRANSACTION")
    }
    XCTAssertTrue(bodyFinished)
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM child"), 0)
    XCTAssertEqual(try namesInTheFile(), ["before"])

    // The outermost savepoint commits on RELEASE, and fails the same way.
    assertSQLiteError(
      try db.savepoint { db in
        try db.run("INSERT INTO child(parent) VALUES (?)", [42])
      }
    ) { XCTAssertEqual($0.constraintKind, .foreignKey) }
    XCTAssertFalse(db.isInTransaction)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM child"), 0)

    // Fixed within the transaction, the same work commits.
    try db.transaction { db in
      try db.run("INSERT INTO child(parent) VALUES (?)", [42])
      try db.run("INSERT INTO parent(id) VALUES (?)", [42])
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM child"), 1)
  }
}

/// An `interrupt()` from another thread can land on the ROLLBACK that follows a failure.
final class TransactionInterruptTests: SQLiteTestCase {
  /// Interrupts the first statement whose SQL starts with `prefix`, once, as a racing
  /// `interrupt()` would.
  private func interruptOnce(startingWith prefix: String) {
    let connection = db!
    let pending = Locked(true)
    db.trace = { sql in
      guard sql.hasPrefix(prefix), pending.value else { return }
      pending.mutate { $0 = false }
      connection.interrupt()
    }
  }

  func testInterruptedRollbackStillEndsTheTransaction() throws {
    try db.execute("CREATE TABLE t(a)")
    interruptOnce(startingWith: "ROLLBACK")
    XCTAssertThrowsError(
      try db.transaction { db in
        try db.run("INSERT INTO t VALUES (1)")
        throw TestError()
      }
    ) { XCTAssertEqual($0 as? TestError, TestError()) }
    XCTAssertFalse(db.isInTransaction, "the transaction was left open")
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t"), 0)
  }

  func testInterruptedSavepointRollbackStillEndsTheSavepoint() throws {
    try db.execute("CREATE TABLE t(a)")
    interruptOnce(startingWith: "ROLLBACK")
    XCTAssertThrowsError(
      try db.savepoint { db in
        try db.run("INSERT INTO t VALUES (1)")
        throw TestError()
      })
    XCTAssertFalse(db.isInTransaction, "the savepoint was left open")
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t"), 0)
    // Nested in a transaction, the savepoint alone is rolled back.
    interruptOnce(startingWith: "ROLLBACK TO")
    try db.transaction { db in
      try db.run("INSERT INTO t VALUES (2)")
      XCTAssertThrowsError(
        try db.savepoint { db in
          try db.run("INSERT INTO t VALUES (1)")
          throw TestError()
        })
      XCTAssertTrue(db.isInTransaction)
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT a FROM t"), 2)
  }
}
