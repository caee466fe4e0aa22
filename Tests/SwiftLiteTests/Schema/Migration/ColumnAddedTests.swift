import Foundation
import SwiftLite
import XCTest

// Adding columns: nullable ones and ones with a default are added in place; a NOT NULL column
// without a default is refused while rows would need a value.

final class ColumnAddedTests: ModelTestCase {
  func testAddNullableColumnsAlterTheTable() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrationPlan(for: ItemV2.self)
    XCTAssertEqual(plan.strategy, .alter)
    XCTAssertEqual(plan.changes, ["column color added", "column tags added"])
    XCTAssertTrue(
      plan.steps.filter { $0.sql.hasPrefix("ALTER TABLE \"Item\" ADD COLUMN") }.count == 2)
    XCTAssertFalse(plan.steps.contains { $0.sql.hasPrefix("DROP TABLE") })
    try db.migrate(ItemV2.self)
    let expected = ItemV1.samples.map {
      ItemV2(id: $0.id, name: $0.name, price: $0.price, note: nil, color: nil, tags: nil)
    }
    XCTAssertEqual(try db.findAll(ItemV2.self, orderBy: "id"), expected)
    try db.save(ItemV2(id: 4, name: "fig", price: 3, note: "n", color: "red", tags: ["a"]))

    let reopened = try open()
    XCTAssertEqual(reopened.path, path())
    XCTAssertEqual(
      try reopened.columnNames("Item"), ["id", "name", "price", "note", "color", "tags"])
    XCTAssertEqual(
      try reopened.findAll(ItemV2.self, orderBy: "id"),
      expected + [
        ItemV2(id: 4, name: "fig", price: 3, note: "n", color: "red", tags: ["a"])
      ])
    XCTAssertFalse(try reopened.needsMigration(ItemV2.self))
    try assertIntact(reopened)
  }

  func testAddColumnsWithDefaults() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrate(ItemV3.self)
    XCTAssertEqual(plan.strategy, .alter, "NOT NULL with a default can be added in place")
    XCTAssertEqual(
      try db.findAll(ItemV3.self, orderBy: "id"),
      ItemV1.samples.map {
        ItemV3(
          id: $0.id, name: $0.name, price: $0.price, note: nil, stock: 5, label: "it's new")
      })
    let reopened = try open()
    XCTAssertEqual(
      try reopened.query("SELECT stock, label FROM Item ORDER BY id").map {
        "\(try $0.get(Int.self, at: 0)) \(try $0.get(String.self, at: 1))"
      }, Array(repeating: "5 it's new", count: 3))
    XCTAssertEqual(
      try reopened.scalar(
        Int.self, "SELECT \"notnull\" FROM pragma_table_info('Item') WHERE name = 'stock'"),
      1)
    XCTAssertFalse(try reopened.needsMigration(ItemV3.self))
    try assertIntact(reopened)
  }

  func testAddNotNullWithoutDefaultIsRefusedUnlessTheTableIsEmpty() throws {
    try seedItems()
    let before = try snapshot(ofFile: path())
    let db = try open()
    let error = thrownError(MigrationError.self) { try db.migrate(ItemV4.self) }
    XCTAssertEqual(error, .notNullWithoutDefault(table: "Item", column: "stock"))
    XCTAssertTrue(error?.description.contains(".default") ?? false, "\(String(describing: error))")
    XCTAssertThrowsError(try db.findAll(ItemV4.self), "first use refuses too")
    let plan = try db.migrationPlan(for: ItemV4.self)
    XCTAssertEqual(plan.refusals.map(\.error), [error], "the plan refuses too")
    XCTAssertFalse(plan.canApply)
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    XCTAssertEqual(try open().findAll(ItemV1.self, orderBy: "id"), ItemV1.samples)

    // An empty table has no row to fill: allowed.
    XCTAssertEqual(try db.deleteAll(ItemV1.self), 3)
    try db.migrate(ItemV4.self)
    try db.save(ItemV4(id: nil, name: "x", price: 1, note: nil, stock: 2))
    let reopened = try open()
    XCTAssertEqual(
      try reopened.findAll(ItemV4.self),
      [ItemV4(id: 1, name: "x", price: 1, note: nil, stock: 2)])
    XCTAssertEqual(
      try reopened.scalar(
        Int.self, "SELECT \"notnull\" FROM pragma_table_info('Item') WHERE name = 'stock'"),
      1)
    try assertIntact(reopened)
  }

  /// `.default(nil)` gives a new NOT NULL column nothing for the existing rows: the
  /// refusal must say so (notNullWithoutDefault), not surface a raw constraint failure.
  func testANullDefaultIsNoDefaultForANewNotNullColumn() throws {
    let db = try open()
    try db.save([GaugeV1(id: 1)])
    XCTAssertEqual(
      thrownError(MigrationError.self) { try db.migrate(GaugeV2.self) },
      .notNullWithoutDefault(table: "Gauge", column: "level"))
  }
}
