import Foundation
import SwiftLite
import XCTest

// Column constraints: NOT NULL, UNIQUE, DEFAULT, CHECK, COLLATE and AUTOINCREMENT.

final class ConstraintTests: ModelTestCase {
  func testConstraintThatExistingRowsViolateIsRefused() throws {
    try seedItems(ItemV1.samples + [ItemV1(id: 4, name: "apple", price: 9, note: nil)])
    let before = try snapshot(ofFile: path())
    let db = try open()
    for attempt in [
      { try db.migrate(ItemV10.self) },  // rebuild
      { try db.migrate(ItemV11.self) },  // alter: CREATE UNIQUE INDEX
      { try db.migrate(ItemV12.self) },  // NULL notes into NOT NULL
    ] as [() throws -> MigrationPlan] {
      let error = thrownError(MigrationError.self) { _ = try attempt() }
      guard case .constraintViolated(let table, _, let message)? = error else {
        XCTFail("expected constraintViolated, got \(String(describing: error))")
        continue
      }
      XCTAssertEqual(table, "Item")
      XCTAssertTrue(message.contains("constraint failed"), message)
      XCTAssertFalse(db.isInTransaction)
      XCTAssertEqual(try snapshot(ofFile: path()), before)
    }
    // The connection still works, with the old model.
    XCTAssertEqual(try db.count(ItemV1.self), 4)
    try assertIntact(try open())
  }

  func testCheckAndCollationChangesAreDetected() throws {
    try seedItems()
    let db = try open()
    let plan = try db.migrationPlan(for: ItemV13.self)
    XCTAssertEqual(plan.strategy, .rebuild, "SQLite's pragmas do not report CHECK: the record does")
    XCTAssertEqual(plan.changes.count, 1)
    XCTAssertTrue(plan.changes[0].contains("CHECK"), plan.changes[0])
    try db.migrate(ItemV13.self)
    XCTAssertTrue(try XCTUnwrap(db.storedSQL("Item")).contains("CHECK (price > 0)"))
    XCTAssertThrowsError(try db.save(ItemV13(id: 9, name: "free", price: 0, note: nil))) {
      XCTAssertEqual(($0 as? SQLiteError)?.constraintKind, .check, "\($0)")
    }
    XCTAssertEqual(try db.count(ItemV13.self), 3)

    let other = try open()
    try other.migrate(ItemV14.self)
    XCTAssertEqual(try other.findAll(ItemV14.self, where: "name = ?", ["APPLE"]).map(\.id), [1])
    XCTAssertFalse(try XCTUnwrap(other.storedSQL("Item")).contains("CHECK"))

    // A CHECK the rows violate is refused, leaving the file as it was.
    try other.save(ItemV14(id: 4, name: "gift", price: 0, note: nil))
    let before = try snapshot(ofFile: path())
    let error = thrownError(MigrationError.self) { try other.migrate(ItemV13.self) }
    if case .constraintViolated(_, _, let message)? = error {
      XCTAssertTrue(message.contains("CHECK"), message)
    } else {
      XCTFail("expected constraintViolated, got \(String(describing: error))")
    }
    XCTAssertEqual(try snapshot(ofFile: path()), before)
    try assertIntact(try open())
  }

  /// An optional property made required with a default: the rows where it was NULL take
  /// the default, as a new column's rows would; without a default it stays refused.
  func testOptionalMadeRequiredWithADefaultBackfillsTheNulls() throws {
    let db = try open()
    try db.save([MemoV1(id: 1, text: nil), MemoV1(id: 2, text: "kept")])
    let plan = try db.migrate(MemoV2.self)
    XCTAssertEqual(
      plan.changes,
      ["column text became NOT NULL (NULLs take its default)", "column text default changed"])
    XCTAssertEqual(
      try open().findAll(MemoV2.self, orderBy: "id"),
      [MemoV2(id: 1, text: ""), MemoV2(id: 2, text: "kept")])
    XCTAssertFalse(try db.needsMigration(MemoV2.self))
  }

  /// A violated constraint is reported on the model's table, not on the rebuild's
  /// internal copy (`swiftlite_new_<table>`) that the user never made.
  func testAConstraintFailureNamesTheTableNotTheInternalCopy() throws {
    let db = try open()
    try db.save([MemoV1(id: 1, text: nil)])
    let error = thrownError(MigrationError.self) {
      try db.migrate(MemoV3.self)
    }
    guard case .constraintViolated(let table, _, let message)? = error else {
      return XCTFail("expected constraintViolated, got \(String(describing: error))")
    }
    XCTAssertEqual(table, "Memo")
    XCTAssertTrue(message.contains("Memo.text"), message)
    XCTAssertFalse(message.contains("swiftlite_"), message)
  }

  func testRebuildKeepsTheAutoincrementSequence() throws {
    do {
      let db = try open()
      XCTAssertEqual(
        try (1...3).map { _ in try db.insert(TicketV1(id: nil, title: "t")) }, [1, 2, 3])
      try db.delete(TicketV1.self, id: 3)
      try db.close()
    }
    let db = try open()
    XCTAssertEqual(try db.migrate(TicketV2.self).strategy, .rebuild)
    XCTAssertEqual(
      try db.insert(TicketV2(id: nil, subject: "after")), 4, "a used key is never given again")
    XCTAssertEqual(
      try db.scalar(
        Int.self, "SELECT count(*) FROM sqlite_sequence WHERE name LIKE 'swiftlite_new_%'"), 0)
    XCTAssertEqual(
      try db.scalar(Int.self, "SELECT count(*) FROM sqlite_sequence WHERE name = 'Ticket'"), 1)

    // An empty table keeps its sequence too.
    do {
      let other = try open("empty.sqlite")
      try other.insert(TicketV1(id: nil, title: "gone"))
      try other.deleteAll(TicketV1.self)
      try other.close()
    }
    let empty = try open("empty.sqlite")
    try empty.migrate(TicketV2.self)
    XCTAssertEqual(try empty.insert(TicketV2(id: nil, subject: "after")), 2)
  }
}
