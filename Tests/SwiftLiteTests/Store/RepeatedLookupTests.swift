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
}
