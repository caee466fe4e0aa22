import Foundation
import PersonStoreSample
import SwiftLite
import XCTest

final class PersonStoreTests: TemporaryDirectoryTestCase {
  private var path: String { directory.appendingPathComponent("PersonStore.sqlite").path }

  private func runDemo() throws -> [String] {
    var lines: [String] = []
    try PersonStoreDemo(path: path, output: { lines.append($0) }).run()
    return lines
  }

  func testTheDemoMigratesEveryRowAndKeepsItsValues() throws {
    let lines = try runDemo()
    XCTAssertTrue(lines.contains { $0.hasPrefix("Migration plan for Person (rebuild)") })
    let text = lines.joined(separator: "\n")
    XCTAssertTrue(text.contains("\n  - column personName renamed to name\n"))
    XCTAssertTrue(text.contains("\n  - column personHeight removed\n"))

    // What is in the file, read with a plain connection.
    let db = try Connection(path: path, options: .readOnly)
    let columns = try db.query("PRAGMA table_info(\"Person\")").map {
      try $0.get(String.self, "name")
    }
    XCTAssertEqual(columns, ["personID", "name", "personAge", "personLikes", "email"])
    let rows = try db.query(
      "SELECT personID, name, personAge, personLikes, email FROM Person ORDER BY personID")
    XCTAssertEqual(rows.count, 3)
    XCTAssertEqual(try rows[0].get(String.self, "name"), "Zhang San")
    XCTAssertEqual(try rows[0].get(Int.self, "personAge"), 29)
    XCTAssertEqual(try rows[0].get(String.self, "personLikes"), #"["tea","go"]"#)
    XCTAssertNil(try rows[0].get(String?.self, "email"))
    XCTAssertEqual(try db.scalar(String.self, "PRAGMA integrity_check"), "ok")

    // Decoded through the model, every value survived.
    let people = try Connection(path: path).findAll(PersonV2.self, orderBy: "personID")
    XCTAssertEqual(
      people,
      [
        PersonV2(personID: 1, name: "Zhang San", personAge: 29, personLikes: ["tea", "go"]),
        PersonV2(personID: 2, name: "Li Si", personAge: 34, personLikes: ["music"]),
        PersonV2(personID: 3, name: "Wang Wu", personAge: 19, personLikes: []),
      ])
  }

  func testOneTablePerChat() throws {
    _ = try runDemo()
    let db = try Connection(path: path)
    XCTAssertEqual(try db.count(ChatMessage.self, target: "42"), 2)
    XCTAssertEqual(try db.count(ChatMessage.self, target: "7"), 1)
    XCTAssertEqual(
      try db.findAll(ChatMessage.self, orderBy: "sentAt", target: "42").map(\.sender),
      ["Zhang San", "Li Si"])
    XCTAssertTrue(try SchemaInspector(db).tableExists("ChatMessage_42"))
  }

  func testTheDemoRunsTwiceOnTheSameFile() throws {
    let first = try runDemo()
    let second = try runDemo()
    XCTAssertEqual(first, second)
  }

  func testGoingBackToVersionOneIsRefusedBecauseItWouldDropData() throws {
    _ = try runDemo()
    let db = try Connection(path: path)
    XCTAssertThrowsError(try db.findAll(Person.self)) { error in
      // Every refusal is listed; the data that would be dropped comes first.
      guard
        case .wouldLoseData(let table, let column, let rows)? = (error as? MigrationError)?
          .refusals.first?.error
      else { return XCTFail("unexpected \(error)") }
      XCTAssertEqual(table, "Person")
      XCTAssertEqual(column, "name")
      XCTAssertEqual(rows, 3)
    }
    XCTAssertEqual(try db.count(PersonV2.self), 3)
  }
}
