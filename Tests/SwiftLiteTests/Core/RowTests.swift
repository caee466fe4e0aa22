import Foundation
import XCTest

@testable import SwiftLite

final class RowTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute(
      """
      CREATE TABLE user(id INTEGER PRIMARY KEY, name TEXT NOT NULL, age INTEGER, photo BLOB);
      INSERT INTO user VALUES (1, 'Ann', 42, x'0102');
      INSERT INTO user VALUES (2, 'Bob', NULL, NULL);
      INSERT INTO user VALUES (3, 'Cy', 7, x'');
      """)
  }

  func testAccessByIndexAndByName() throws {
    let rows = try db.query("SELECT id, name, age, photo FROM user ORDER BY id")
    XCTAssertEqual(rows.count, 3)
    let ann = rows[0]
    XCTAssertEqual(ann.count, 4)
    XCTAssertEqual(ann.columnNames, ["id", "name", "age", "photo"])
    XCTAssertEqual(try ann[0], .integer(1))
    XCTAssertEqual(try ann["name"], .text("Ann"))
    XCTAssertNil(try ann["nope"])
    XCTAssertEqual(try ann.get(Int64.self, at: 0), 1)
    XCTAssertEqual(try ann.get(String.self, "name"), "Ann")
    XCTAssertEqual(try ann.get(Int.self, "age"), 42)
    XCTAssertEqual(try ann.get([UInt8].self, "photo"), [1, 2])
    XCTAssertEqual(try ann.values, [.integer(1), .text("Ann"), .integer(42), .blob(Data([1, 2]))])
    // Each row of one result sees its own values.
    XCTAssertEqual(try rows.map { try $0.get(String.self, "name") }, ["Ann", "Bob", "Cy"])
    XCTAssertEqual(try rows.map { try $0.get(Int?.self, "age") }, [42, nil, 7])
    XCTAssertEqual(try rows[2].get(Data.self, "photo"), Data())
  }

  func testNamesMatchWithoutRegardToCaseAndTheFirstDuplicateWins() throws {
    let row = try XCTUnwrap(try db.queryFirst("SELECT id, name AS Id FROM user WHERE id = 1"))
    XCTAssertEqual(try row.get(Int.self, "id"), 1)
    XCTAssertEqual(try row.get(String.self, "Id"), "Ann")  // exact match first
    XCTAssertEqual(try row.get(Int.self, "ID"), 1)  // else the first, ignoring case
    assertDecodingError(try row.get(String.self, "NAME"))  // renamed by AS: no such column
  }

  func testUnknownColumnAndBadIndexAreErrors() throws {
    let row = try XCTUnwrap(try db.queryFirst("SELECT id, name FROM user WHERE id = 1"))
    let unknown = assertDecodingError(try row.get(String.self, "email"))
    if case .keyNotFound = unknown?.error {} else { XCTFail("\(String(describing: unknown))") }
    XCTAssertTrue(unknown?.description.contains("email") == true)
    XCTAssertTrue(unknown?.description.contains("id, name") == true, unknown!.description)
    assertDecodingError(try row.get(Int.self, at: 2))
    assertDecodingError(try row.get(Int.self, at: -1))
    assertDecodingError(try row.isNull("email"))
    assertDecodingError(try row.withUnsafeBytes(at: 5) { $0.count })
  }

  func testMismatchMessageNamesColumnTypeAndStoredClass() throws {
    let row = try XCTUnwrap(try db.queryFirst("SELECT name, age FROM user WHERE id = 1"))
    let failure = try XCTUnwrap(assertDecodingError(try row.get(Int.self, "name")))
    guard case .typeMismatch(let type, let context) = failure.error else {
      return XCTFail("expected typeMismatch, got \(failure.error)")
    }
    XCTAssertTrue(type == Int.self)
    XCTAssertEqual(context.codingPath.map(\.stringValue), ["name"])
    XCTAssertEqual(context.debugDescription, "column 'name': expected Int, stored TEXT")
    // By index, the error still names the column.
    let byIndex = assertDecodingError(try row.get(String.self, at: 1))
    XCTAssertEqual(byIndex?.error.codingPathText, ["age"])
    XCTAssertTrue(byIndex?.description.contains("expected String, stored INTEGER") == true)
  }

  func testInPlaceRowsAreCopiedOnRequest() throws {
    var kept: [Row] = []
    var names: [String] = []
    try db.forEachRow("SELECT id, name, age, photo FROM user ORDER BY id") { row in
      XCTAssertEqual(row.count, 4)
      names.append(try row.get(String.self, "name"))
      kept.append(try row.copy())
    }
    XCTAssertEqual(names, ["Ann", "Bob", "Cy"])
    XCTAssertEqual(try kept.map { try $0.get(Int.self, "id") }, [1, 2, 3])
    XCTAssertEqual(try kept[1].values, [.integer(2), .text("Bob"), .null, .null])
    XCTAssertEqual(kept[0].columnNames, ["id", "name", "age", "photo"])
    let copy = try kept[0].copy()
    XCTAssertEqual(try copy.values, try kept[0].values)
  }

  func testWithUnsafeBytesReadsTextAndBlobWithoutCopying() throws {
    try db.forEachRow("SELECT name, photo, id, age FROM user WHERE id = 1") { row in
      XCTAssertEqual(try row.withUnsafeBytes(at: 0) { Array($0) }, Array("Ann".utf8))
      XCTAssertEqual(try row.withUnsafeBytes(at: 1) { Array($0) }, [1, 2])
      XCTAssertNil(try row.withUnsafeBytes(at: 2) { $0.count })
    }
    let row = try XCTUnwrap(try db.queryFirst("SELECT name, photo, age FROM user WHERE id = 2"))
    XCTAssertEqual(try row.withUnsafeBytes(at: 0) { Array($0) }, Array("Bob".utf8))
    XCTAssertNil(try row.withUnsafeBytes(at: 1) { $0.count })
    XCTAssertNil(try row.withUnsafeBytes(at: 2) { $0.count })
  }

  func testQueryWithNoRowsAndQueryFirst() throws {
    XCTAssertEqual(try db.query("SELECT * FROM user WHERE id > ?", [100]).count, 0)
    XCTAssertNil(try db.queryFirst("SELECT * FROM user WHERE id > ?", [100]))
    XCTAssertNil(try db.scalar(Int.self, "SELECT id FROM user WHERE id > ?", [100]))
    let first = try XCTUnwrap(try db.queryFirst("SELECT name FROM user ORDER BY id DESC"))
    XCTAssertEqual(try first.get(String.self, at: 0), "Cy")
  }

  func testDetachedRowAndDescription() throws {
    let row = Row(columns: ["a", "b"], values: [.integer(1), .text("x")])
    XCTAssertEqual(try row.get(Int.self, "a"), 1)
    XCTAssertEqual(try row.get(String.self, at: 1), "x")
    XCTAssertEqual(row.description, "[a: 1, b: 'x']")
  }

  func testSelectStarSeesAColumnAddedAfterTheStatementWasCached() throws {
    XCTAssertEqual(try db.query("SELECT * FROM user").first?.count, 4)
    try db.forEachRow("SELECT * FROM user") { XCTAssertEqual($0.count, 4) }
    try db.execute("ALTER TABLE user ADD COLUMN email TEXT DEFAULT 'none'")
    let rows = try db.query("SELECT * FROM user")
    XCTAssertEqual(rows.first?.columnNames, ["id", "name", "age", "photo", "email"])
    XCTAssertEqual(try rows.first?.get(String.self, "email"), "none")
    try db.forEachRow("SELECT * FROM user") { row in
      XCTAssertEqual(row.count, 5)
      XCTAssertEqual(try row.get(String.self, "email"), "none")
    }
  }
}

