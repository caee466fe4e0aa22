import Foundation
import SwiftLite
import XCTest

// Swift type changes SQLite does not see (String to [String], Int to Bool, an enum losing a
// case): the stored values are checked row by row.

final class SwiftTypeChangeTests: ModelTestCase {
  private func seed(_ rows: [TaskV1]) throws {
    let db = try open()
    try db.save(rows)
    try db.close()
  }

  /// String -> [String] keeps the TEXT column: SQLite sees no change, but "a,b" is not JSON.
  func testAStringThatBecomesAnArrayIsCheckedRowByRow() throws {
    try seed([TaskV1(id: 1, tags: "a,b", flag: 0, state: .open)])
    let db = try open()
    let plan = try db.migrationPlan(for: TaskV2.self)
    XCTAssertTrue(
      plan.changes.contains("column tags Swift type changed from String to Array<String>"),
      "\(plan.changes)")
    // A read never migrates: it reports that the table must be migrated first.
    guard
      case .needsMigration(let table, _, _) = thrownError(
        MigrationError.self, { _ = try db.findAll(TaskV2.self) })
    else { return XCTFail("expected needsMigration") }
    XCTAssertEqual(table, "Task")
    let error = thrownError(MigrationError.self) { try db.createTable(for: TaskV2.self) }
    XCTAssertEqual(error, .valuesDoNotDecode(table: "Task", column: "tags", type: "Array<String>"))
    // Nothing changed, and the old model still reads its rows.
    XCTAssertEqual(
      try open().findAll(TaskV1.self), [TaskV1(id: 1, tags: "a,b", flag: 0, state: .open)])

    // Once the stored values are converted, the change goes through.
    try open().run("UPDATE Task SET tags = json_array('a', 'b')")
    try open().migrate(TaskV2.self)
    XCTAssertEqual(try open().findAll(TaskV2.self).map(\.tags), [["a", "b"]])
  }

  func testAnIntThatBecomesABoolIsCheckedRowByRow() throws {
    try seed([
      TaskV1(id: 1, tags: "", flag: 1, state: .open),
      TaskV1(id: 2, tags: "", flag: 5, state: .done),
    ])
    let error = thrownError(MigrationError.self) { try open().migrate(TaskV3.self) }
    XCTAssertEqual(error, .valuesDoNotDecode(table: "Task", column: "flag", type: "Bool"))
    try open().run("UPDATE Task SET flag = 0 WHERE flag = 5")
    try open().migrate(TaskV3.self)
    XCTAssertEqual(
      try open().findAll(TaskV3.self, orderBy: "id").map(\.flag), [true, false])
  }

  func testAnEnumThatLostACaseStillInUseIsRefused() throws {
    try seed([TaskV1(id: 1, tags: "", flag: 0, state: .archived)])
    let error = thrownError(MigrationError.self) {
      try open().save(TaskV4(id: 2, tags: "", flag: 0, state: .open))
    }
    XCTAssertEqual(
      error, .valuesDoNotDecode(table: "Task", column: "state", type: "TaskStateWithoutArchived"))
  }

  func testTheSameSwiftTypesNeedNoCheck() throws {
    try seed([TaskV1(id: 1, tags: "x", flag: 0, state: .open)])
    XCTAssertTrue(try open().migrationPlan(for: TaskV1.self).isEmpty)
  }
}
