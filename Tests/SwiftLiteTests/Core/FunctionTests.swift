import Foundation
import XCTest

@testable import SwiftLite

final class FunctionTests: SQLiteTestCase {
  func testAClosureBecomesAnSQLFunction() throws {
    try db.createFunction("reverse", argumentCount: 1, deterministic: true) { arguments in
      guard case .text(let text) = arguments[0] else { return nil }
      return String(text.reversed())
    }
    try db.execute("CREATE TABLE word(text TEXT)")
    try db.run("INSERT INTO word VALUES ('zoë'), (NULL)")
    let reversed = try db.query("SELECT reverse(text) AS r FROM word ORDER BY rowid").map {
      try $0.get(String?.self, "r")
    }
    XCTAssertEqual(reversed, ["ëoz", nil])
    // Deterministic functions may be used in an index on an expression.
    try db.execute("CREATE INDEX word_reversed ON word(reverse(text))")
  }

  func testArgumentCountsAndVariadicFunctions() throws {
    try db.createFunction("total", argumentCount: nil) { arguments in
      try arguments.reduce(Int64(0)) { sum, value in
        guard case .integer(let number) = value else {
          throw SQLiteError(extendedCode: .mismatch, message: "total takes integers, got \(value)")
        }
        return sum + number
      }
    }
    try db.createFunction("pair", argumentCount: 2) { arguments in "two" }
    try db.createFunction("pair", argumentCount: 1) { arguments in "one" }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT total()"), 0)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT total(1, 2, 3, 4)"), 10)
    XCTAssertEqual(try db.scalar(String.self, "SELECT pair(1)"), "one")
    XCTAssertEqual(try db.scalar(String.self, "SELECT pair(1, 2)"), "two")
    assertSQLiteError(try db.scalar(String.self, "SELECT pair(1, 2, 3)")) { error in
      XCTAssertTrue(error.message.contains("wrong number of arguments"), error.message)
    }
    // An error thrown by the closure fails the statement with its message.
    assertSQLiteError(try db.scalar(Int.self, "SELECT total(1, 'x')")) { error in
      XCTAssertEqual(error.code, .error)
      XCTAssertTrue(error.message.contains("total takes integers"), error.message)
    }
    assertSQLiteError(try db.createFunction("f", argumentCount: 128) { _ in nil }) { error in
      XCTAssertEqual(error.code, .misuse)
      XCTAssertTrue(error.message.contains("0 to 127"), error.message)
    }
    assertSQLiteError(try db.createFunction("", argumentCount: 1) { _ in nil })
  }

  func testAFunctionThrowingAnyErrorFailsTheStatementAndItsTransaction() throws {
    struct Refused: Error, CustomStringConvertible {
      var description: String { "refused by Swift" }
    }
    try db.createFunction("refuse", argumentCount: 1) { _ in throw Refused() }
    try db.execute("CREATE TABLE t(x)")
    XCTAssertThrowsError(
      try db.transaction { db in
        try db.run("INSERT INTO t VALUES (1)")
        try db.run("INSERT INTO t VALUES (refuse(2))")
      }
    ) { error in
      XCTAssertTrue((error as? SQLiteError)?.message.contains("refused by Swift") == true)
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t"), 0)
  }

  func testResultsOfEveryStorageClass() throws {
    try db.createFunction("echo", argumentCount: 1) { $0[0] }
    try db.createFunction("empty", argumentCount: 0) { _ in Data() }
    let row = try XCTUnwrap(
      db.queryFirst(
        "SELECT echo(1) AS i, echo(2.5) AS r, echo('t') AS t, echo(x'0102') AS b, echo(NULL) AS n, echo('') AS e, empty() AS z"
      ))
    XCTAssertEqual(try row["i"], .integer(1))
    XCTAssertEqual(try row["r"], .real(2.5))
    XCTAssertEqual(try row["t"], .text("t"))
    XCTAssertEqual(try row["b"], .blob(Data([1, 2])))
    XCTAssertEqual(try row["n"], .null)
    XCTAssertEqual(try row["e"], .text(""))
    XCTAssertEqual(try row["z"], .blob(Data()))
    try db.removeFunction("echo", argumentCount: 1)
    assertSQLiteError(try db.scalar(Int.self, "SELECT echo(1)")) { error in
      XCTAssertTrue(error.message.contains("no such function"), error.message)
    }
  }

  func testACollationFromAClosure() throws {
    try db.createCollation("BY_LENGTH") { left, right in
      left.count == right.count
        ? left.compare(right) : (left.count < right.count ? .orderedAscending : .orderedDescending)
    }
    try db.execute("CREATE TABLE w(text TEXT)")
    try db.run("INSERT INTO w VALUES ('ccc'), ('a'), ('bb')")
    let sorted = try db.query("SELECT text FROM w ORDER BY text COLLATE BY_LENGTH").map {
      try $0.get(String.self, "text")
    }
    XCTAssertEqual(sorted, ["a", "bb", "ccc"])
  }

  func testUnicodeCaseFolding() throws {
    try db.execute("CREATE TABLE person(name TEXT)")
    try db.run("INSERT INTO person VALUES ('Zoë'), ('ZOË Smith'), ('Zoe'), ('Straße'), ('100%')")
    // SQLite's own LIKE and NOCASE fold ASCII only.
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT count(*) FROM person WHERE name LIKE 'zoë smith'"), 0)
    XCTAssertEqual(try db.scalar(Bool.self, "SELECT 'ZOË' = 'zoë' COLLATE NOCASE"), false)
    try db.addUnicodeCaseFolding()
    let like = "SELECT name FROM person WHERE unicode_like(?, name) ORDER BY rowid"
    XCTAssertEqual(
      try db.query(like, ["zoë%"]).map { try $0.get(String.self, "name") }, ["Zoë", "ZOË Smith"])
    XCTAssertEqual(
      try db.query(like, ["STRASSE"]).map { try $0.get(String.self, "name") }, ["Straße"])
    XCTAssertEqual(
      try db.query(like, ["ZO_"]).map { try $0.get(String.self, "name") }, ["Zoë", "Zoe"])
    // With an escape character, % is literal: "100%" does not match "1000".
    let escaped = "SELECT count(*) FROM person WHERE unicode_like(?, name, '\\')"
    XCTAssertEqual(try db.scalar(Int.self, escaped, ["100\\%"]), 1)
    XCTAssertEqual(try db.scalar(Int.self, escaped, ["10\\%"]), 0)
    XCTAssertNil(try db.scalar(Int.self, "SELECT unicode_like(NULL, 'x')"))
    assertSQLiteError(try db.scalar(Int.self, "SELECT unicode_like('a', 'a', 'xy')")) { error in
      XCTAssertTrue(error.message.contains("single character"), error.message)
    }
    XCTAssertEqual(
      try db.scalar(Bool.self, "SELECT 'ZOË' = 'zoë' COLLATE " + Connection.unicodeNoCaseCollation),
      true)
    let ordered = try db.query(
      "SELECT name FROM person WHERE name LIKE 'z%' ORDER BY name COLLATE UNICODE_NOCASE, rowid"
    ).map { try $0.get(String.self, "name") }
    XCTAssertEqual(ordered, ["Zoe", "Zoë", "ZOË Smith"])
  }

  func testReplacingLike() throws {
    try db.execute("CREATE TABLE person(name TEXT)")
    try db.run("INSERT INTO person VALUES ('ZOË')")
    try db.addUnicodeCaseFolding(replacingLike: true)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM person WHERE name LIKE 'zoë'"), 1)
  }

  func testLikeMatching() {
    func match(_ pattern: String, _ text: String, _ escape: Character? = nil) -> Bool {
      Connection.matchesLike(pattern: pattern, text: text, escape: escape)
    }
    XCTAssertTrue(match("%", ""))
    XCTAssertTrue(match("a%b%c", "aXXbYYc"))
    XCTAssertFalse(match("a%b%c", "aXXbYY"))
    XCTAssertTrue(match("%ab", "aab"))
    XCTAssertFalse(match("_", ""))
    XCTAssertTrue(match("_", "ë"))
    XCTAssertTrue(match("under!_", "under_", "!"))
    XCTAssertFalse(match("under!_", "underX", "!"))
    XCTAssertTrue(match("!!", "!", "!"))
  }

  func testEveryConnectionOfAPoolRunsTheSetup() throws {
    var options = OpenOptions()
    options.connectionSetup = { db in try db.addUnicodeCaseFolding() }
    let pool = try DatabasePool(path: path("pool.sqlite"), options: options, maximumReaderCount: 3)
    defer { try? pool.close() }
    try pool.write { db in
      try db.execute("CREATE TABLE person(name TEXT)")
      try db.run("INSERT INTO person VALUES ('ZOË')")
    }
    // Three reads at once need three readers, each opened lazily.
    let results = Locked<[Int]>([])
    DispatchQueue.concurrentPerform(iterations: 6) { _ in
      let count = try? pool.read { db in
        try db.scalar(Int.self, "SELECT count(*) FROM person WHERE unicode_like('zoë', name)")
      }
      results.mutate { $0.append(count ?? -1) }
    }
    XCTAssertEqual(results.value, Array(repeating: 1, count: 6))
    XCTAssertGreaterThanOrEqual(pool.readerCount, 1)
    // A setup that throws fails the open.
    var failing = OpenOptions()
    failing.connectionSetup = { _ in throw TestError(id: 7) }
    XCTAssertThrowsError(try Connection(path: path("other.sqlite"), options: failing)) { error in
      XCTAssertEqual(error as? TestError, TestError(id: 7))
    }
  }
}
