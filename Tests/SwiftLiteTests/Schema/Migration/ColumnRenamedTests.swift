import Foundation
import SwiftLite
import XCTest

// Renaming columns: the values follow the rename, also when only the case changes.

final class ColumnRenamedTests: ModelTestCase {
  func testRenameCarriesTheValues() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrate(ItemV8.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(plan.changes, ["column name renamed to title"])
    let copy = try XCTUnwrap(
      plan.steps.first { $0.sql.hasPrefix("INSERT INTO \"swiftlite_new_Item\"") })
    XCTAssertTrue(
      copy.sql.contains("SELECT \"id\", \"name\", \"price\", \"note\" FROM \"Item\""), copy.sql)
    let expected = ItemV1.samples.map {
      ItemV8(id: $0.id, title: $0.name, price: $0.price, note: nil)
    }
    let reopened = try open()
    XCTAssertEqual(try reopened.columnNames("Item"), ["id", "title", "price", "note"])
    XCTAssertEqual(try reopened.findAll(ItemV8.self, orderBy: "id"), expected)
    XCTAssertFalse(try reopened.needsMigration(ItemV8.self))
    try assertIntact(reopened)
  }

  func testRenamePlusAdd() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrate(ItemV9.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(
      Set(plan.changes),
      [
        "column name renamed to title", "column price renamed to cost", "column stock added",
        "column tags added", "index Item_on_title added",
      ])
    let expected = ItemV1.samples.map {
      ItemV9(
        id: $0.id, title: $0.name, cost: $0.price, note: nil, stock: 1, tags: nil)
    }
    XCTAssertEqual(try db.findAll(ItemV9.self, orderBy: "id"), expected)
    let reopened = try open()
    XCTAssertEqual(
      try reopened.columnNames("Item"), ["id", "title", "cost", "note", "stock", "tags"])
    XCTAssertEqual(try reopened.indexNames("Item"), ["Item_on_title"])
    XCTAssertEqual(try reopened.findAll(ItemV9.self, orderBy: "id"), expected)
    try assertIntact(reopened)
  }

  /// SQLite's column names ignore ASCII case: a property renamed only in case (userID ->
  /// userId) is the same column. It must keep its values, not be refused as a removed
  /// column whose fix (droppableColumns) would drop them.
  func testAPropertyRenamedOnlyInCaseKeepsItsValues() throws {
    let db = try open()
    try db.save([
      AccountV1(id: 1, userID: "u1", nickName: "Ann"),
      AccountV1(id: 2, userID: "u2", nickName: nil),
    ])
    try db.migrate(AccountV2.self)
    let reopened = try open()
    XCTAssertEqual(try reopened.columnNames("Account"), ["id", "userId", "nickname"])
    XCTAssertEqual(
      try reopened.findAll(AccountV2.self, orderBy: "id"),
      [
        AccountV2(id: 1, userId: "u1", nickname: "Ann"),
        AccountV2(id: 2, userId: "u2", nickname: nil),
      ])
    XCTAssertFalse(try reopened.needsMigration(AccountV2.self))
  }
}
