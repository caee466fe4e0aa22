import Foundation
import SwiftLite
import XCTest

// Removing columns: an empty column goes; one with data only when declared droppable.

final class ColumnRemovedTests: ModelTestCase {
  func testRemoveEmptyColumn() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrate(ItemV5.self)
    XCTAssertEqual(plan.strategy, .rebuild)
    XCTAssertEqual(plan.changes, ["column note removed"])
    let expected = ItemV1.samples.map { ItemV5(id: $0.id, name: $0.name, price: $0.price) }
    XCTAssertEqual(try db.findAll(ItemV5.self, orderBy: "id"), expected)
    let reopened = try open()
    XCTAssertEqual(try reopened.columnNames("Item"), ["id", "name", "price"])
    XCTAssertEqual(try reopened.findAll(ItemV5.self, orderBy: "id"), expected)
    try assertIntact(reopened)
  }

  func testRemoveColumnWithDataIsRefusedThenPermitted() throws {
    try seedItems()
    let before = try snapshot(ofFile: path())
    let db = try open()
    let error = thrownError(MigrationError.self) { try db.migrate(ItemV6.self) }
    XCTAssertEqual(error, .wouldLoseData(table: "Item", column: "price", rows: 3))
    XCTAssertTrue(error?.description.contains("droppableColumns") ?? false)
    XCTAssertEqual(try snapshot(ofFile: path()), before)

    try db.migrate(ItemV7.self)
    let expected = ItemV1.samples.map { ItemV7(id: $0.id, name: $0.name, note: $0.note) }
    let reopened = try open()
    XCTAssertEqual(try reopened.columnNames("Item"), ["id", "name", "note"])
    XCTAssertEqual(try reopened.findAll(ItemV7.self, orderBy: "id"), expected)
    try assertIntact(reopened)
  }
}