extension RowTests {
  /// SQLite compares column names by their bytes, folding ASCII case only: "cafe\u{301}"
  /// (NFD) is not the column "caf\u{E9}" (NFC), and "\u{E9}t\u{E9}" is not "\u{C9}t\u{E9}",
  /// though Swift's `==` and `lowercased()` take them for the same.
  func testAColumnIsFoundByTheBytesOfItsNameFoldingASCIICaseOnly() throws {
    let row = try XCTUnwrap(
      try db.queryFirst(
        "SELECT 1 AS \"caf\u{E9}\", 2 AS \"cafe\u{301}\", 3 AS \"\u{C9}t\u{E9}\", 4 AS \"Zo\u{EB}\""
      ))
    XCTAssertEqual(try row.get(Int.self, "cafe\u{301}"), 2, "the NFD name read the NFC column")
    XCTAssertEqual(try row.get(Int.self, "caf\u{E9}"), 1)
    XCTAssertEqual(try row.get(Int.self, "\u{C9}t\u{E9}"), 3)
    XCTAssertEqual(try row.get(Int.self, "CAF\u{E9}"), 1, "ASCII letters fold")
    XCTAssertEqual(try row.get(Int.self, "zO\u{EB}"), 4)
    XCTAssertThrowsError(try row.get(Int.self, "\u{E9}t\u{E9}"), "only ASCII letters fold")
    XCTAssertThrowsError(try row.get(Int.self, "ZO\u{CB}"), "only ASCII letters fold")
  }
}
