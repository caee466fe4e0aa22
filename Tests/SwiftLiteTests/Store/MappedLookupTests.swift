import Foundation
import XCTest

@testable import SwiftLite

/// A mapped model that looks its parent up, with the same model, while it reads itself.
private struct LookupNode: Model, RowMapped, Equatable {
  var id: Int64
  var name: String
  var parent: Int64?
  var parentName: String? = nil
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "name", "parent"]
  static let ignoredProperties: Set<String> = ["parentName"]

  init(id: Int64, name: String, parent: Int64?) {
    (self.id, self.name, self.parent) = (id, name, parent)
  }

  enum CodingKeys: String, CodingKey { case id, name, parent, parentName }

  init(row: MappedRow) throws {
    id = try row.get(0)
    name = try row.get(1)
    parent = try row.get(2)
    if let parent, let connection = LookupNode.connection?.value {
      parentName = try connection.find(LookupNode.self, id: parent)?.name
    }
  }

  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(name, at: 1)
    try row.set(parent, at: 2)
  }

  nonisolated(unsafe) static var connection: Unchecked<Connection>?
}

/// A mapped model keyed by text.
private struct LookupTag: Model, RowMapped, Equatable {
  var code: String
  var label: String
  static let primaryKey = ["code"]
  static let mappedColumns = ["code", "label"]

  init(code: String, label: String) { (self.code, self.label) = (code, label) }

  init(row: MappedRow) throws {
    code = try row.get(0)
    label = try row.get(1)
  }

  func write(to row: MappedRowWriter) throws {
    try row.set(code, at: 0)
    try row.set(label, at: 1)
  }
}

/// `find(_:id:)` of a ``RowMapped`` model runs the lookup statement its table keeps: it
/// reads what the cached statement read, through nested lookups, schema changes made by
/// another connection, a closed connection and a queue's thread checks.
final class MappedLookupTests: SQLiteTestCase {
  override func tearDownWithError() throws {
    LookupNode.connection = nil
    try super.tearDownWithError()
  }

  func testRepeatedLookupsReadEachRowAndMissingKeysReadNil() throws {
    for id in 1...10 { try db.insert(LookupNode(id: Int64(id), name: "n\(id)", parent: nil)) }
    for id in [3, 1, 10, 3, 7] {
      XCTAssertEqual(try db.find(LookupNode.self, id: id)?.name, "n\(id)")
    }
    XCTAssertNil(try db.find(LookupNode.self, id: 11))
    XCTAssertEqual(try db.find(LookupNode.self, id: Int64(2))?.name, "n2")
    // A key of another storage class compares as SQLite compares it with the column.
    XCTAssertEqual(try db.find(LookupNode.self, id: "2")?.name, "n2")
    XCTAssertEqual(try db.find(LookupNode.self, id: 2.0)?.name, "n2")
  }

  func testATextKeyIsBoundByteForByte() throws {
    try db.insert(LookupTag(code: "é", label: "composed"))
    try db.insert(LookupTag(code: "e\u{301}", label: "decomposed"))
    XCTAssertEqual(try db.find(LookupTag.self, id: "é")?.label, "composed")
    XCTAssertEqual(try db.find(LookupTag.self, id: "e\u{301}")?.label, "decomposed")
    XCTAssertNil(try db.find(LookupTag.self, id: ""))
    XCTAssertThrowsError(try db.find(LookupTag.self, id: Double.nan))
    XCTAssertEqual(try db.find(LookupTag.self, id: "é")?.label, "composed")
  }

  func testALookupInsideALookupOfTheSameModel() throws {
    try db.insert(LookupNode(id: 1, name: "root", parent: nil))
    try db.insert(LookupNode(id: 2, name: "child", parent: 1))
    try db.insert(LookupNode(id: 3, name: "grandchild", parent: 2))
    LookupNode.connection = Unchecked(db)
    let grandchild = try XCTUnwrap(try db.find(LookupNode.self, id: 3))
    XCTAssertEqual(grandchild.name, "grandchild")
    XCTAssertEqual(grandchild.parentName, "child")
    XCTAssertEqual(try db.find(LookupNode.self, id: 2)?.parentName, "root")
    XCTAssertEqual(try db.find(LookupNode.self, id: 1)?.parentName, nil)
  }

  func testALookupAfterAnotherConnectionReordersTheColumns() throws {
    try db.execute("CREATE TABLE LookupTag(code TEXT PRIMARY KEY, label TEXT NOT NULL)")
    try db.execute("INSERT INTO LookupTag VALUES ('a', 'first')")
    XCTAssertEqual(try db.find(LookupTag.self, id: "a")?.label, "first")
    let table = try db.modelTable(LookupTag.self, target: nil, for: .read)
    let other = try openSecondConnection()
    try other.execute(
      """
      DROP TABLE LookupTag;
      CREATE TABLE LookupTag(label TEXT NOT NULL, code TEXT PRIMARY KEY);
      INSERT INTO LookupTag VALUES ('second', 'a');
      """)
    try other.close()
    XCTAssertEqual(try db.find(LookupTag.self, id: "a"), LookupTag(code: "a", label: "second"))
    // The table was not checked again: its lookup statement was prepared again by SQLite.
    XCTAssertTrue(table === (try db.modelTable(LookupTag.self, target: nil, for: .read)))
    XCTAssertEqual(try db.find(LookupTag.self, id: "a")?.label, "second")
  }

  func testALookupAfterADecodingErrorAndOnAClosedConnection() throws {
    try db.execute("CREATE TABLE LookupTag(code TEXT PRIMARY KEY, label TEXT NOT NULL)")
    try db.execute("INSERT INTO LookupTag VALUES ('a', 'first'), ('b', x'00')")
    XCTAssertThrowsError(try db.find(LookupTag.self, id: "b")) { error in
      XCTAssertNotNil(error as? DecodingError, "\(error)")
    }
    XCTAssertEqual(try db.find(LookupTag.self, id: "a")?.label, "first")
    try db.close()
    assertSQLiteError(try db.find(LookupTag.self, id: "a")) { error in
      XCTAssertEqual(error.code, .misuse)
    }
  }

  func testAQueueClosesAfterMappedLookupsAndRefusesAnEscapedConnection() throws {
    let queue = try DatabaseQueue(path: path("queue.sqlite"))
    try queue.write { db in try db.save(LookupTag(code: "a", label: "first")) }
    let escaped = try queue.read { db -> Unchecked<Connection> in
      XCTAssertEqual(try db.find(LookupTag.self, id: "a")?.label, "first")
      return Unchecked(db)
    }
    assertSQLiteError(try escaped.value.find(LookupTag.self, id: "a")) { error in
      XCTAssertEqual(error.code, .misuse)
    }
    XCTAssertEqual(try queue.read { db in try db.find(LookupTag.self, id: "a")?.label }, "first")
    try queue.close()
  }
}
