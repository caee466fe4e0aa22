import Foundation
import XCTest

@testable import SwiftLite

/// A `String` property over a column of NUMERIC affinity (DATETIME, DECIMAL, BOOLEAN...)
/// reads the text another program stored there as it is, and writes it back unchanged.
final class TextOverNumericTests: SQLiteTestCase {
  struct Item: Model {
    var id: Int64?
    var day: String
    var price: String?
    static let primaryKey = ["id"]
  }

  override func setUpWithError() throws {
    try super.setUpWithError()
    try db.execute(
      """
      CREATE TABLE Item(id INTEGER PRIMARY KEY, day DATETIME NOT NULL, price DECIMAL(10,2));
      INSERT INTO Item VALUES (1, '2016-07-05', 'n/a'), (2, '2021-01-02 00:00:00', NULL);
      """)
  }

  func testAStringReadsTheTextOfADatetimeColumnAsItIs() throws {
    let items = try db.findAll(Item.self, orderBy: "id")
    XCTAssertEqual(items.map(\.day), ["2016-07-05", "2021-01-02 00:00:00"])
    XCTAssertEqual(items.map(\.price), ["n/a", nil])
    let before = try db.dump("Item")
    for item in items { try db.save(item) }
    XCTAssertEqual(try db.dump("Item"), before)
  }

  func testANumberStoredThereIsAnErrorNamingTheColumnAndTheRow() throws {
    try db.execute("INSERT INTO Item VALUES (3, 20160705, NULL)")
    guard let (_, description) = assertDecodingError(try db.findAll(Item.self)) else { return }
    XCTAssertTrue(description.contains("'day'"), description)
    XCTAssertTrue(description.contains("INTEGER"), description)
    XCTAssertTrue(description.contains("id = 3"), description)
    guard let (_, one) = assertDecodingError(try db.find(Item.self, id: 3)) else { return }
    XCTAssertTrue(one.contains("'day'") && one.contains("id = 3"), one)
  }
}
