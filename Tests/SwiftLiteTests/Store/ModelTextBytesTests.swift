import Foundation
import XCTest

@testable import SwiftLite

private struct Chat: Model, Equatable {
  var id: Int64?
  var text: String
  static let primaryKey = ["id"]
}

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

/// A model whose property is "café" written precomposed (NFC), mapped onto a table whose
/// column is "café" written with a combining accent (NFD): another name to SQLite.
private struct ComposedCafe: Model, Equatable {
  var id: Int64
  var drink: String
  static let tableName = "cafes"
  static let primaryKey = ["id"]
  static let schemaPolicy = SchemaPolicy.mapped
  enum CodingKeys: String, CodingKey {
    case id
    case drink = "caf\u{E9}"
  }
}

/// The Store tells texts apart as SQLite does, by their bytes: table names, keys, values.
final class ModelTextBytesTests: SQLiteTestCase {
  private let nfc = "caf\u{E9}"
  private let nfd = "cafe\u{301}"

  private func bytes(_ text: String?) -> [UInt8]? { text.map { Array($0.utf8) } }

  /// Two targets whose names differ only in normalization are two tables: the model table
  /// kept for one is never used for the other.
  func testTargetsThatDifferOnlyInNormalizationAreTwoTables() throws {
    try db.save(Chat(id: 1, text: "composed"), target: nfc)
    try db.save(Chat(id: 1, text: "decomposed"), target: nfd)
    XCTAssertEqual(try db.find(Chat.self, id: 1, target: nfc)?.text, "composed")
    XCTAssertEqual(try db.find(Chat.self, id: 1, target: nfd)?.text, "decomposed")
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT text FROM \(identifier: Chat.tableName(target: nfc))"),
      "composed")
    XCTAssertEqual(
      try db.scalar(String.self, "SELECT text FROM \(identifier: Chat.tableName(target: nfd))"),
      "decomposed")
  }

  /// A save or an update that changes only the normalization of a text writes it.
  func testASaveThatChangesOnlyTheNormalizationWritesIt() throws {
    try db.save(Chat(id: 1, text: nfc))
    try db.save(Chat(id: 1, text: nfd))
    XCTAssertEqual(bytes(try db.scalar(String.self, "SELECT text FROM Chat")), bytes(nfd))
    try db.update(Chat(id: 1, text: nfc))
    XCTAssertEqual(bytes(try db.scalar(String.self, "SELECT text FROM Chat")), bytes(nfc))
    XCTAssertEqual(bytes(try db.find(Chat.self, id: 1)?.text), bytes(nfc))
    let snapshot = try db.snapshot()
    try db.save(Chat(id: 1, text: nfd))
    XCTAssertNotEqual(try db.snapshot(), snapshot, "a dump shows the bytes")
  }

  /// Eager loading groups children by their parent's key as SQLite compares it.
  func testChildrenAreGroupedByTheBytesOfTheirParentsKey() throws {
    try db.save([Place(code: nfc, name: "composed"), Place(code: nfd, name: "decomposed")])
    try db.save([Visit(id: 1, placeCode: nfc), Visit(id: 2, placeCode: nfd)])
    let places = try Place.all().order(Column("name")).fetchAll(db, including: Place.visits)
    XCTAssertEqual(places.map(\.parent.name), ["composed", "decomposed"])
    XCTAssertEqual(places.map { $0.children.map(\.id) }, [[1], [2]])
    XCTAssertEqual(try db.fetchAll(Place.visits, of: places[1].parent).map(\.id), [2])
  }

  /// A property maps onto the column whose name has its bytes (ASCII letters in any case),
  /// not onto one that differs only in normalization: the write is refused, saying why.
  func testAPropertyDoesNotMapOntoAColumnThatDiffersOnlyInNormalization() throws {
    try db.execute("CREATE TABLE cafes(id INTEGER PRIMARY KEY, \(SQLIdentifier.quote(nfd)) TEXT)")
    let error = thrownError(ModelError.self) { try db.save(ComposedCafe(id: 1, drink: "tea")) }
    XCTAssertTrue(
      String(describing: error).contains("another Unicode normalization form"),
      String(describing: error))
    XCTAssertEqual(try db.scalar(Int.self, "SELECT count(*) FROM cafes"), 0)
    XCTAssertNotEqual(nfc.asciiCaseFolded, nfd.asciiCaseFolded)
    XCTAssertEqual("CAF\u{C9}".asciiCaseFolded, "caf\u{C9}".asciiCaseFolded)
    XCTAssertNotEqual("CAF\u{C9}".asciiCaseFolded, nfc.asciiCaseFolded, "only ASCII folds")
  }
}
