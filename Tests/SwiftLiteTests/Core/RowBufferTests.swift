import Foundation
import XCTest

@testable import SwiftLite

/// Materialized rows keep every value's storage class however the classes of a result are
/// mixed (a buffer of INTEGER values only keeps no classes until another one comes), and a
/// looked-up row's buffer is reused only once no row holds it.
final class RowBufferTests: SQLiteTestCase {
  static let lookupSQL = "SELECT a, b, c FROM t WHERE id = ?"

  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute(
      """
      CREATE TABLE t(id INTEGER PRIMARY KEY, a, b, c);
      INSERT INTO t VALUES (1, 10, 11, 12);
      INSERT INTO t VALUES (2, NULL, 'two', x'0203');
      INSERT INTO t VALUES (3, 30, 31, 32);
      INSERT INTO t VALUES (4, 4.5, 41, CAST(x'c328' AS TEXT));
      """)
  }

  static let expected: [Int64: [SQLiteValue]] = [
    1: [.integer(10), .integer(11), .integer(12)],
    2: [.null, .text("two"), .blob(Data([2, 3]))],
    3: [.integer(30), .integer(31), .integer(32)],
  ]

  func testALookedUpRowKeepsItsValuesWhileLaterLookupsOfTheSameSQLRun() throws {
    let first = try XCTUnwrap(try db.queryFirst(Self.lookupSQL, values: 1))
    let second = try XCTUnwrap(try db.queryFirst(Self.lookupSQL, values: 2))
    let third = try XCTUnwrap(try db.query(Self.lookupSQL, [3]).first)
    XCTAssertEqual(try first.values, Self.expected[1])
    XCTAssertEqual(try second.values, Self.expected[2])
    XCTAssertEqual(try third.values, Self.expected[3])
    // The second row is still held: the next lookup must not write into it.
    let again = try XCTUnwrap(try db.queryFirst(Self.lookupSQL, values: 1))
    XCTAssertEqual(try again.values, Self.expected[1])
    XCTAssertEqual(try second.values, Self.expected[2])
  }

  func testLookupsOneAtATimeReadTheirOwnValuesWhateverTheEarlierRowsHeld() throws {
    // Each row is dropped before the next lookup, whose row may then reuse its buffer:
    // integers only, then other classes (the buffer gets tags), then integers again.
    for id: Int64 in [1, 2, 3, 1, 3, 2, 2, 1] {
      let row = try XCTUnwrap(try db.queryFirst(Self.lookupSQL, values: id))
      XCTAssertEqual(try row.values, Self.expected[id], "row \(id)")
      XCTAssertEqual(try row.get(Int64?.self, at: 0), Self.expected[id]![0].integerValue)
      let listed = try XCTUnwrap(try db.query(Self.lookupSQL, [id]).first)
      XCTAssertEqual(try listed.values, Self.expected[id], "row \(id) by query")
    }
    // A NULL read as a number is still an error after rows of integers.
    _ = try db.queryFirst(Self.lookupSQL, values: 1)
    let second = try XCTUnwrap(try db.queryFirst(Self.lookupSQL, values: 2))
    XCTAssertThrowsError(try second.get(Int64.self, at: 0)) { error in
      guard case DecodingError.valueNotFound = error else {
        return XCTFail("expected valueNotFound, got \(error)")
      }
    }
    XCTAssertThrowsError(try second.get(Int64.self, at: 1)) { error in
      guard case DecodingError.typeMismatch = error else {
        return XCTFail("expected typeMismatch, got \(error)")
      }
    }
  }

  func testAReusedLookupKeepsRealsAndTextThatIsNotUTF8() throws {
    _ = try db.queryFirst(Self.lookupSQL, values: 1)
    let row = try XCTUnwrap(try db.queryFirst(Self.lookupSQL, values: 4))
    XCTAssertEqual(try row.get(Double.self, at: 0), 4.5)
    XCTAssertEqual(try row.get(Int64.self, at: 1), 41)
    XCTAssertEqual(try row.get(Data.self, at: 2), Data([0xC3, 0x28]))
    XCTAssertThrowsError(try row.get(String.self, at: 2))
  }

  func testALookedUpRowWithLargeTextIsNotKeptForReuse() throws {
    let large = String(repeating: "x", count: RowBuffer.spareSideBytesLimit + 1)
    try db.run("INSERT INTO t VALUES (5, ?, 0, 0)", [large])
    let sql = "SELECT a FROM t WHERE id = ?"
    _ = try db.queryFirst(sql, values: 1)
    XCTAssertNotNil(db.cache.idleStatement(for: sql)?.spareRow, "a small row is kept")
    let row = try XCTUnwrap(try db.queryFirst(sql, values: 5))
    XCTAssertEqual(try row.get(String.self, at: 0), large)
    XCTAssertNil(db.cache.idleStatement(for: sql)?.spareRow, "the cache keeps no large text")
  }

  func testResultsOfOneToManyRowsHoldEachRowInOrder() throws {
    let sql =
      "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, -x FROM c LIMIT ?"
    for count in [0, 1, 2, 8, 9, 10, 25, 100] {
      let rows = try db.query(sql, values: count)
      XCTAssertEqual(rows.count, count)
      XCTAssertEqual(
        try rows.map { [try $0.get(Int.self, at: 0), try $0.get(Int.self, at: 1)] },
        (0..<count).map { [$0 + 1, -($0 + 1)] }, "\(count) rows")
    }
  }

  /// Values of every class after hundreds of rows of integers only: the large buffers of
  /// such a result keep their classes apart, made when the first other value comes.
  func testAResultKeepsEveryClassWhenTheFirstValueThatIsNotAnIntegerComesLate() throws {
    try db.execute("CREATE TABLE m(x, y)")
    var expected: [[SQLiteValue]] = []
    try db.transaction { db in
      for index in 0..<2_000 {
        let values: [SQLiteValue]
        switch index {
        case 700: values = [.null, .real(0.5)]
        case 701: values = [.text("t"), .blob(Data([9]))]
        case 1_500: values = [.integer(-1), .null]
        default: values = [.integer(Int64(index)), .integer(Int64.max - Int64(index))]
        }
        expected.append(values)
        try db.run("INSERT INTO m VALUES (?, ?)", StatementArguments(values))
      }
    }
    let rows = try db.query("SELECT x, y FROM m ORDER BY rowid")
    XCTAssertEqual(try rows.map { try $0.values }, expected)
    XCTAssertEqual(try rows[699].get(Int64.self, at: 1), Int64.max - 699)
    XCTAssertEqual(try rows[702].get(Int64.self, at: 0), 702)
    XCTAssertThrowsError(try rows[700].get(Int64.self, at: 0))
    XCTAssertThrowsError(try rows[700].get(Int64.self, at: 1))
    XCTAssertNil(try rows[1_500].get(Int64?.self, at: 1))
  }
}

extension SQLiteValue {
  fileprivate var integerValue: Int64? {
    if case .integer(let number) = self { return number }
    return nil
  }
}
