import Foundation
import SwiftLite
import XCTest

private struct Contact: Model, Equatable {
  var id: Int64?
  var name: String
  var nickname: String?
  static let primaryKey = ["id"]
}

private struct Attachment: Model, Equatable {
  var id: Int64?
  var bytes: Data
  static let primaryKey = ["id"]
}

/// Models read text through `Row`: invalid UTF-8 is an error naming the column, never
/// repaired, so a find-then-save cannot rewrite the stored bytes.
final class InvalidTextModelTests: SQLiteTestCase {
  private func hex(_ sql: String) throws -> [String] {
    try db.query(sql).map { try $0.get(String.self, at: 0) }
  }

  func testAStringPropertyOnInvalidUTF8IsADecodingErrorNamingTheColumn() throws {
    try db.save(Contact(id: 1, name: "Ann", nickname: "A"))
    try db.save(Contact(id: 2, name: "Bob", nickname: nil))
    try db.execute("UPDATE Contact SET name = CAST(x'416EFF' AS TEXT) WHERE id = 1")
    try db.execute("UPDATE Contact SET nickname = CAST(x'C3' AS TEXT) WHERE id = 2")
    let before = try hex("SELECT hex(name) || '/' || ifnull(hex(nickname), '-') FROM Contact")

    for (id, column) in [(1, "name"), (2, "nickname")] {
      let failure = assertDecodingError(try db.find(Contact.self, id: id))
      guard case .dataCorrupted(let context)? = failure?.error else {
        return XCTFail("\(String(describing: failure))")
      }
      XCTAssertEqual(context.codingPath.last?.stringValue, column)
      XCTAssertTrue(failure!.description.contains("not valid UTF-8"), failure!.description)
      XCTAssertTrue(failure!.description.contains("Data"), failure!.description)
    }
    assertDecodingError(try db.findAll(Contact.self))
    // Nothing was decoded, so nothing could be saved back: the bytes are as they were.
    XCTAssertEqual(
      try hex("SELECT hex(name) || '/' || ifnull(hex(nickname), '-') FROM Contact"), before)
    XCTAssertEqual(before, ["416EFF/41", "426F62/C3"])
  }

  func testADataPropertyReadsTheExactBytesOfText() throws {
    try db.save(Attachment(id: 1, bytes: Data([1, 2])))
    try db.execute("UPDATE Attachment SET bytes = CAST(x'C328' AS TEXT)")
    XCTAssertEqual(try db.find(Attachment.self, id: 1)?.bytes, Data([0xC3, 0x28]))
  }
}
