import XCTest
import SwiftLite

private enum Mood: String, Codable, SQLiteValueConvertible, CaseIterable { case happy, grumpy }
private struct Address: Codable, Equatable { var city: String; var zip: String? }

private struct PersonV1: Model, Equatable {
  var personID: Int64?
  var personName: String
  var personAge: Int
  var personHeight: Double
  var personLikes: [String]
  var mood: Mood
  var address: Address?
  var born: Date
  var uuid: UUID
  static let tableName = "Person"
  static let primaryKey = ["personID"]
}

private struct PersonV2: Model, Equatable {
  var personID: Int64?
  var name: String
  var personAge: Int
  var personLikes: [String]
  var mood: Mood
  var address: Address?
  var born: Date
  var uuid: UUID
  var nickname: String?
  var score: Int
  static let tableName = "Person"
  static let primaryKey = ["personID"]
  static let renamedProperties = ["name": "personName"]
  static let droppableColumns: Set<String> = ["personHeight"]
  static let columnConstraints: [String: [ColumnConstraint]] = ["score": [.default(7)]]
  static let indexes = [TableIndex(["name"])]
}

final class ModelSmokeTests: XCTestCase {
  func testRoundTripAndMigrate() throws {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    let path = dir.appendingPathComponent("m.sqlite").path
    let db = try Connection(path: path)
    let born = Date(timeIntervalSince1970: 1_000_000.123)
    let p = PersonV1(personID: nil, personName: "Ann", personAge: 30, personHeight: 1.7, personLikes: ["tea", "cats"], mood: .grumpy, address: Address(city: "Oslo", zip: nil), born: born, uuid: UUID())
    let id = try db.insert(p)
    var expected = p
    expected.personID = id
    XCTAssertEqual(try db.find(PersonV1.self, id: id), expected)
    try db.save(PersonV1(personID: nil, personName: "Bob", personAge: 40, personHeight: 1.8, personLikes: [], mood: .happy, address: nil, born: born, uuid: UUID()))
    XCTAssertEqual(try db.count(PersonV1.self), 2)
    print(try db.scalar(String.self, "SELECT sql FROM sqlite_schema WHERE name='Person'") ?? "")
    let db2 = try Connection(path: path)
    let plan = try db2.migrationPlan(for: PersonV2.self)
    print(plan)
    let all = try db2.findAll(PersonV2.self, orderBy: "personID")
    XCTAssertEqual(all.map(\.name), ["Ann", "Bob"])
    XCTAssertEqual(all.map(\.score), [7, 7])
    XCTAssertEqual(all[0].personLikes, ["tea", "cats"])
    XCTAssertEqual(all[0].address, Address(city: "Oslo", zip: nil))
    XCTAssertEqual(try db2.migrationPlan(for: PersonV2.self).isEmpty, true)
    // Going back would drop data: refused.
    let db3 = try Connection(path: path)
    XCTAssertThrowsError(try db3.findAll(PersonV1.self)) { print($0) }
  }
}
