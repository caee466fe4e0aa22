import XCTest

@testable import SwiftLite

/// Aggregate SQL functions from Swift: one state per group, errors as SQL errors.
final class AggregateTests: SQLiteTestCase {
  private struct Median: SQLAggregate {
    var values: [Double] = []
    mutating func step(_ arguments: [SQLiteValue]) throws {
      switch arguments[0] {
      case .real(let value): values.append(value)
      case .integer(let value): values.append(Double(value))
      case .null: break
      default: throw TestError(id: 7)
      }
    }
    func finish() throws -> (any SQLiteValueConvertible)? {
      let sorted = values.sorted()
      return sorted.isEmpty ? nil : sorted[sorted.count / 2]
    }
  }

  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.transaction { _ in
      try db.execute("CREATE TABLE item(shop TEXT NOT NULL, price REAL)")
      for shop in 0..<50 {
        for price in 0..<(shop + 1) {
          try db.run("INSERT INTO item VALUES (?, ?)", ["shop\(shop)", Double(price)])
        }
      }
    }
  }

  func testManyGroupsEachGetTheirOwnState() throws {
    try db.createAggregate("median", argumentCount: 1, deterministic: true, Median.self)
    let rows = try db.query(
      "SELECT shop, median(price), count(*) FROM item GROUP BY shop ORDER BY count(*)")
    XCTAssertEqual(rows.count, 50)
    for (index, row) in rows.enumerated() {
      // Shop n has prices 0...n: the upper median is (n + 1) / 2.
      XCTAssertEqual(try row.get(Double.self, at: 1), Double((index + 1) / 2), "shop \(index)")
    }
  }

  func testTheSameAggregateTwiceInOneQuery() throws {
    try db.createAggregate("median", argumentCount: 1, Median.self)
    let row = try db.query(
      "SELECT median(price), median(price * 2) FROM item WHERE shop = 'shop9'")[0]
    XCTAssertEqual(try row.get(Double.self, at: 0), 5)
    XCTAssertEqual(try row.get(Double.self, at: 1), 10)
  }

  func testAnEmptyTableGivesTheFreshStatesResult() throws {
    try db.createAggregate("median", argumentCount: 1, Median.self)
    try db.createAggregate(
      "total_length", argumentCount: 1, initial: 0,
      step: { total, arguments in
        if case .text(let text) = arguments[0] { total += text.count }
      },
      finish: { total in total })
    let row = try db.query(
      "SELECT median(price), total_length(shop) FROM item WHERE shop = 'none'")[0]
    XCTAssertEqual(try row.value(at: 0), .null)
    XCTAssertEqual(try row.get(Int.self, at: 1), 0)
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT total_length(shop) FROM item"),
      try db.scalar(Int.self, "SELECT sum(length(shop)) FROM item"))
  }

  func testAThrowInTheStepFailsTheStatementAndReleasesTheGroups() throws {
    try db.createAggregate("median", argumentCount: 1, Median.self)
    try db.run("INSERT INTO item VALUES ('shop3', 'not a price')")
    XCTAssertThrowsError(try db.query("SELECT shop, median(price) FROM item GROUP BY shop")) {
      error in
      let error = error as? SQLiteError
      XCTAssertEqual(error?.code, .error)
      XCTAssertTrue(error?.message.contains("TestError") ?? false, "\(String(describing: error))")
    }
    // The connection goes on: the next statement runs.
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM item"), 1_276)
  }

  func testEveryGroupsStateIsReleasedAfterSuccessAndFailure() throws {
    let live = Locked(0)
    final class Tracker {
      let live: Locked<Int>
      init(_ live: Locked<Int>) {
        self.live = live
        live.mutate { $0 += 1 }
      }
      deinit { live.mutate { $0 -= 1 } }
    }
    try db.createAggregate(
      "tracked", argumentCount: 1, initial: [Tracker](),
      step: { trackers, arguments in
        if case .text = arguments[0] { throw TestError(id: 1) }
        trackers.append(Tracker(live))
      },
      finish: { trackers in trackers.count })
    XCTAssertEqual(
      try db.query("SELECT tracked(price) FROM item GROUP BY shop").count, 50)
    XCTAssertEqual(live.value, 0)
    try db.run("INSERT INTO item VALUES ('shop7', 'text')")
    XCTAssertThrowsError(try db.query("SELECT tracked(price) FROM item GROUP BY shop"))
    XCTAssertEqual(live.value, 0, "a failed statement's groups were not released")
  }

  func testAThrowInFinishFailsTheStatement() throws {
    try db.createAggregate(
      "fails", argumentCount: 0, initial: (),
      step: { _, _ in }, finish: { _ in throw SQLiteError.misuse("no result today") })
    XCTAssertThrowsError(try db.scalar(Int.self, "SELECT fails() FROM item")) { error in
      XCTAssertEqual((error as? SQLiteError)?.message, "no result today")
    }
  }

  func testBadNamesAndCountsAreRefused() throws {
    XCTAssertThrowsError(try db.createAggregate("", argumentCount: 1, Median.self))
    XCTAssertThrowsError(try db.createAggregate("m", argumentCount: 128, Median.self))
  }

  func testEveryConnectionOfAPoolGetsIt() async throws {
    var options = OpenOptions()
    options.connectionSetup = { db in
      try db.createAggregate("median", argumentCount: 1, Median.self)
    }
    let pool = try DatabasePool(path: path("pool.sqlite"), options: options)
    try await pool.write { db in
      try db.execute("CREATE TABLE v(x); INSERT INTO v VALUES (1), (5), (9)")
      XCTAssertEqual(try db.scalar(Double.self, "SELECT median(x) FROM v"), 5)
    }
    let median = try await pool.read { db in try db.scalar(Double.self, "SELECT median(x) FROM v") }
    XCTAssertEqual(median, 5)
    try pool.close()
  }
}
