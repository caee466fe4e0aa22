import Foundation
import SwiftLite
import XCTest

/// A model whose decoding looks its parent up on the connection being read: a lookup
/// inside a lookup of the same model.
private struct Node: Model, Equatable {
  var id: Int64
  var name: String
  var parent: Int64?
  var parentName: String? = nil
  static let primaryKey = ["id"]
  static let ignoredProperties: Set<String> = ["parentName"]

  init(id: Int64, name: String, parent: Int64?) {
    (self.id, self.name, self.parent) = (id, name, parent)
  }

  enum CodingKeys: String, CodingKey { case id, name, parent, parentName }

  init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(Int64.self, forKey: .id)
    name = try container.decode(String.self, forKey: .name)
    parent = try container.decodeIfPresent(Int64.self, forKey: .parent)
    if let parent, let connection = Node.connection?.value {
      parentName = try connection.find(Node.self, id: parent)?.name
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(id, forKey: .id)
    try container.encode(name, forKey: .name)
    try container.encode(parent, forKey: .parent)
  }

  nonisolated(unsafe) static var connection: Unchecked<Connection>?
}

/// `Node`'s table read with a mapping of its own.
private struct MappedNode: Model, RowMapped {
  var id: Int64
  var name: String
  var parent: Int64?
  static let tableName = "Node"
  static let primaryKey = ["id"]
  static let mappedColumns = ["id", "name", "parent"]

  init(row: MappedRow) throws {
    id = try row.get(0)
    name = try row.get(1)
    parent = try row.get(2)
  }

  func write(to row: MappedRowWriter) throws {
    try row.set(id, at: 0)
    try row.set(name, at: 1)
    try row.set(parent, at: 2)
  }
}

/// Lookups by primary key, repeated on one connection, decode each row afresh: the
/// decoder a table keeps between lookups never mixes up rows, keys or nested lookups.
final class RepeatedLookupTests: SQLiteTestCase {
  override func tearDownWithError() throws {
    Node.connection = nil
    try super.tearDownWithError()
  }

  func testRepeatedLookupsDecodeEachRow() throws {
    for id in 1...20 {
      try db.insert(Node(id: Int64(id), name: "n\(id)", parent: id.isMultiple(of: 2) ? nil : 1))
    }
    for id in [5, 2, 20, 1, 2, 19] {
      let node = try XCTUnwrap(try db.find(Node.self, id: id))
      XCTAssertEqual(
        node, Node(id: Int64(id), name: "n\(id)", parent: id.isMultiple(of: 2) ? nil : 1))
    }
    XCTAssertNil(try db.find(Node.self, id: 99))
    XCTAssertEqual(try db.find(Node.self, id: 3)?.name, "n3")
  }

  func testALookupInsideALookupOfTheSameModel() throws {
    try db.insert(Node(id: 1, name: "root", parent: nil))
    try db.insert(Node(id: 2, name: "child", parent: 1))
    try db.insert(Node(id: 3, name: "grandchild", parent: 2))
    Node.connection = Unchecked(db)
    let grandchild = try XCTUnwrap(try db.find(Node.self, id: 3))
    XCTAssertEqual(grandchild.name, "grandchild")
    XCTAssertEqual(grandchild.parentName, "child")
    // The outer lookup's decoder is intact afterwards.
    let child = try XCTUnwrap(try db.find(Node.self, id: 2))
    XCTAssertEqual(child.name, "child")
    XCTAssertEqual(child.parentName, "root")
    XCTAssertEqual(try db.find(Node.self, id: 1)?.parentName, nil)
  }

  func testADecodingErrorLeavesLaterLookupsWorking() throws {
    try db.insert(Node(id: 1, name: "ok", parent: nil))
    try db.execute("INSERT INTO Node(id, name, parent) VALUES (2, x'00', NULL)")
    XCTAssertThrowsError(try db.find(Node.self, id: 2))
    XCTAssertEqual(try db.find(Node.self, id: 1)?.name, "ok")
    XCTAssertThrowsError(try db.find(Node.self, id: 2))
  }

  /// A row that does not decode is named by its key in the error of `find(_:id:)`, for a
  /// `Codable` model and for one with a mapping of its own.
  func testALookupThatFailsNamesTheRow() throws {
    try db.insert(Node(id: 1, name: "ok", parent: nil))
    try db.execute("INSERT INTO Node(id, name, parent) VALUES (2, x'00', NULL)")
    for lookup in [
      { _ = try self.db.find(Node.self, id: 2) }, { _ = try self.db.find(MappedNode.self, id: 2) },
    ] {
      XCTAssertThrowsError(try lookup()) { error in
        guard case .typeMismatch(_, let context) = error as? DecodingError else {
          return XCTFail("expected a type mismatch, got \(error)")
        }
        XCTAssertTrue(
          context.debugDescription.hasSuffix("(table Node, the row with id = 2)"),
          context.debugDescription)
      }
    }
    XCTAssertEqual(try db.find(MappedNode.self, id: 1)?.name, "ok")
    XCTAssertNil(try db.find(MappedNode.self, id: 3))
  }
}
