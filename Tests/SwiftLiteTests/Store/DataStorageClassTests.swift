import Foundation
import XCTest

@testable import SwiftLite

/// A `Data` property written over a row that holds TEXT there keeps TEXT, with the same
/// bytes; over a BLOB (or a new row) it is a BLOB.
final class DataStorageClassTests: SQLiteTestCase {
  struct Raw: Model {
    var id: Int64?
    var v: Data
    var w: Data?
    static let primaryKey = ["id"]
    static let tableName = "raw"
  }

  private func dump() throws -> [String] {
    try db.query("SELECT quote(v) || '|' || quote(w) FROM raw ORDER BY id").map {
      try $0.get(String.self, at: 0)
    }
  }

  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute(
      """
      CREATE TABLE raw(id INTEGER PRIMARY KEY, v NOT NULL, w BLOB);
      INSERT INTO raw VALUES (1, 'abc', 'caf\u{E9}'), (2, x'00ff', x'616263'), (3, '', NULL);
      """)
  }

  func testUpdateAndSaveUnchangedKeepTheStorageClassOfEachRow() throws {
    let before = try dump()
    for row in try db.findAll(Raw.self, orderBy: "id") { try db.update(row) }
    XCTAssertEqual(try dump(), before)
    for row in try db.findAll(Raw.self, orderBy: "id") { try db.save(row) }
    XCTAssertEqual(try dump(), before)
    XCTAssertEqual(try db.scalar(Int64.self, "SELECT id FROM raw WHERE v = 'abc'"), 1)
  }

  func testChangedBytesOverTextAreTextAndOverABlobABlob() throws {
    var first = try XCTUnwrap(db.find(Raw.self, id: 1))
    first.v = Data("xyz".utf8)
    first.w = nil
    try db.update(first)
    var second = try XCTUnwrap(db.find(Raw.self, id: 2))
    let original = second
    second.v = Data("def".utf8)
    try db.update(second, from: original)
    try db.insert(Raw(id: 4, v: Data("new".utf8), w: Data("t".utf8)))
    XCTAssertEqual(
      try dump(), ["'xyz'|NULL", "X'646566'|X'616263'", "''|NULL", "X'6E6577'|X'74'"])
  }

  func testUpdateFromOriginalOverTextWritesText() throws {
    let original = try XCTUnwrap(db.find(Raw.self, id: 1))
    var changed = original
    changed.v = Data("abd".utf8)
    try db.update(changed, from: original)
    XCTAssertEqual(try dump().first, "'abd'|'caf\u{E9}'")
  }
}
