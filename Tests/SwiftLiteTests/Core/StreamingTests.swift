import Foundation
import XCTest

@testable import SwiftLite

final class StreamingTests: SQLiteTestCase {
  /// One million rows of an integer and a 100-byte text: about 100 MB if they were kept, so a
  /// non-streaming implementation would fail the memory bound.
  func testStreamingAMillionRowsKeepsMemoryFlat() throws {
    let rowCount = 1_000_000
    try db.execute("CREATE TABLE big(n INTEGER PRIMARY KEY, label TEXT NOT NULL)")
    try db.run(
      """
      INSERT INTO big(n, label)
      WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < ?)
      SELECT n, printf('%0100d', n) FROM c
      """, [rowCount])

    // Warm up: one pass builds the caches and page buffers that stay.
    try db.forEachRow("SELECT n, label FROM big WHERE n <= 1000") { _ in }
    let before = try XCTUnwrap(residentMemoryBytes())

    var count = 0
    var sum: Int64 = 0
    var labelBytes = 0
    var lastLabel = ""
    try db.forEachRow("SELECT n, label FROM big ORDER BY n") { row in
      count += 1
      sum &+= try row.get(Int64.self, at: 0)
      let label = try row.get(String.self, at: 1)
      labelBytes += label.utf8.count
      if count == rowCount { lastLabel = label }
    }

    let after = try XCTUnwrap(residentMemoryBytes())
    XCTAssertEqual(count, rowCount)
    XCTAssertEqual(sum, Int64(rowCount) * Int64(rowCount + 1) / 2)
    XCTAssertEqual(labelBytes, rowCount * 100)
    XCTAssertEqual(lastLabel, String(repeating: "0", count: 93) + "1000000")
    let growth = after - before
    XCTAssertLessThan(growth, 50 << 20, "resident memory grew by \(growth >> 20) MB")
  }

  /// The same through a recursive CTE with nothing stored: the rows are computed as read.
  func testStreamingARecursiveQueryWithAStatement() throws {
    let statement = try db.prepare(
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?) SELECT x FROM c")
    try statement.bind([1_000_000])
    let before = try XCTUnwrap(residentMemoryBytes())
    var count = 0
    var sum: Int64 = 0
    try statement.forEachRow { row in
      count += 1
      sum &+= try row.get(Int64.self, at: 0)
    }
    let after = try XCTUnwrap(residentMemoryBytes())
    XCTAssertEqual(count, 1_000_000)
    XCTAssertEqual(sum, 500_000_500_000)
    XCTAssertLessThan(after - before, 50 << 20)
  }

  func testStoppingEarlyByThrowing() throws {
    var seen = 0
    XCTAssertThrowsError(
      try db.forEachRow(
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c"
      ) { row in
        seen += 1
        if try row.get(Int.self, at: 0) == 10 { throw TestError(id: 10) }
      }
    ) { XCTAssertEqual($0 as? TestError, TestError(id: 10)) }
    XCTAssertEqual(seen, 10)
  }
}
