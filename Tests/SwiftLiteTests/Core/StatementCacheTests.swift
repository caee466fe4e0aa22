import Foundation
import XCTest

@testable import SwiftLite

final class StatementCacheTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute("CREATE TABLE kv(k TEXT PRIMARY KEY, v INTEGER NOT NULL)")
  }

  func testTheSameSQLReusesOneStatement() throws {
    let before = db.cachedStatementCount
    for index in 0..<200 {
      try db.run("INSERT INTO kv(k, v) VALUES (?, ?)", ["k\(index)", index])
    }
    XCTAssertEqual(db.cachedStatementCount, before + 1)
    for index in 0..<200 {
      XCTAssertEqual(try db.scalar(Int.self, "SELECT v FROM kv WHERE k = ?", ["k\(index)"]), index)
    }
    XCTAssertEqual(db.cachedStatementCount, before + 2)
    // query, queryFirst, scalar and forEachRow share the cache by SQL text.
    let sql = "SELECT v FROM kv WHERE k = ?"
    _ = try db.query(sql, ["k1"])
    _ = try db.queryFirst(sql, ["k1"])
    try db.forEachRow(sql, ["k1"]) { _ in }
    XCTAssertEqual(db.cachedStatementCount, before + 2)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM kv"), 200)
  }

  func testASQLThatFailedRunsFineAgain() throws {
    let insert = "INSERT INTO kv(k, v) VALUES (?, ?)"
    try db.run(insert, ["a", 1])
    for _ in 0..<3 {
      assertSQLiteError(try db.run(insert, ["a", 2])) {
        XCTAssertEqual($0.constraintKind, .primaryKey)
      }
      assertSQLiteError(try db.run(insert, ["b", nil])) {
        XCTAssertEqual($0.constraintKind, .notNull)
      }
      assertSQLiteError(try db.run(insert, ["only one"])) { XCTAssertEqual($0.code, .range) }
    }
    try db.run(insert, ["b", 2])
    try db.run(insert, ["c", 3])
    XCTAssertEqual(try db.scalar(Int.self, "SELECT sum(v) FROM kv"), 6)
    XCTAssertEqual(db.cachedStatementCount, 2)  // the insert, and the sum
  }

  func testAFailedQueryDoesNotPoisonTheNextRun() throws {
    try db.run("INSERT INTO kv(k, v) VALUES ('a', 1), ('b', 2), ('c', 3)")
    let sql = "SELECT k, v FROM kv ORDER BY k"
    XCTAssertThrowsError(
      try db.forEachRow(sql) { row in
        if try row.get(String.self, "k") == "b" { throw TestError() }
      })
    // The next run starts from the first row, not where the failed one stopped.
    XCTAssertEqual(try db.query(sql).map { try $0.get(String.self, "k") }, ["a", "b", "c"])
    XCTAssertEqual(try db.queryFirst(sql)?.get(String.self, "k"), "a")
  }

  func testNestedIterationOfTheSameSQL() throws {
    for index in 1...4 { try db.run("INSERT INTO kv(k, v) VALUES (?, ?)", ["k\(index)", index]) }
    let sql = "SELECT v FROM kv ORDER BY v"
    var pairs: [String] = []
    try db.forEachRow(sql) { outer in
      let left = try outer.get(Int.self, at: 0)
      try db.forEachRow(sql) { inner in
        let right = try inner.get(Int.self, at: 0)
        pairs.append("\(left)\(right)")
        // A third level, and a plain query of the same SQL, inside.
        XCTAssertEqual(try db.query(sql).count, 4)
      }
      // The outer row is undisturbed by the inner loops.
      XCTAssertEqual(try outer.get(Int.self, at: 0), left)
    }
    XCTAssertEqual(pairs.count, 16)
    XCTAssertEqual(pairs.first, "11")
    XCTAssertEqual(pairs.last, "44")
    XCTAssertEqual(Set(pairs).count, 16)
    XCTAssertEqual(db.cachedStatementCount, 2)  // the insert and the select, nothing more
  }

  func testWritingToTheTableBeingIterated() throws {
    for index in 1...3 { try db.run("INSERT INTO kv(k, v) VALUES (?, ?)", ["k\(index)", index]) }
    try db.forEachRow("SELECT k FROM kv ORDER BY k") { row in
      try db.run("UPDATE kv SET v = v * 10 WHERE k = ?", [try row.get(String.self, "k")])
    }
    XCTAssertEqual(try db.scalar(Int.self, "SELECT sum(v) FROM kv"), 60)
  }

  func testCapacityBoundsTheCache() throws {
    var options = OpenOptions()
    options.statementCacheCapacity = 3
    let small = try Connection(path: databasePath, options: options)
    for index in 0..<10 { _ = try small.scalar(Int.self, "SELECT \(index)") }
    XCTAssertLessThanOrEqual(small.cachedStatementCount, 3)
    XCTAssertEqual(try small.scalar(Int.self, "SELECT 0"), 0)
    XCTAssertEqual(try small.scalar(Int.self, "SELECT 9"), 9)
  }

  func testCachedStatementsSurviveSchemaChanges() throws {
    let sql = "SELECT count(*) FROM kv"
    XCTAssertEqual(try db.scalar(Int.self, sql), 0)
    try db.execute("DROP TABLE kv; CREATE TABLE kv(k TEXT PRIMARY KEY, v INTEGER NOT NULL)")
    try db.run("INSERT INTO kv VALUES ('x', 1)")
    XCTAssertEqual(try db.scalar(Int.self, sql), 1)
    try db.execute("DROP TABLE kv")
    assertSQLiteError(try db.scalar(Int.self, sql)) {
      XCTAssertTrue($0.message.contains("no such table"), $0.message)
    }
  }
}

final class StatementCacheCapacityTests: XCTestCase {
  func testACapacityOfZeroKeepsNoStatement() throws {
    var options = OpenOptions()
    options.statementCacheCapacity = 0
    let db = try Connection.inMemory(options: options)
    try db.execute("CREATE TABLE t(x)")
    for value in 0..<3 { try db.run("INSERT INTO t VALUES (?)", [value]) }
    XCTAssertEqual(db.cachedStatementCount, 0)
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM t"), 3)
  }

  /// The cache's key comparison: copies of one string match without a comparison of their
  /// bytes; distinct strings match only when their bytes do.
  func testKeyComparisonIsByBytesWhateverTheRepresentation() {
    let long = "SELECT v FROM kv WHERE k = ? AND v > ? ORDER BY k -- long enough to be stored apart"
    let copy = long
    XCTAssertTrue(long.hasSameBytes(as: copy))
    // The same bytes in another storage, and in a small string built at run time.
    let rebuilt = String(decoding: Array(long.utf8), as: UTF8.self)
    XCTAssertTrue(long.hasSameBytes(as: rebuilt))
    XCTAssertTrue("k1".hasSameBytes(as: "k" + String(1)))
    // Same length, other bytes; canonically equal, other bytes.
    let other = String(long.dropLast()) + "!"
    XCTAssertEqual(other.utf8.count, long.utf8.count)
    XCTAssertFalse(long.hasSameBytes(as: other))
    XCTAssertFalse("caf\u{E9}".hasSameBytes(as: "cafe\u{301}"))
    XCTAssertTrue("".hasSameBytes(as: String()))
  }
}
