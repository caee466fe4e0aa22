import Dispatch
import Foundation
import XCTest

@testable import SwiftLite

/// Review of issue 13's fixes, from outside, through the public API.
final class Review13Tests: TemporaryDirectoryTestCase {
  private func int(_ rows: [Row]) throws -> Int? {
    try rows.first?.get(Int.self, at: 0)
  }

  // MARK: Item 4: commits the cache must notice

  /// PRAGMA data_version looks at the main database only: a commit by another connection
  /// to an attached file is never noticed.
  func testACacheNoticesAnotherConnectionsCommitToAnAttachedDatabase() throws {
    let queue = try DatabaseQueue(path: path())
    let other = path("aux.sqlite")
    try queue.writeWithoutTransaction { db in
      try db.execute("ATTACH DATABASE '\(other)' AS aux")
      try db.execute("CREATE TABLE aux.a(x); INSERT INTO aux.a VALUES (1)")
    }
    let cache = try QueryCache(queue)
    XCTAssertEqual(try int(cache.query("SELECT count(*) FROM aux.a")), 1)
    let second = try Connection(path: other)
    try second.execute("INSERT INTO a VALUES (2)")
    try second.close()
    XCTAssertEqual(
      try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM aux.a") }, 2)
    XCTAssertEqual(
      try int(cache.query("SELECT count(*) FROM aux.a")), 2,
      "the cache returned a result another connection's commit made stale")
    try queue.close()
  }

  /// On a pool, a commit of another connection is reported twice: once by the reader that
  /// noticed it, then again by the writer's own look at the start of the next write, which
  /// drops every cached result though that write changed an unrelated table.
  func testAPoolKeepsCachedResultsAcrossAnUnrelatedCommitAfterNoticingAnotherConnection()
    throws
  {
    let file = path("pool.sqlite")
    let pool = try DatabasePool(path: file)
    try pool.write { db in
      try db.execute("CREATE TABLE a(x); CREATE TABLE b(x); INSERT INTO a VALUES (1)")
    }
    let cache = try QueryCache(pool)
    _ = try cache.query("SELECT count(*) FROM a")
    let second = try Connection(path: file)
    try second.execute("INSERT INTO a VALUES (2)")
    try second.close()
    XCTAssertEqual(try int(cache.query("SELECT count(*) FROM a")), 2)  // noticed, read again
    _ = try cache.query("SELECT count(*) FROM a")  // a hit
    let hits = cache.statistics.hits
    try pool.write { db in try db.execute("INSERT INTO b VALUES (1)") }
    XCTAssertEqual(try int(cache.query("SELECT count(*) FROM a")), 2)
    XCTAssertEqual(cache.statistics.hits, hits + 1, "a commit to b dropped the result of a")
    try pool.close()
  }

  /// The changes of an `INSERT ... RETURNING` are counted by SQLite when the statement
  /// halts, not at the step that returns the row: a statement of `prepare(_:)` stepped for
  /// its row, then reset, changed a `WITHOUT ROWID` table (no update hook) and the commit
  /// reports nothing, so the cache keeps the old count. (`query` and `queryFirst` are right.)
  func testAPreparedInsertReturningSteppedOnceDropsTheCachedResult() throws {
    let queue = try DatabaseQueue(path: path())
    try queue.write { db in
      try db.execute("CREATE TABLE w(k PRIMARY KEY) WITHOUT ROWID; INSERT INTO w VALUES (1)")
    }
    let cache = try QueryCache(queue)
    XCTAssertEqual(try int(cache.query("SELECT count(*) FROM w")), 1)
    try queue.write { db in
      let statement = try db.prepare("INSERT INTO w VALUES (2) RETURNING k")
      XCTAssertTrue(try statement.step())
      try statement.reset()
    }
    XCTAssertEqual(
      try queue.read { db in try db.scalar(Int.self, "SELECT count(*) FROM w") }, 2)
    XCTAssertEqual(try int(cache.query("SELECT count(*) FROM w")), 2, "stale cached count")
    try queue.close()
  }

  // MARK: Item 3: bytes, not canonical equivalence

  /// `.real(0) == .real(-0.0)`, so the cache takes the two arguments for one key; SQLite
  /// does not: `atan2(0, -1)` is pi, `atan2(-0.0, -1)` is -pi.
  func testTheCacheTellsMinusZeroFromZero() throws {
    let queue = try DatabaseQueue(path: path())
    let cache = try QueryCache(queue)
    let sql = "SELECT printf('%.3f', atan2(?, -1))"
    let plus = try cache.query(sql, [0.0]).first?.get(String.self, at: 0)
    let minus = try cache.query(sql, [-0.0]).first?.get(String.self, at: 0)
    let direct = try queue.read { db in try db.scalar(String.self, sql, [-0.0]) }
    XCTAssertEqual(plus, "3.142")
    XCTAssertEqual(direct, "-3.142")
    XCTAssertEqual(minus, direct, "the cache answered for +0.0")
    try queue.close()
  }

  // MARK: Item 7

  private func misuse(_ body: () throws -> Void, _ message: String, line: UInt = #line) {
    do {
      try body()
      XCTFail("not refused: \(message)", line: line)
    } catch let error as SQLiteError {
      XCTAssertEqual(error.code, .misuse, "\(message): \(error)", line: line)
    } catch {
      XCTFail("\(message): \(error)", line: line)
    }
  }

  private func orderDB() throws -> Connection {
    let db = try open()
    try db.execute("CREATE TABLE u(a, b); INSERT INTO u VALUES (2, 'x'), (1, 'y'), (3, 'z')")
    return db
  }

  /// A bound value in parentheses is as constant as a bare one.
  func testAParenthesizedValueAsAWholeOrderByTermIsRefused() throws {
    let db = try orderDB()
    defer { try? db.close() }
    let column = "a"
    misuse({ _ = try db.query("SELECT b FROM u ORDER BY (\(column))") }, "ORDER BY (?)")
  }

  /// `IS DISTINCT FROM` in an earlier term: the walk back from the comma stops at FROM.
  func testAValueAfterAnIsDistinctFromTermIsRefused() throws {
    let db = try orderDB()
    defer { try? db.close() }
    let column = "a"
    misuse(
      { _ = try db.query("SELECT b FROM u ORDER BY a IS DISTINCT FROM 1, \(column)") },
      "ORDER BY a IS DISTINCT FROM 1, ?")
  }

  /// A value whose type is not `SQLiteValueConvertible` (a `Substring` from `split`) does
  /// not fail to compile: the literal becomes a `String` (the `String` overload of `query`)
  /// and the value is spliced into the SQL text, unquoted: injection.
  func testAnInterpolatedSubstringIsNeverSplicedIntoTheSQL() throws {
    let db = try orderDB()
    defer { try? db.close() }
    let input = "nobody,'zz' OR 1 = 1"
    let typed = input.split(separator: ",")[1]  // a Substring
    let rows = try? db.query("SELECT b FROM u WHERE b = \(typed)")
    XCTAssertNotEqual(rows?.count, 3, "the text became SQL: every row came back")
  }

  /// A row finds a column by Swift's `String` equality (a `[String: Int]`, then Unicode
  /// `lowercased()`): "cafe\u{301}" finds the column "caf\u{E9}", which SQLite, comparing
  /// names by bytes (and folding ASCII case only), holds for another column.
  func testARowFindsAColumnByTheBytesOfItsName() throws {
    let db = try open()
    defer { try? db.close() }
    let row = try XCTUnwrap(
      try db.queryFirst("SELECT 1 AS \"caf\u{E9}\", 2 AS \"cafe\u{301}\", 3 AS \"\u{C9}t\u{E9}\""))
    XCTAssertEqual(try row.get(Int.self, "cafe\u{301}"), 2, "NFD name read the NFC column")
    XCTAssertEqual(try row.get(Int.self, "caf\u{E9}"), 1)
    XCTAssertThrowsError(
      try row.get(Int.self, "\u{E9}t\u{E9}"), "SQLite folds ASCII case only: no such column")
  }

  /// A fragment that ends with `ORDER BY \(x)` is refused at once, though the text may still
  /// grow into an expression: appending ` = b DESC` makes the value a value again.
  func testAValueEndingAFragmentThatGrowsIntoAnExpressionIsNotRefused() throws {
    let db = try orderDB()
    defer { try? db.close() }
    var sql: SQL = "SELECT b FROM u ORDER BY \(String("y"))"
    sql.append(" = b DESC, a")
    XCTAssertEqual(try db.query(sql).first?.get(String.self, at: 0), "y")
  }

  /// `cache.query` called inside a pool's `read` reads through that read's snapshot, which
  /// may predate a commit whose invalidation already ran, and keeps the old result as if it
  /// were fresh: later reads of the cache, outside any read, get it.
  func testACacheQueryInsideAPoolReadDoesNotKeepASnapshotOlderThanACommit() throws {
    let pool = try DatabasePool(path: path("snap.sqlite"))
    try pool.write { db in try db.execute("CREATE TABLE a(x); INSERT INTO a VALUES (1)") }
    let cache = try QueryCache(pool)
    let shared = Unchecked((pool, cache))
    try pool.read { db in
      XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM a"), 1)  // the snapshot
      let written = DispatchSemaphore(value: 0)
      Thread {
        try? shared.value.0.write { db in try db.execute("INSERT INTO a VALUES (2)") }
        written.signal()
      }.start()
      written.wait()
      _ = try cache.query("SELECT count(*) FROM a")  // 1, from this read's snapshot
    }
    // Another thread holds the reader of that read, so the next look uses a new reader.
    let holding = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let ended = DispatchSemaphore(value: 0)
    Thread {
      try? shared.value.0.read { _ in
        holding.signal()
        release.wait()
      }
      ended.signal()
    }.start()
    holding.wait()
    let cached = try int(cache.query("SELECT count(*) FROM a"))
    release.signal()
    ended.wait()
    XCTAssertEqual(
      try pool.read { db in try db.scalar(Int.self, "SELECT count(*) FROM a") }, 2)
    XCTAssertEqual(cached, 2, "the cache kept the result of a snapshot older than a commit")
    try pool.close()
  }
}
