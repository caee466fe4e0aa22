import Foundation
import XCTest

@testable import SwiftLite

final class ErrorTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute(
      """
      CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT NOT NULL);
      CREATE TABLE member(
        code TEXT PRIMARY KEY,
        email TEXT UNIQUE,
        age INTEGER CHECK (age >= 0),
        team INTEGER REFERENCES team(id),
        nick TEXT NOT NULL DEFAULT 'x'
      );
      CREATE TABLE strictly(id INTEGER PRIMARY KEY, n INTEGER) STRICT;
      INSERT INTO team VALUES (1, 'A');
      INSERT INTO member(code, email, age, team) VALUES ('m1', 'a@example.com', 30, 1);
      """)
  }

  private func assertConstraint(
    _ sql: String, _ arguments: StatementArguments = [], kind: SQLiteError.ConstraintKind,
    message: String, file: StaticString = #filePath, line: UInt = #line
  ) {
    assertSQLiteError(try db.run(sql, arguments), file: file, line: line) { error in
      XCTAssertEqual(error.code, .constraint, file: file, line: line)
      XCTAssertTrue(error.isConstraintViolation, file: file, line: line)
      XCTAssertEqual(error.constraintKind, kind, file: file, line: line)
      XCTAssertEqual(error.message, message, file: file, line: line)
      XCTAssertEqual(error.sql, sql, file: file, line: line)
      XCTAssertFalse(error.isBusy, file: file, line: line)
      XCTAssertFalse(error.isCorrupt, file: file, line: line)
    }
  }

  func testConstraintKinds() {
    assertConstraint(
      "INSERT INTO member(code, email) VALUES (?, ?)", ["m2", "a@example.com"], kind: .unique,
      message: "UNIQUE constraint failed: member.email")
    assertConstraint(
      "INSERT INTO member(code) VALUES (?)", ["m1"], kind: .primaryKey,
      message: "UNIQUE constraint failed: member.code")
    assertConstraint(
      "INSERT INTO team(id, name) VALUES (?, ?)", [1, "B"], kind: .primaryKey,
      message: "UNIQUE constraint failed: team.id")
    assertConstraint(
      "INSERT INTO team(name) VALUES (?)", [nil], kind: .notNull,
      message: "NOT NULL constraint failed: team.name")
    assertConstraint(
      "INSERT INTO member(code, team) VALUES (?, ?)", ["m3", 99], kind: .foreignKey,
      message: "FOREIGN KEY constraint failed")
    assertConstraint(
      "DELETE FROM team WHERE id = ?", [1], kind: .foreignKey,
      message: "FOREIGN KEY constraint failed")
    assertConstraint(
      "INSERT INTO member(code, age) VALUES (?, ?)", ["m4", -1], kind: .check,
      message: "CHECK constraint failed: age >= 0")
    assertConstraint(
      "INSERT INTO strictly(n) VALUES (?)", ["not a number"], kind: .other,
      message: "cannot store TEXT value in INTEGER column strictly.n")
  }

  func testExtendedCodesAreKept() {
    assertSQLiteError(try db.run("INSERT INTO team(name) VALUES (NULL)")) { error in
      XCTAssertEqual(error.extendedCode.rawValue, 1299)  // SQLITE_CONSTRAINT_NOTNULL
      XCTAssertEqual(error.code.rawValue, 19)  // SQLITE_CONSTRAINT
    }
    assertSQLiteError(try db.run("INSERT INTO member(code) VALUES ('m1')")) {
      XCTAssertEqual($0.extendedCode.rawValue, 1555)  // SQLITE_CONSTRAINT_PRIMARYKEY
    }
  }

  func testCatchByCodePattern() throws {
    var caught = ""
    do {
      try db.run("INSERT INTO team(id, name) VALUES (1, 'again')")
    } catch SQLiteError.Code.busy {
      caught = "busy"
    } catch SQLiteError.Code.constraint {
      caught = "constraint"
    }
    XCTAssertEqual(caught, "constraint")

    // The extended code matches too.
    do {
      try db.run("INSERT INTO team(name) VALUES (NULL)")
      XCTFail("no error")
    } catch SQLiteError.Code(rawValue: 1299) {
    }

    // A pattern does not match other errors.
    XCTAssertFalse(SQLiteError.Code.constraint ~= TestError())
  }

  func testBusyWithTwoConnectionsAndNoTimeout() throws {
    let other = try openSecondConnection(busyTimeout: 0)
    try db.execute("BEGIN IMMEDIATE; INSERT INTO team(name) VALUES ('locked')")
    var caughtBusy = false
    do {
      try other.run("INSERT INTO team(name) VALUES (?)", ["waiting"])
    } catch SQLiteError.Code.busy {
      caughtBusy = true
    }
    XCTAssertTrue(caughtBusy)
    assertSQLiteError(try other.transaction(.immediate) { _ in }) { error in
      XCTAssertTrue(error.isBusy)
      XCTAssertEqual(error.code, .busy)
      XCTAssertFalse(error.isConstraintViolation)
      XCTAssertNil(error.constraintKind)
      XCTAssertEqual(error.message, "database is locked")
    }
    XCTAssertFalse(other.isInTransaction)
    try db.execute("COMMIT")
    // Once the lock is gone the same statement runs.
    try other.run("INSERT INTO team(name) VALUES (?)", ["waiting"])
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM team"), 3)
  }

  func testReadingWhileAnotherConnectionHoldsAnExclusiveLockThrowsBusy() throws {
    let other = try openSecondConnection(busyTimeout: 0)
    try other.execute("BEGIN EXCLUSIVE; INSERT INTO team(name) VALUES ('hidden')")
    try db.setBusyTimeout(0)
    var rows = 0
    assertSQLiteError(try db.forEachRow("SELECT * FROM team") { _ in rows += 1 }) {
      XCTAssertTrue($0.isBusy)
    }
    assertSQLiteError(try db.query("SELECT * FROM team")) { XCTAssertTrue($0.isBusy) }
    let statement = try db.prepare("SELECT name FROM team")
    assertSQLiteError(try statement.step()) { XCTAssertEqual($0.code, .busy) }
    statement.reset()
    XCTAssertEqual(rows, 0)
    try other.execute("ROLLBACK")
    try db.forEachRow("SELECT * FROM team") { _ in rows += 1 }
    XCTAssertEqual(rows, 1)
    XCTAssertTrue(try statement.step())
    XCTAssertEqual(try statement.row.get(String.self, at: 0), "A")
    statement.reset()
  }

  func testBindingAStatementThatIsMidStepIsAnErrorNotACrash() throws {
    let statement = try db.prepare("SELECT name FROM team WHERE id > ?")
    try statement.bind([0])
    XCTAssertTrue(try statement.step())
    assertSQLiteError(try statement.bind([1])) { XCTAssertEqual($0.code, .misuse) }
    statement.reset()
    try statement.bind([1])
    XCTAssertFalse(try statement.step())
    statement.reset()
  }

  func testSyntaxAndSchemaErrors() {
    assertSQLiteError(try db.run("INSERT INTO nowhere VALUES (1)")) { error in
      XCTAssertEqual(error.code, .error)
      XCTAssertEqual(error.message, "no such table: nowhere")
      XCTAssertEqual(error.sql, "INSERT INTO nowhere VALUES (1)")
    }
  }

  func testDescriptionHasMessageAndSQLButNoBoundValues() {
    assertSQLiteError(
      try db.run("INSERT INTO member(code, email) VALUES (?, ?)", ["m9", "a@example.com"])
    ) { error in
      let text = error.description
      XCTAssertTrue(text.contains("UNIQUE constraint failed: member.email"), text)
      XCTAssertTrue(text.contains("INSERT INTO member(code, email) VALUES (?, ?)"), text)
      XCTAssertTrue(text.contains("2067"), text)
      XCTAssertFalse(text.contains("a@example.com"), text)
      XCTAssertFalse(text.contains("m9"), text)
    }
  }

  func testCodeDescriptionAndEquality() {
    XCTAssertEqual(SQLiteError.Code.busy.description, "database is locked (5)")
    XCTAssertEqual(SQLiteError.Code.constraint.rawValue, 19)
    let error = SQLiteError(extendedCode: .busy, message: "m", sql: "s")
    XCTAssertEqual(error, SQLiteError(extendedCode: .busy, message: "m", sql: "s"))
    XCTAssertNotEqual(error, SQLiteError(extendedCode: .busy, message: "other", sql: "s"))
    XCTAssertTrue(SQLiteError(extendedCode: .locked, message: "").isBusy)
    XCTAssertTrue(SQLiteError(extendedCode: .corrupt, message: "").isCorrupt)
  }
}

/// `SQLiteError` promises never to include bound values: they may be private data.
final class ErrorPrivacyTests: SQLiteTestCase {
  func testARefusedValueIsNotRepeatedInTheError() throws {
    try db.execute("CREATE TABLE t(x)")
    let secrets: [(any SQLiteValueConvertible, String)] = [
      (UInt64(9_876_543_210_123_456_789), "9876543210123456789"),
      (UInt(9_876_543_210_123_456_788), "9876543210123456788"),
      (Date(timeIntervalSince1970: 987_654_321_012_345), "987654321012345"),
    ]
    for (value, text) in secrets {
      assertSQLiteError(try db.run("INSERT INTO t VALUES (?)", [value])) { error in
        XCTAssertEqual(error.code, .mismatch)
        XCTAssertFalse("\(error)".contains(text), "\(error)")
      }
      let insert = try db.prepare("INSERT INTO t VALUES (?)")
      XCTAssertThrowsError(try insert.bind(values: value)) { error in
        XCTAssertFalse("\(error)".contains(text), "\(error)")
      }
    }
  }
}
