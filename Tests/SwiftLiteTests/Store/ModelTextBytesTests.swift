import Foundation
import XCTest

@testable import SwiftLite

private struct Place: Model, Equatable {
  var code: String
  var name: String
  static let tableName = "place"
  static let primaryKey = ["code"]
  static let visits = hasMany(Visit.self)
}

private struct Visit: Model, Equatable {
  var id: Int64
  var placeCode: String
  static let tableName = "visit"
  static let primaryKey = ["id"]
  static let foreignKeys = [ForeignKey(["placeCode"], references: Place.tableName)]
}

/// The Store tells texts apart as SQLite does, by their bytes: table names, keys, values.
final class ModelTextBytesTests: SQLiteTestCase {
  private let nfc = "caf\u{E9}"
  private let nfd = "cafe\u{301}"

  private func bytes(_ text: String?) -> [UInt8]? { text.map { Array($0.utf8) } }

  /// Eager loading groups children by their parent's key as SQLite compares it.
  func testChildrenAreGroupedByTheBytesOfTheirParentsKey() throws {
    try db.save([Place(code: nfc, name: "composed"), Place(code: nfd, name: "decomposed")])
    try db.save([Visit(id: 1, placeCode: nfc), Visit(id: 2, placeCode: nfd)])
    let places = try Place.all().order(Column("name")).fetchAll(db, including: Place.visits)
    XCTAssertEqual(places.map(\.parent.name), ["composed", "decomposed"])
    XCTAssertEqual(places.map { $0.children.map(\.id) }, [[1], [2]])
    XCTAssertEqual(try db.fetchAll(Place.visits, of: places[1].parent).map(\.id), [2])
  }

}
