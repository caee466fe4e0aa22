import Foundation
import XCTest

@testable import SwiftLite

final class StatementTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute(
      "CREATE TABLE person(id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER, score REAL)")
  }

  // MARK: Positional binding

  func testPositionalQuestionMarks() throws {
    try db.run("INSERT INTO person(name, age) VALUES (?, ?)", ["Ann", 42])
    let row = try XCTUnwrap(try db.queryFirst("SELECT name, age FROM person WHERE age = ?", [42]))
    XCTAssertEqual(try row.get(String.self, "name"), "Ann")
    XCTAssertEqual(try row.get(Int.self, "age"), 42)
  }

  func testNumberedParameters() throws {
    let statement = try db.prepare("SELECT ?2, ?1, ?2")
    XCTAssertEqual(statement.parameterCount, 2)
    try statement.bind(["first", "second"])
    XCTAssertTrue(try statement.step())
    XCTAssertEqual(try statement.row.values, [.text("second"), .text("first"), .text("second")])
    statement.reset()

    // ?NNN counts up to the largest index, so gaps must be filled too.
    let gapped = try db.prepare("SELECT ?1, ?3")
    XCTAssertEqual(gapped.parameterCount, 3)
    try gapped.bind([1, nil, 3])
    XCTAssertTrue(try gapped.step())
    XCTAssertEqual(try gapped.row.values, [.integer(1), .integer(3)])
  }

  func testBindingOneValueAtAnIndex() throws {
    let statement = try db.prepare("SELECT ?, ?")
    try statement.bind("a", at: 1)
    try statement.bind(2.5, at: 2)
    XCTAssertTrue(try statement.step())
    XCTAssertEqual(try statement.row.values, [.text("a"), .real(2.5)])
    statement.reset()
    assertSQLiteError(try statement.bind(1, at: 0)) { XCTAssertEqual($0.code, .range) }
    assertSQLiteError(try statement.bind(1, at: 3)) { error in
      XCTAssertEqual(error.code, .range)
      XCTAssertEqual(error.parameterCount, 2)
    }
  }

  // MARK: Named binding

  func testNamedParametersWithEveryPrefix() throws {
    let statement = try db.prepare("SELECT :a, @b, $c, :a")
    XCTAssertEqual(statement.parameterCount, 3)
    XCTAssertEqual(statement.parameterNames, [":a", "@b", "$c"])
    // Keys with or without their prefix.
    try statement.bind(["a": 1, "@b": "two", "c": 3.5])
    XCTAssertTrue(try statement.step())
    XCTAssertEqual(try statement.row.values, [.integer(1), .text("two"), .real(3.5), .integer(1)])
    statement.reset()

    try statement.bind(42, named: "$c")
    try statement.bind(nil, named: "b")
    XCTAssertTrue(try statement.step())
    XCTAssertEqual(try statement.row.values, [.integer(1), .null, .integer(42), .integer(1)])
  }

  func testDictionaryBindingThroughRun() throws {
    let values: [String: (any SQLiteValueConvertible)?] = ["name": "Bob", "age": 30, "score": nil]
    try db.run(
      "INSERT INTO person(name, age, score) VALUES (:name, :age, :score)",
      StatementArguments(named: values))
    try db.run("UPDATE person SET age = @age WHERE name = $name", ["age": 31, "name": "Bob"])
    let row = try XCTUnwrap(try db.queryFirst("SELECT * FROM person"))
    XCTAssertEqual(try row.get(String.self, "name"), "Bob")
    XCTAssertEqual(try row.get(Int.self, "age"), 31)
    XCTAssertNil(try row.get(Double?.self, "score"))
  }

  func testNamedBindingLeavesNoStaleValueBehind() throws {
    let sql = "INSERT INTO person(name, age) VALUES (:name, :age)"
    try db.run(sql, ["name": "Ann", "age": 40])
    // A parameter left out is an error, not the previous run's value.
    assertSQLiteError(try db.run(sql, ["name": "Bob"])) { error in
      XCTAssertEqual(error.code, .range)
      XCTAssertTrue(error.message.contains(":age"), error.message)
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM person"), 1)
    try db.run(sql, ["name": "Bob", "age": nil])
    XCTAssertNil(try db.scalar(Int.self, "SELECT age FROM person WHERE name = 'Bob'"))
  }

  // MARK: Binding errors

  func testWrongArgumentCountThrowsRange() throws {
    let sql = "INSERT INTO person(name, age) VALUES (?, ?)"
    for arguments: StatementArguments in [[], ["Ann"], ["Ann", 1, 2]] {
      assertSQLiteError(try db.run(sql, arguments)) { error in
        XCTAssertEqual(error.code, .range)
        XCTAssertEqual(error.parameterCount, 2)
        XCTAssertEqual(error.sql, sql)
        XCTAssertTrue(error.message.contains("expected 2"), error.message)
      }
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM person"), 0)
    let statement = try db.prepare(sql)
    assertSQLiteError(try statement.bind(["Ann"])) { XCTAssertEqual($0.code, .range) }
  }

  func testUnknownNameThrowsRange() throws {
    let sql = "INSERT INTO person(name) VALUES (:name)"
    assertSQLiteError(try db.run(sql, ["name": "Ann", "nmae": "typo"])) { error in
      XCTAssertEqual(error.code, .range)
      XCTAssertTrue(error.message.contains("nmae"), error.message)
      XCTAssertEqual(error.sql, sql)
    }
    let statement = try db.prepare(sql)
    assertSQLiteError(try statement.bind(1, named: "missing")) { XCTAssertEqual($0.code, .range) }
    assertSQLiteError(try statement.bind(1, named: "@name")) { XCTAssertEqual($0.code, .range) }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM person"), 0)
  }

  // MARK: Describing

  func testColumnNamesDeclaredTypesAndReadOnly() throws {
    let select = try db.prepare("SELECT id, name AS fullName, age, score, 1 + 1 FROM person")
    XCTAssertEqual(select.sql, "SELECT id, name AS fullName, age, score, 1 + 1 FROM person")
    XCTAssertEqual(select.columnCount, 5)
    XCTAssertEqual(select.columnNames, ["id", "fullName", "age", "score", "1 + 1"])
    XCTAssertEqual(select.declaredTypes, ["INTEGER", "TEXT", "INTEGER", "REAL", nil])
    XCTAssertTrue(select.isReadOnly)
    XCTAssertEqual(select.parameterCount, 0)

    let insert = try db.prepare("INSERT INTO person(name) VALUES (?)")
    XCTAssertFalse(insert.isReadOnly)
    XCTAssertEqual(insert.columnCount, 0)
    XCTAssertEqual(insert.columnNames, [])
    XCTAssertEqual(insert.parameterCount, 1)
    XCTAssertEqual(insert.parameterNames, [nil])
  }

  // MARK: Running

  func testResetRunsAgainWithTheSameBindings() throws {
    let insert = try db.prepare("INSERT INTO person(name, age) VALUES (?, ?)")
    try insert.bind(["Ann", 1])
    try insert.run()
    try insert.run()  // execute resets, bindings are kept
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM person WHERE name = 'Ann'"), 2)

    let select = try db.prepare("SELECT name FROM person WHERE age = ?")
    try select.bind([1])
    XCTAssertTrue(try select.step())
    select.reset()
    XCTAssertTrue(try select.step())
    XCTAssertEqual(try select.row.get(String.self, at: 0), "Ann")
    XCTAssertTrue(try select.step())
    XCTAssertFalse(try select.step())
    select.reset()
  }

  func testClearBindingsSetsEveryParameterToNull() throws {
    let select = try db.prepare("SELECT ?, :x")
    try select.bind([1, 2])
    select.clearBindings()
    XCTAssertTrue(try select.step())
    XCTAssertEqual(try select.row.values, [.null, .null])
    select.reset()
  }

  func testStepThrowsAndTheStatementCanRunAgain() throws {
    let insert = try db.prepare("INSERT INTO person(id, name) VALUES (?, ?)")
    try insert.bind([1, "Ann"])
    try insert.run()
    assertSQLiteError(try insert.run()) { XCTAssertEqual($0.constraintKind, .primaryKey) }
    try insert.bind([2, "Bob"])
    try insert.run()
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM person"), 2)
  }

  func testStatementForEachRowStreamsAndResets() throws {
    for name in ["a", "b", "c"] { try db.run("INSERT INTO person(name) VALUES (?)", [name]) }
    let select = try db.prepare("SELECT name FROM person ORDER BY name")
    for _ in 0..<2 {
      var names: [String] = []
      try select.forEachRow { names.append(try $0.get(String.self, at: 0)) }
      XCTAssertEqual(names, ["a", "b", "c"])
    }
  }

  // MARK: Preparing

  func testPrepareRefusesTwoStatements() throws {
    assertSQLiteError(try db.prepare("SELECT 1; SELECT 2")) { error in
      XCTAssertEqual(error.code, .misuse)
      XCTAssertTrue(error.message.contains("one SQL statement"), error.message)
    }
    assertSQLiteError(try db.run("DELETE FROM person; DROP TABLE person")) {
      XCTAssertEqual($0.code, .misuse)
    }
    // Nothing ran.
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM person"), 0)
  }

  func testPrepareAcceptsTrailingSemicolonsBlanksAndComments() throws {
    for sql in [
      "SELECT 1;", "SELECT 1 ;\n\t ; ", "SELECT 1; -- the answer", "SELECT 1 /* one */;",
      "SELECT 1;\u{0C}",
    ] {
      let statement = try db.prepare(sql)
      XCTAssertTrue(try statement.step(), sql)
      XCTAssertEqual(try statement.row.get(Int.self, at: 0), 1, sql)
    }
  }

  func testPrepareRefusesEmptySQLAndReportsSyntaxErrors() {
    for sql in ["", "   ", "-- nothing"] {
      assertSQLiteError(try db.prepare(sql)) { XCTAssertEqual($0.code, .misuse, sql) }
    }
    assertSQLiteError(try db.prepare("SELEC 1")) { error in
      XCTAssertEqual(error.code, .error)
      XCTAssertTrue(error.message.contains("syntax error"), error.message)
      XCTAssertEqual(error.sql, "SELEC 1")
    }
    assertSQLiteError(try db.prepare("SELECT nope FROM person")) { error in
      XCTAssertTrue(error.message.contains("no such column: nope"), error.message)
    }
  }
}

/// Two named arguments for one parameter: which value is bound must not be left to order.
final class NamedArgumentTwiceTests: SQLiteTestCase {
  func testTwoArgumentsForOneParameterAreRefused() throws {
    // Before: the later pair won silently (2 here).
    assertSQLiteError(try db.query("SELECT :a", ["a": 1, ":a": 2])) { error in
      XCTAssertEqual(error.code, .range)
      XCTAssertTrue(error.message.contains(":a"), error.message)
    }
    assertSQLiteError(try db.query("SELECT :a + :a", ["a": 1, "a": 2])) {
      XCTAssertEqual($0.code, .range)
    }
    // One argument for a parameter used twice is fine.
    XCTAssertEqual(try db.scalar(Int.self, "SELECT :a + :a", ["a": 2]), 4)
  }
}

/// SQL holding a NUL is refused by every door with the same clear reason.
final class PrepareNulTests: SQLiteTestCase {
  func testANulInOneStatementIsReportedAsANul() throws {
    for sql in ["SELECT 1\0", "SELECT 1\0 -- x", "SELECT ?\0"] {
      // Before: "prepare takes one SQL statement; use execute(_:) to run several".
      assertSQLiteError(try db.prepare(sql)) { error in
        XCTAssertEqual(error.code, .misuse)
        XCTAssertTrue(error.message.contains("NUL"), error.message)
      }
      assertSQLiteError(try db.run(sql)) { XCTAssertTrue($0.message.contains("NUL"), $0.message) }
    }
  }
}

/// `bind` promises that nothing of an earlier binding stays: a bind that fails half-way
/// must not leave the previous run's values in the parameters it did not reach.
final class FailedBindTests: SQLiteTestCase {
  func testAFailedBindLeavesNoValueOfTheRunBefore() throws {
    try db.execute("CREATE TABLE t(a, b)")
    let insert = try db.prepare("INSERT INTO t VALUES (?, ?)")
    try insert.bind(values: 1, "secret")
    try insert.run()
    let failures: [() throws -> Void] = [
      { try insert.bind([2, Double.nan]) },
      { try insert.bind(values: 3, Double.nan) },
      { try insert.bind(values: 4, 5, 6) },
      { try insert.bind(["zzz": 7]) },
      { try insert.bind([8]) },
    ]
    for fail in failures {
      XCTAssertThrowsError(try fail())
      try insert.run()  // what a caller that ignored the error would insert
    }
    // Before: (2, 'secret'), (3, 'secret'), (3, 'secret'), ...
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t WHERE b = 'secret'"), 1)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t WHERE a IS NULL"), 5)
  }
}
