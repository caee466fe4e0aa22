import XCTest

@testable import SwiftLite

private struct Address: Codable, Equatable {
  var city: String
  var zip: String
}

private struct JNote: Model, Equatable {
  var id: Int64?
  var title: String
  var tags: [String]
  var address: Address?
  static let tableName = "jnote"
  static let primaryKey = ["id"]
}

/// JSON columns in the query interface: values at a path, array membership, lengths and
/// updates inside the JSON, every path and value bound.
final class JSONQueryTests: SQLiteTestCase {
  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.transaction { db in
      _ = try db.insert(
        JNote(
          id: 1, title: "beans", tags: ["coffee", "shopping"],
          address: Address(city: "Paris", zip: "75001")))
      _ = try db.insert(JNote(id: 2, title: "tasting", tags: ["cof", "urgent"], address: nil))
      _ = try db.insert(
        JNote(
          id: 3, title: "a \"quoted\" tag", tags: ["a.b", "[x]", "\"q\""],
          address: Address(city: "Lyon", zip: "69001")))
      _ = try db.insert(JNote(id: 4, title: "none", tags: [], address: nil))
    }
  }

  private func titles(_ query: ModelQuery<JNote>) throws -> [String] {
    try query.order(Column("id")).fetchAll(db).map(\.title)
  }

  func testArrayMembershipIsExactUnlikeLIKE() throws {
    XCTAssertEqual(try titles(JNote.filter(Column("tags").jsonArrayContains("cof"))), ["tasting"])
    XCTAssertEqual(try titles(JNote.filter(Column("tags").contains("cof"))), ["beans", "tasting"])
    XCTAssertEqual(try titles(JNote.filter(Column("tags").jsonArrayContains("coffee"))), ["beans"])
    XCTAssertEqual(
      try titles(JNote.filter(!Column("tags").jsonArrayContains("urgent"))),
      ["beans", "a \"quoted\" tag", "none"])
  }

  func testElementsWithJSONAndSQLSyntaxAreBoundValues() throws {
    for tag in ["a.b", "[x]", "\"q\""] {
      XCTAssertEqual(
        try titles(JNote.filter(Column("tags").jsonArrayContains(tag))), ["a \"quoted\" tag"], tag)
    }
    XCTAssertEqual(
      try titles(JNote.filter(Column("tags").jsonArrayContains("x') OR 1=1 --"))), [])
  }

  func testValuesAtAPathAndLengths() throws {
    XCTAssertEqual(
      try titles(JNote.filter(Column("address").jsonValue(at: "$.city") == "Lyon")),
      ["a \"quoted\" tag"])
    XCTAssertEqual(
      try titles(JNote.filter(Column("tags").jsonArrayLength >= 2)),
      ["beans", "tasting", "a \"quoted\" tag"])
    XCTAssertEqual(
      try titles(JNote.filter(Column("tags").jsonValue(at: "$[0]") == "cof")), ["tasting"])
    let cities = try JNote.all().select(Column("address").jsonValue(at: "$.city")).order(
      Column("id")
    )
    .fetchRows(db).map { try $0.get(String?.self, at: 0) }
    XCTAssertEqual(cities, ["Paris", nil, "Lyon", nil])
    // A path is a bound value: SQL in it is only a strange key, never SQL.
    XCTAssertEqual(
      try titles(JNote.filter(Column("address").jsonValue(at: "$.city') OR 1=1 --") == "Paris")),
      [])
    XCTAssertThrowsError(
      try JNote.filter(Column("address").jsonValue(at: "$.city[") == "x").fetchAll(db)
    ) { error in
      XCTAssertEqual((error as? SQLiteError)?.code, .error, "\(error)")
    }
    XCTAssertEqual(
      try titles(JNote.filter(Column("address").jsonValue(at: #"$."city""#) == "Paris")), ["beans"])
  }

  func testUpdatingOneValueInsideTheJSON() throws {
    let changed = try JNote.filter(Column("id") == 1).updateAll(
      db, Column("address").set(json: "$.city", to: "Lyon \"centre\""))
    XCTAssertEqual(changed, 1)
    let note = try db.find(JNote.self, id: 1)
    XCTAssertEqual(note?.address, Address(city: "Lyon \"centre\"", zip: "75001"))
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT address FROM jnote WHERE id = 1"),
      #"{"city":"Lyon \"centre\"","zip":"75001"}"#)
  }
}
