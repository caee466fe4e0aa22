import Foundation
import XCTest

@testable import SwiftLite

/// `query(_:values:)` and `queryFirst(_:values:)`, and the rows they and `query(_:_:)`
/// materialize: every storage class, NULLs, extremes, invalid text, and results spread
/// over several buffers.
final class QueryValuesTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute(
      """
      CREATE TABLE item(id INTEGER PRIMARY KEY, name TEXT, score REAL, data BLOB, n INTEGER);
      INSERT INTO item VALUES (1, 'Ann', 1.5, x'0102', 9223372036854775807);
      INSERT INTO item VALUES (2, NULL, NULL, NULL, -9223372036854775808);
      INSERT INTO item VALUES (3, '', -0.0, x'', 0);
      INSERT INTO item VALUES (4, 'é ☃ 𝄞', 1e308, x'00ff', NULL);
      """)
  }

  func testQueryFirstBindsValuesOfStaticTypes() throws {
    let ann = try XCTUnwrap(try db.queryFirst("SELECT * FROM item WHERE id = ?", values: 1))
    XCTAssertEqual(
      try ann.values, [.integer(1), .text("Ann"), .real(1.5), .blob(Data([1, 2])), .integer(.max)])
    XCTAssertEqual(ann.columnNames, ["id", "name", "score", "data", "n"])

    let second = try XCTUnwrap(
      try db.queryFirst(
        "SELECT id FROM item WHERE id > ? AND name IS NOT ? ORDER BY id", values: Int64(1),
        "Ann"))
    XCTAssertEqual(try second.get(Int.self, at: 0), 2)  // NULL IS NOT 'Ann'
    XCTAssertNil(try db.queryFirst("SELECT * FROM item WHERE id = ?", values: 99))
    // An optional binds NULL.
    XCTAssertNil(try db.queryFirst("SELECT id FROM item WHERE name = ?", values: String?.none))
    let named = try XCTUnwrap(
      try db.queryFirst("SELECT id FROM item WHERE name = :name", values: "é ☃ 𝄞"))
    XCTAssertEqual(try named.get(Int.self, "id"), 4)
  }

  func testQueryBindsValuesAndKeepsEveryStorageClass() throws {
    let rows = try db.query("SELECT * FROM item WHERE id >= ? ORDER BY id", values: 2)
    XCTAssertEqual(rows.count, 3)
    XCTAssertEqual(
      try rows[0].values, [.integer(2), .null, .null, .null, .integer(.min)])
    XCTAssertEqual(try rows[1].values, [.integer(3), .text(""), .real(-0.0), .blob(Data()), 0])
    XCTAssertEqual(
      try rows[2].values,
      [.integer(4), .text("é ☃ 𝄞"), .real(1e308), .blob(Data([0, 255])), .null])
    XCTAssertTrue(try rows[0].isNull("name"))
    XCTAssertFalse(try rows[1].isNull("name"))
    XCTAssertEqual(try rows[0].get(String?.self, "name"), nil)
    XCTAssertEqual(try rows[0].get(Double?.self, "score"), nil)
    XCTAssertEqual(try rows[2].get(Int64?.self, "n"), nil)
    XCTAssertEqual(try rows[2].withUnsafeBytes(at: 1) { Array($0) }, Array("é ☃ 𝄞".utf8))
    XCTAssertEqual(try rows[2].withUnsafeBytes(at: 3) { Array($0) }, [0, 255])
    XCTAssertEqual(try rows[2].get(Data.self, "name"), Data("é ☃ 𝄞".utf8))
  }

  func testReadErrorsFromMaterializedRowsNameTheColumn() throws {
    let row = try XCTUnwrap(
      try db.queryFirst("SELECT name, score FROM item WHERE id = ?", values: 2))
    let null = assertDecodingError(try row.get(String.self, "name"))
    XCTAssertTrue(null?.description.contains("'name'") == true, null?.description ?? "")
    guard case .valueNotFound? = null?.error else { return XCTFail("expected valueNotFound") }
    let real = try XCTUnwrap(try db.queryFirst("SELECT score FROM item WHERE id = ?", values: 1))
    let mismatch = assertDecodingError(try real.get(Int.self, at: 0))
    XCTAssertTrue(mismatch?.description.contains("REAL") == true, mismatch?.description ?? "")
    assertDecodingError(try real.get(Int.self, at: 5))
  }

  func testWrongNumberOfValuesIsARangeError() throws {
    assertSQLiteError(try db.queryFirst("SELECT * FROM item WHERE id = ?", values: 1, 2)) {
      XCTAssertEqual($0.code, .range)
    }
    assertSQLiteError(try db.query("SELECT * FROM item WHERE id = ? AND n = ?", values: 1)) {
      XCTAssertEqual($0.code, .range)
    }
    // One value (the form for one key) to a statement of two parameters, and to none.
    assertSQLiteError(try db.queryFirst("SELECT * FROM item WHERE id = ? AND n = ?", values: 1)) {
      XCTAssertEqual($0.code, .range)
    }
    assertSQLiteError(try db.queryFirst("SELECT * FROM item", values: 1)) {
      XCTAssertEqual($0.code, .range)
    }
    XCTAssertEqual(
      try db.queryFirst("SELECT * FROM item WHERE id = ? AND n = ?", values: 3, 0)?.get(
        Int.self, at: 0), 3)
    // The cached statement still works with the right values afterwards.
    XCTAssertEqual(try db.query("SELECT * FROM item WHERE id = ? AND n = ?", values: 3, 0).count, 1)
  }

  func testUnstorableValueIsAMismatchError() throws {
    assertSQLiteError(try db.queryFirst("SELECT * FROM item WHERE score = ?", values: Double.nan)) {
      XCTAssertEqual($0.code, .mismatch)
    }
    assertSQLiteError(try db.query("SELECT * FROM item WHERE n = ?", values: UInt64.max)) {
      XCTAssertEqual($0.code, .mismatch)
    }
  }

  func testTextThatIsNotUTF8KeepsItsBytesInMaterializedRows() throws {
    try db.execute("INSERT INTO item(id, name) VALUES (5, CAST(x'c328' AS TEXT))")
    let row = try XCTUnwrap(try db.queryFirst("SELECT name FROM item WHERE id = ?", values: 5))
    XCTAssertEqual(try row.get(Data.self, at: 0), Data([0xC3, 0x28]))
    XCTAssertEqual(try row.get([UInt8]?.self, at: 0), [0xC3, 0x28])
    XCTAssertEqual(try row.withUnsafeBytes(at: 0) { Array($0) }, [0xC3, 0x28])
    assertDecodingError(try row.get(String.self, at: 0))
    assertDecodingError(try row[0])
    XCTAssertEqual(row.description, "[name: x'c328' (TEXT, not UTF-8)]")
  }

  func testLargeResultsSpanSeveralBuffersAndKeepEveryValue() throws {
    // 30,000 rows of 5 columns: 150,000 values, more than two buffers' worth.
    try db.execute("CREATE TABLE big(a INTEGER, b TEXT, c REAL, d BLOB, e INTEGER)")
    try db.transaction { db in
      let insert = try db.prepare("INSERT INTO big VALUES (?, ?, ?, ?, ?)")
      for index in 0..<30_000 {
        try insert.bind(
          values: index, index.isMultiple(of: 3) ? nil : "t\(index)", Double(index) / 4,
          Data([UInt8(index & 0xFF)]), index.isMultiple(of: 7) ? nil : Int64(-index))
        try insert.run()
      }
    }
    let rows = try db.query("SELECT * FROM big ORDER BY a")
    XCTAssertEqual(rows.count, 30_000)
    for (index, row) in rows.enumerated() {
      XCTAssertEqual(try row.get(Int.self, at: 0), index)
      XCTAssertEqual(
        try row.get(String?.self, at: 1), index.isMultiple(of: 3) ? nil : "t\(index)")
      XCTAssertEqual(try row.get(Double.self, at: 2), Double(index) / 4)
      XCTAssertEqual(try row.get(Data.self, at: 3), Data([UInt8(index & 0xFF)]))
      XCTAssertEqual(try row.get(Int64?.self, at: 4), index.isMultiple(of: 7) ? nil : Int64(-index))
    }
    let some = try db.query("SELECT a FROM big WHERE a >= ? AND a < ?", values: 100, 110)
    XCTAssertEqual(try some.map { try $0.get(Int.self, at: 0) }, Array(100..<110))
  }

  func testRowsOfAResultOutliveTheStatementAndTheConnection() throws {
    var rows = try db.query("SELECT id, name FROM item ORDER BY id")
    let first = try XCTUnwrap(try db.queryFirst("SELECT name FROM item WHERE id = ?", values: 4))
    try db.execute("DELETE FROM item")
    db = nil
    XCTAssertEqual(try first.get(String.self, at: 0), "é ☃ 𝄞")
    rows.removeFirst()
    XCTAssertEqual(try rows.map { try $0.get(Int.self, at: 0) }, [2, 3, 4])
    XCTAssertEqual(try rows.map { try $0.get(String?.self, "name") }, [nil, "", "é ☃ 𝄞"])
  }

  func testDetachedRowsKeepEveryStorageClass() throws {
    let values: [SQLiteValue] = [.integer(-1), .real(2.5), .text("x"), .blob(Data([7])), .null]
    let row = Row(columns: ["a", "b", "c", "d", "e"], values: values)
    XCTAssertEqual(try row.values, values)
    XCTAssertEqual(row.count, 5)
    XCTAssertEqual(try row.get(Int?.self, "e"), nil)
    XCTAssertEqual(Row(columns: [], values: []).count, 0)
  }
}
