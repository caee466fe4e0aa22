import SwiftLite
import XCTest

// Storage classes other than INTEGER in an INTEGER column, buffers that switch to keeping
// classes mid-way, and a lookup's row kept while the statement's spare buffer is reused.

final class RowStorageEdgeCasesTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER, s TEXT)")
  }

  /// Pins: an INTEGER column holding REAL, TEXT and BLOB reads as a typed error as Int.
  func testOtherStorageClassesInAnIntegerColumnStillThrowAsInt() throws {
    try db.execute(
      "INSERT INTO t VALUES (1, 1.5, 'a'), (2, CAST('12' AS TEXT), 'b'), (3, x'00', 'c')")
    // The column's affinity keeps '12' as 12: write the TEXT past it.
    try db.execute("UPDATE t SET n = '12x' WHERE id = 2")
    for id in 1...3 {
      let row = try XCTUnwrap(try db.queryFirst("SELECT n FROM t WHERE id = ?", values: id))
      XCTAssertThrowsError(try row.get(Int.self, at: 0), "id \(id)")
      XCTAssertThrowsError(try row.get(Int64.self, at: 0), "id \(id)")
      XCTAssertThrowsError(try row.get(Int?.self, at: 0), "id \(id)")
    }
    let rows = try db.query("SELECT n FROM t ORDER BY id")
    for row in rows { XCTAssertThrowsError(try row.get(Int.self, at: 0)) }
  }

  /// A result whose first rows are all INTEGER and whose later rows are not: the buffer
  /// starts keeping classes mid-way, and every value reads as what it is.
  func testABufferThatSwitchesToClassesMidWayReadsEveryValue() throws {
    try db.transaction { db in
      for id in 1...300 {
        if id == 150 {
          try db.run("INSERT INTO t VALUES (?, NULL, NULL)", [id])
        } else if id == 200 {
          try db.run("INSERT INTO t (id, n, s) VALUES (?, 'x', 'y')", [id])
        } else if id == 250 {
          try db.run("INSERT INTO t (id, n, s) VALUES (?, 2.5, NULL)", [id])
        } else {
          try db.run("INSERT INTO t (id, n) VALUES (?, ?)", [id, id * 10])
        }
      }
    }
    let rows = try db.query("SELECT id, n FROM t ORDER BY id")
    XCTAssertEqual(rows.count, 300)
    for (offset, row) in rows.enumerated() {
      let id = offset + 1
      XCTAssertEqual(try row.get(Int.self, at: 0), id)
      switch id {
      case 150: XCTAssertNil(try row.get(Int?.self, at: 1))
      case 200:
        XCTAssertThrowsError(try row.get(Int.self, at: 1))
        XCTAssertEqual(try row.get(String.self, at: 1), "x")
      case 250:
        XCTAssertThrowsError(try row.get(Int.self, at: 1))
        XCTAssertEqual(try row.get(Double.self, at: 1), 2.5)
      default: XCTAssertEqual(try row.get(Int.self, at: 1), id * 10, "row \(id)")
      }
    }
  }

  /// Pins: a row kept from one lookup is not changed by the next lookup of the same SQL,
  /// nor by one whose values are of another class.
  func testARowKeptFromALookupDoesNotChangeWithTheNext() throws {
    try db.execute("INSERT INTO t VALUES (1, 10, 'one'), (2, 'text', NULL), (3, 30, 'three')")
    let sql = "SELECT n, s FROM t WHERE id = ?"
    let first = try XCTUnwrap(try db.queryFirst(sql, values: 1))
    let values = try first.values
    _ = try db.queryFirst(sql, values: 2)
    _ = try db.queryFirst(sql, values: 3)
    XCTAssertEqual(try first.values, values)
    XCTAssertEqual(try first.get(Int.self, at: 0), 10)
    XCTAssertEqual(try first.get(String.self, at: 1), "one")
    // Through query() too: its first row is the statement's spare.
    let rows = try db.query(sql, values: 1)
    _ = try db.query(sql, values: 2)
    XCTAssertEqual(try rows[0].get(Int.self, at: 0), 10)
  }

  /// A spare buffer that was let go holds one row; reused for a row with a TEXT value and
  /// then again for an all-INTEGER row: the classes written last time must not leak.
  func testASpareReusedAfterTextThenIntegersReadsIntegers() throws {
    try db.execute("INSERT INTO t VALUES (1, 'a', 's'), (2, 20, 's2')")
    let sql = "SELECT n FROM t WHERE id = ?"
    do {
      let row = try XCTUnwrap(try db.queryFirst(sql, values: 1))
      XCTAssertEqual(try row.get(String.self, at: 0), "a")
    }
    let row = try XCTUnwrap(try db.queryFirst(sql, values: 2))
    XCTAssertEqual(try row.get(Int.self, at: 0), 20)
    do {
      let again = try XCTUnwrap(try db.queryFirst(sql, values: 1))
      XCTAssertEqual(try again.get(String.self, at: 0), "a")
    }
    XCTAssertEqual(try row.get(Int.self, at: 0), 20)
  }

  /// Huge and negative Int64 read back exactly; narrower integer types refuse overflow.
  func testHugeIntegersAndOverflowIntoNarrowTypes() throws {
    try db.run(
      "INSERT INTO t (id, n) VALUES (1, ?), (2, ?), (3, 300), (4, 3000000000)",
      [Int64.max, Int64.min])
    let rows = try db.query("SELECT n FROM t ORDER BY id")
    XCTAssertEqual(try rows[0].get(Int64.self, at: 0), .max)
    XCTAssertEqual(try rows[1].get(Int64.self, at: 0), .min)
    XCTAssertThrowsError(try rows[2].get(Int8.self, at: 0))
    XCTAssertThrowsError(try rows[3].get(Int32.self, at: 0))
    XCTAssertThrowsError(try rows[1].get(UInt64.self, at: 0))
  }

  /// A lookup's statement prepared again after another connection changes the result's
  /// columns: the next lookup's row has the new columns (a spare of the old shape must
  /// not be reused).
  func testALookupAfterAnotherConnectionAddsAColumnSeesIt() throws {
    try db.execute("INSERT INTO t VALUES (1, 10, 'one')")
    let sql = "SELECT * FROM t WHERE id = ?"
    XCTAssertEqual(try db.queryFirst(sql, values: 1)?.count, 3)
    let other = try openSecondConnection()
    try other.execute("ALTER TABLE t ADD COLUMN extra TEXT DEFAULT 'e'")
    let row = try XCTUnwrap(try db.queryFirst(sql, values: 1))
    XCTAssertEqual(row.columnNames, ["id", "n", "s", "extra"])
    XCTAssertEqual(try row.get(String.self, "extra"), "e")
    try other.close()
  }

  /// A row materialized on one thread and read on another.
  func testAMaterializedRowReadOnAnotherThread() throws {
    try db.execute("INSERT INTO t VALUES (1, 10, 'one')")
    let row = Unchecked(try XCTUnwrap(try db.queryFirst("SELECT n, s FROM t WHERE id = 1")))
    let result = Locked<String?>(nil)
    let thread = Thread {
      let text = (try? row.value.get(Int.self, at: 0)).map(String.init) ?? "threw"
      result.mutate { $0 = text }
    }
    thread.start()
    waitUntil { result.value != nil }
    XCTAssertEqual(result.value, "10")
  }
}
